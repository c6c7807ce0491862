import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
import TransitionEngine
@testable import PanReplay

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
}
