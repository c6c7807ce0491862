import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay
@testable import PanTune

struct TuningHeatMapTests {
    static func result(_ axes: [String]) throws -> TuningResult {
        let grid = try TuningGrid(axes: axes.map(GridAxis.init(parsing:)))
        return try Tuner(presetNamed: "swipe-dismiss", grid: grid).run(on: TraceCorpus(traces: Fixtures.swipes(30, seed: 5)))
    }

    @Test
    func theMapIsWellFormedSVGWithACellPerPointAndBothMarkers() throws {
        let result = try Self.result(["threshold=0.2:0.8:0.1", "duration=1,1.5"])
        let svg = TuningHeatMap(result).svg()
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(svg.components(separatedBy: "<title>").count - 1 == 14)
        #expect(svg.contains("stroke=\"#d62728\""))  // best
        #expect(svg.contains("<polygon"))  // defaults (threshold 0.5, duration 1.5 are on the grid)
        #expect(!svg.contains("outside the grid"))
    }

    @Test
    func defaultsOffTheGridAreNamedInTheLegend() throws {
        let svg = TuningHeatMap(try Self.result(["threshold=0.6,0.7"])).svg()
        #expect(svg.contains("defaults: threshold=0.5"))
        #expect(svg.contains("outside the grid"))
    }

    @Test(arguments: [(0.5, 0.5 * 4 / 4), (0.55, 1.0)])
    func numericDefaultsBetweenValuesFallBetweenCells(value: Double, expected: Double) throws {
        let axis = try GridAxis(parsing: "threshold=0.4,0.5,0.6,0.7")
        let coordinate = try #require(TuningHeatMap.coordinate(.number(value), axis: axis, cells: 4))
        #expect(abs(coordinate - (expected + 1)) < 1e-12)
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func coloursAreHexTriplets(fraction: Double) {
        let colour = TuningHeatMap.color(fraction)
        #expect(colour.count == 7 && colour.hasPrefix("#"))
    }

    // MARK: - The golden shared with the viewer

    /// web/tests/heatmap-golden/: a tune report and the map expected from it, also checked by
    /// web/tests/heatmap.test.mjs against the viewer's heat map (web/heatmap.mjs).
    static let golden = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("web/tests/heatmap-golden")

    /// The golden report read back into the result `pantrace tune` would have written it from.
    static func goldenResult() throws -> TuningResult {
        let data = try Data(contentsOf: golden.appendingPathComponent("report.json"))
        return try JSONDecoder().decode(ReportFixture.self, from: data).result()
    }

    @Test
    func theGoldenReportGivesTheGoldenMapAsTheViewerDrawsIt() throws {
        let result = try Self.goldenResult()
        let cases = try JSONDecoder().decode([GoldenCase].self, from: Data(contentsOf: Self.golden.appendingPathComponent("expected.json")))
        #expect(cases.count == 2)
        for golden in cases {
            #expect(GoldenMap(TuningHeatMap(result, maximumCells: golden.maximumCells)) == golden.map, "at most \(golden.maximumCells) cells")
        }
    }

    @Test
    func theGoldenReportIsOneTuneWouldWrite() throws {
        let result = try Self.goldenResult()
        let rule = TieRule(grid: result.grid, defaultValues: result.defaultValues)
        #expect(rule.choose(correct: { result.scores[$0].correct }, minimumMargin: { result.scores[$0].minimumMargin }).best == result.bestPoint)
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(TuningReport(result))) as? NSDictionary
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.golden.appendingPathComponent("report.json"))) as? NSDictionary
        #expect(written != nil && written == fixture)
    }

    @Test
    func theSVGDrawsTheMapsCellsAndRingsItsBestCell() throws {
        let map = TuningHeatMap(try Self.goldenResult())
        let svg = map.svg()
        let fills = svg.split(separator: "\n").filter { $0.hasSuffix("</title></rect>") }.map { line in
            String(line.split(separator: "fill=\"")[1].prefix(7))
        }
        #expect(fills == map.cells.map(\.colour))
        for cell in map.cells { #expect(svg.contains(">\(cell.label)</text>")) }
        // Cell (column 1, row 1) of 3 × 2 cells of 56 × 40 px from (90, 64): its centre.
        #expect(svg.contains(##"<circle cx="174.0" cy="84.0""##))
        // The legend's ends are the highest and lowest cells' labels.
        #expect(svg.components(separatedBy: ">90%</text>").count - 1 == 2 && svg.components(separatedBy: ">30%</text>").count - 1 == 2)
    }

    @Test
    func theBestCellIsTheTunersBestPointNeverRecomputed() throws {
        var result = try Self.goldenResult()
        result.bestPoint = 4
        let map = TuningHeatMap(result)
        #expect(map.cells.filter(\.isBest).map(\.point) == [4])
        #expect(map.bestCell.row == 0 && map.bestCell.column == 1)
        // Point 7, more correct, still shows in its own cell, unmarked.
        #expect(map.cells.contains { $0.point == 7 && !$0.isBest })
    }

    @Test
    func aLongAxisIsBinnedEachBinLabelledByItsFirstValue() throws {
        let result = try Self.result(["threshold=0.1:0.9:0.003"])
        let map = TuningHeatMap(result)
        #expect(map.columnCount == TuningHeatMap.maximumCells && map.cells.count == TuningHeatMap.maximumCells)
        #expect(Array(map.columnLabels.prefix(3)) == ["0.1", "0.106", "0.109"])
        #expect(map.bestCell.column == TuningHeatMap.bin(result.bestPoint, of: result.grid.pointCount, into: TuningHeatMap.maximumCells))
    }
}

