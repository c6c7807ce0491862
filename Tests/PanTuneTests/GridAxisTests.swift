import Testing
import TransitionEngine
@testable import PanReplay
@testable import PanTune

struct GridAxisTests {
    @Test
    func aRangeIncludesBothEndsAndRoundsToTheWrittenDecimals() throws {
        let axis = try GridAxis(parsing: "threshold=0.2:0.8:0.05")
        #expect(axis.key == "threshold")
        #expect(axis.values.count == 13)
        #expect(axis.values.first == .number(0.2))
        #expect(axis.values[3] == .number(0.35))
        #expect(axis.values.last == .number(0.8))
    }

    @Test
    func aListKeepsNumbersAndNames() throws {
        #expect(try GridAxis(parsing: "velocity=recorded, lsq2").values == [.choice("recorded"), .choice("lsq2")])
        #expect(try GridAxis(parsing: "threshold=0.3,0.5").values == [.number(0.3), .number(0.5)])
        #expect(try GridAxis(parsing: "threshold=0.5").values == [.number(0.5)])
    }

    @Test(arguments: [
        ("threshold=0.2:0.8:0", "the step is zero"),
        ("threshold=", "empty grid"),
        ("threshold=0.8:0.2:0.1", "empty grid"),
        ("threshold=0.2:0.8:-0.1", "positive"),
        ("threshold=0.2:0.8", "FROM:TO:STEP"),
        ("threshold=a:b:c", "finite numbers"),
        ("threshold=0.3,,0.5", "empty value"),
        ("0.2:0.8:0.1", "KEY=FROM:TO:STEP")
    ])
    func badAxesAreRejectedWithTheReason(text: String, reason: String) {
        let error = #expect(throws: ReplayError.self) { try GridAxis(parsing: text) }
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
    }

    @Test
    func aGridNeedsAnAxis() {
        let error = #expect(throws: ReplayError.self) { try TuningGrid(axes: []) }
        #expect(error?.description.contains("empty grid") == true)
    }

    @Test
    func aKeyMayAppearOnlyOnce() throws {
        let axis = try GridAxis(parsing: "threshold=0.3,0.5")
        #expect(throws: ReplayError.self) { try TuningGrid(axes: [axis, axis]) }
    }

    /// 10000 × 1000 = 10,000,000 points runs; 11 × 909091 = 10,000,001 needs `--yes`.
    @Test(arguments: [(10000, 1000, false), (11, 909_091, true)])
    func gridsAboveTenMillionPointsNeedConfirmation(first: Int, second: Int, needsYes: Bool) throws {
        let axes = [
            GridAxis(key: "threshold", values: Array(repeating: .number(0.5), count: first)),
            GridAxis(key: "duration", values: Array(repeating: .number(0.3), count: second))
        ]
        if needsYes {
            let error = #expect(throws: ReplayError.self) { try TuningGrid(axes: axes) }
            #expect(error?.isGridTooLarge == true)
            #expect(error?.description.contains("--yes") == true)
            #expect(try TuningGrid(axes: axes, isConfirmed: true).pointCount == first * second)
        } else {
            #expect(try TuningGrid(axes: axes).pointCount == first * second)
        }
    }

    @Test
    func pointsAreRowMajorAndRoundTrip() throws {
        let grid = try TuningGrid(axes: [
            GridAxis(key: "threshold", values: [0.3, 0.4, 0.5]),
            GridAxis(key: "velocity", values: ["recorded", "lsq2"])
        ])
        #expect(grid.pointCount == 6)
        #expect(grid.values(ofPoint: 1) == [.number(0.3), .choice("lsq2")])
        #expect(grid.values(ofPoint: 2) == [.number(0.4), .choice("recorded")])
        for point in 0..<6 { #expect(grid.point(withValueIndices: grid.valueIndices(ofPoint: point)) == point) }
    }
}

/// A grid is refused for its size before any axis is built.
struct TuningGridSizeTests {
    /// `0:1:1e-12` would be a trillion values: refused from arithmetic alone, as is a product
    /// of axes past the limit; one point under the limit is built.
    @Test func aGridTooLargeIsRefusedBeforeItIsBuilt() throws {
        #expect(throws: ReplayError.self) { try TuningGrid(parsing: ["threshold=0:1:1e-12"]) }
        let tooMany = #expect(throws: ReplayError.self) { try TuningGrid(parsing: ["threshold=0:0.9999:0.0001", "duration=0:0.1:0.0001"]) }
        #expect(tooMany?.isGridTooLarge == true)
        let fits = try TuningGrid(parsing: ["threshold=0:0.9999:0.0001", "duration=0:0.0999:0.0001"])
        #expect(fits.pointCount == 10_000_000)
        #expect(throws: ReplayError.self) { try TuningGrid(parsing: ["threshold=0:0.9999:0.0001", "duration=0:0.1:0.0001"], isConfirmed: false) }
    }

    @Test func parsingAGridGivesTheAxesParsedOneByOne() throws {
        let specs = ["threshold=0.2:0.8:0.05", "velocity=recorded,lsq2"]
        let grid = try TuningGrid(parsing: specs)
        #expect(grid.axes == (try specs.map { try GridAxis(parsing: $0) }))
        #expect(grid.pointCount == 26)
    }
}