/// The parts of a tune report (docs/TUNE.md `--json`) that make a result.
private struct ReportFixture: Decodable {
    struct Axis: Decodable {
        var key: String
        var values: [PresetValue]
    }

    struct Point: Decodable {
        var point: Int?
        var values: [String: PresetValue]
        var score: PointScore

        enum CodingKeys: String, CodingKey { case point, values }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            point = try container.decodeIfPresent(Int.self, forKey: .point)
            values = try container.decode([String: PresetValue].self, forKey: .values)
            score = try PointScore(from: decoder)
        }
    }

    struct Grid: Decodable {
        var axes: [Axis]
        var results: [Point]
    }

    struct Traces: Decodable {
        var tuned: Int
        var finish: Int
        var cancel: Int
    }

    struct Improvement: Decodable {
        var fixed: Int
        var broken: Int
    }

    var preset: String
    var grid: Grid
    var traces: Traces
    var best: Point
    var defaults: Point
    var improvement: Improvement
    var misjudged: [TuningResult.Misjudgement]
    var warnings: [String]

    func result() throws -> TuningResult {
        let tuningGrid = try TuningGrid(axes: grid.axes.map { GridAxis(key: $0.key, values: $0.values) })
        #expect(grid.results.map(\.point) == (0..<tuningGrid.pointCount).map(Optional.some))
        return TuningResult(
            preset: preset, grid: tuningGrid, scores: grid.results.map(\.score), bestPoint: try #require(best.point),
            defaults: defaults.score, defaultValues: try grid.axes.map { try #require(defaults.values[$0.key]) },
            traceCount: traces.tuned, finishCount: traces.finish, cancelCount: traces.cancel, unknownIntentCount: 0, notFitting: [],
            unreplayable: [], unreadable: [], misjudged: misjudged, fixedByBest: improvement.fixed, brokenByBest: improvement.broken,
            unreachable: warnings)
    }
}

/// One case of web/tests/heatmap-golden/expected.json: the map at most `maximumCells` a side.
private struct GoldenCase: Decodable {
    var maximumCells: Int
    var map: GoldenMap
}

/// What the golden compares: the map's labels, scale, marks and each cell's point, colour and label.
private struct GoldenMap: Decodable, Equatable {
    struct Cell: Decodable, Equatable {
        var row: Int
        var column: Int
        var point: Int
        var colour: String
        var label: String
        var isBest: Bool
    }

    struct Place<Number: Decodable & Equatable>: Decodable, Equatable {
        var column: Number
        var row: Number
    }

    var columns: [String]
    var rows: [String]
    var low: Double
    var high: Double
    var best: Place<Int>?
    var defaults: Place<Double>?
    var cells: [Cell]

    init(_ map: TuningHeatMap) {
        columns = map.columnLabels
        rows = map.rowLabels
        low = map.low
        high = map.high
        best = Place(column: map.bestCell.column, row: map.bestCell.row)
        defaults = map.defaultsPosition.map { Place(column: $0.column, row: $0.row) }
        cells = map.cells.map {
            Cell(row: $0.row, column: $0.column, point: $0.point, colour: $0.colour, label: $0.label, isBest: $0.isBest)
        }
    }
}

/// A label on the heat map is black or white, whichever contrasts more with its cell: 4.5:1 or
/// more on every colour of the scale, as the viewer draws it.
struct TuningHeatMapInkTests {
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.dropFirst())
        return stride(from: 0, to: 6, by: 2).enumerated().map { index, offset -> Double in
            let value = Double(Int(String(digits[offset..<offset + 2]), radix: 16)!) / 255
            let linear = value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            return [0.2126, 0.7152, 0.0722][index] * linear
        }.reduce(0, +)
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func everyLabelHasAtLeastFourAndAHalfToOne() {
        for step in 0...100 {
            let fraction = Double(step) / 100
            let cell = TuningHeatMap.color(fraction)
            #expect(Self.contrast(TuningHeatMap.ink(fraction), cell) >= 4.5, "\(fraction) on \(cell)")
        }
        #expect(TuningHeatMap.ink(0) == "#ffffff" && TuningHeatMap.ink(1) == "#000000")
        // The switch is in the blue-greens, below 0.6 (where white on green is under 3:1).
        #expect(TuningHeatMap.ink(0.5) == "#000000" && TuningHeatMap.ink(0.35) == "#ffffff")
    }
}
