import Foundation
import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay
@testable import PanTune

/// The sorted threshold sweep against the per-decision sweep: every field of every point, the
/// subset tallies behind cross-validation and the breakdown, and the rendered reports.
struct ThresholdSweepTests {
    struct Case: CustomStringConvertible {
        var preset: String
        var axes: [GridAxis]
        var traces: [Trace]
        var description: String { "\(preset) \(axes.map { "\($0.key)×\($0.values.count)" }.joined(separator: " ")), \(traces.count) traces" }
    }

    /// A seeded random grid and corpus: a threshold axis with random values, exact ties with
    /// release progresses, repeats and both ends, in a random position among other axes.
    static func randomCase(seed: UInt64) throws -> Case {
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let preset = pick(["swipe-dismiss", "uikit-percent", "best"])
        let count = 12 + Int(random.next() % 40)
        var traces = preset == "swipe-dismiss" ? Fixtures.swipes(count, seed: seed) : Fixtures.edgeSwipes(count, seed: seed)
        if preset == "swipe-dismiss" {
            // Fixed decisions among the compared ones: cancelled gestures and a release with no `changed`.
            traces.append(Fixtures.handMade(times: [0, 0.02, 0.04, 0.06], endPhase: .cancelled, intent: .finish))
            traces.append(Fixtures.handMade(times: [0, 0.03, 0.05], endPhase: .cancelled, intent: .cancel))
            traces.append(Fixtures.handMade(times: [0, 0.02], intent: .cancel))
        }
        let defaults = try Preset(named: preset)
        var thresholds: [Double] = [0, 1, 0.5]
        for _ in 0..<(1 + Int(random.next() % 30)) { thresholds.append(Double(random.next() % 1_000_001) / 1e6) }
        for trace in traces.prefix(6) {
            let progress = try GestureTrack(trace: trace, velocity: .recorded).releaseState(preset: defaults).progress
            if (0...1).contains(progress) { thresholds.append(progress) }
        }
        thresholds.append(thresholds[3])
        for index in thresholds.indices.reversed() {
            thresholds.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        var axes = [GridAxis(key: "threshold", values: thresholds.map { .number($0) })]
        var optional = [
            GridAxis(key: "cancelledPhase", values: [PresetValue(parsing: "cancel"), PresetValue(parsing: "decide")]),
            GridAxis(key: "velocity", values: [PresetValue(parsing: "recorded"), PresetValue(parsing: "lsq2")])
        ]
        if preset == "best" {
            optional += [
                GridAxis(key: "decelerationRate", values: [.number(0.99), .number(0.998)]),
                GridAxis(key: "stopTime", values: [.number(0.02), .number(0.2)]),
                GridAxis(key: "response", values: [.number(0.3), .number(0.5)])
            ]
        } else {
            optional += [
                GridAxis(key: "comparison", values: [PresetValue(parsing: "atLeast"), PresetValue(parsing: "greaterThan")]),
                GridAxis(key: "completionSpeed", values: [.number(0.5), .number(2)])
            ]
        }
        for axis in optional where random.next() % 2 == 0 {
            axes.insert(axis, at: Int(random.next() % UInt64(axes.count + 1)))
        }
        return Case(preset: preset, axes: axes, traces: traces)
    }

    static func run(
        _ test: Case, sorted: Bool, threads: Int = 1, storage: ThresholdStorage = .sortedColumns, spillAfter: Int? = nil
    ) throws -> TuningResult {
        var configuration = Tuner.Configuration(threadCount: threads)
        configuration.spillAfter = spillAfter
        configuration.allowsSortedSweep = sorted
        configuration.thresholdStorage = storage
        let tuner = try Tuner(presetNamed: test.preset, grid: try TuningGrid(axes: test.axes), configuration: configuration)
        return try tuner.run(on: TraceCorpus(traces: test.traces))
    }

    static func json(_ result: TuningResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(TuningReport(result)), as: UTF8.self)
    }

    @Test(arguments: 0..<24)
    func sortedSweepGivesTheSameReportAsDecidingEveryPoint(seed: Int) throws {
        let test = try Self.randomCase(seed: UInt64(seed) &+ 1700)
        // The sorted sweep's release states in memory, or spilled to files every few traces
        // (and then every seed's third in the per-decision sweep too, against one in memory).
        let spillAfter: Int? = seed % 3 == 0 ? 1 + seed % 7 : nil
        let general = try Self.run(test, sorted: false)
        if let spillAfter {
            let spilled = try Self.run(test, sorted: false, spillAfter: spillAfter)
            #expect(try Self.json(spilled) == Self.json(general), "\(test), spilled after \(spillAfter)")
        }
        // Sorted columns for even seeds, running totals between thresholds for odd ones.
        let storage: ThresholdStorage = seed % 2 == 0 ? .sortedColumns : .buckets
        let sorted = try Self.run(test, sorted: true, threads: 1 + seed % 2, storage: storage, spillAfter: spillAfter)
        #expect(sorted.scores.count == general.scores.count, "\(test) \(storage)")
        for (point, (fast, slow)) in zip(sorted.scores, general.scores).enumerated() where fast != slow {
            Issue.record("\(test): point \(point) differs: \(fast) vs \(slow)")
            break
        }
        #expect(sorted.bestPoint == general.bestPoint)
        #expect(try Self.json(sorted) == Self.json(general))
        #expect(sorted.text(listingAll: true) == general.text(listingAll: true))
        #expect(sorted.csv() == general.csv())
        #expect(sorted.findings?.crossValidation != nil)
    }

    /// D5 reads velocity, so ±10 % noise flips some releases near θ; the sorted sweep counts
    /// them from sorted noisy statistics, and must count the same ones (on both sides of each
    /// comparison: `stopTime` switches the stopped-finger gate on and off).
    @Test
    func flipProneCountsAgreeWhereVelocityDecides() throws {
        let test = Case(
            preset: "best",
            axes: [
                try GridAxis(parsing: "threshold=0:1:0.02"), try GridAxis(parsing: "decelerationRate=0.99,0.998"),
                try GridAxis(parsing: "stopTime=0.01,0.5")
            ],
            traces: Fixtures.edgeSwipes(60, seed: 21))
        let general = try Self.run(test, sorted: false)
        #expect(general.scores.contains { $0.flipProne > 0 })
        for storage in [ThresholdStorage.sortedColumns, .buckets] {
            let sorted = try Self.run(test, sorted: true, storage: storage)
            #expect(sorted.scores.map(\.flipProne) == general.scores.map(\.flipProne), "\(storage)")
            #expect(sorted.scores == general.scores, "\(storage)")
        }
    }

    /// Running totals between thresholds are kept only where they take less memory than the
    /// sorted columns of the same traces: 901 thresholds need more than 1,380 traces with
    /// five folds (about 2.8 kB a bucket against 128 bytes a trace).
    @Test
    func bucketsAreKeptWhereTheyTakeLessMemory() {
        let perBucket = ThresholdBuckets.bytesPerBucket(subsets: 5)
        let breakEven = 902 * perBucket / (68 + 12 * 5)
        #expect(!ThresholdStorage.smaller.usesBuckets(thresholds: 901, subsets: 5, expected: breakEven))
        #expect(ThresholdStorage.smaller.usesBuckets(thresholds: 901, subsets: 5, expected: breakEven + 1))
        #expect(!ThresholdStorage.smaller.usesBuckets(thresholds: 901, subsets: 5, expected: 1000))
        #expect(ThresholdStorage.smaller.usesBuckets(thresholds: 901, subsets: 5, expected: 100_000))
        #expect(ThresholdStorage.buckets.usesBuckets(thresholds: 901, subsets: 5, expected: 0))
        #expect(!ThresholdStorage.sortedColumns.usesBuckets(thresholds: 1, subsets: 0, expected: 10_000_000))
    }

    /// The rules that compare a θ-independent statistic take the sorted sweep; a direction
    /// rule with a fixed fallback (`parallax-push`) has no threshold and does not.
    @Test(arguments: [("swipe-dismiss", true), ("uikit-percent", true), ("best", true), ("drawer", true), ("parallax-push", false)])
    func sortedSweepAdmitsTheThresholdRules(preset name: String, admits: Bool) throws {
        let preset = try Preset(named: name)
        let traces = name == "swipe-dismiss" ? Fixtures.swipes(20) : Fixtures.edgeSwipes(20)
        let releases = try traces.map { try GestureTrack(trace: $0, velocity: .recorded).releaseState(preset: preset) }
        let set = ReleaseSet(releases: releases, meantFinish: traces.map { $0.metadata.intent == .finish })
        let threshold: Double
        switch preset.policy.rule {
        case .threshold(let value), .projection(_, let value, _): threshold = value.value
        default: threshold = 0
        }
        let sweep = GridSweep.thresholdSweep(
            set: set, first: preset, last: preset, thresholds: [threshold, threshold], frameRate: 60, subsets: nil,
            storage: .smaller)
        #expect((sweep != nil) == admits)
    }

    @Test(arguments: [
        [0.1, 0.2, 0.3], [1e300, -1e300, 1, 1e-300], [0.1, 0.1, 0.1, -0.3], [],
        [.leastNonzeroMagnitude, Double.leastNormalMagnitude / 3, -Double.leastNormalMagnitude / 5, 3],
        [.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 2]
    ])
    func exactSumIsTheSameInAnyOrder(terms: [Double]) {
        var forward = ExactSum(), backward = ExactSum()
        for term in terms { forward.add(term) }
        for term in terms.reversed() { backward.add(term) }
        #expect(forward.value.bitPattern == backward.value.bitPattern)
    }

    @Test
    func exactSumRoundsOnceWhereAPlainSumRoundsTwice() {
        // 1 + 2⁻⁵³ rounds back to 1 (ties to even), twice; the exact sum is 1 + 2⁻⁵².
        let half = Double.ulpOfOne / 2
        var sum = ExactSum()
        for term in [1, half, half] { sum.add(term) }
        #expect(1 + half + half == 1)
        #expect(sum.value == 1 + Double.ulpOfOne)
        var cancelling = ExactSum()
        for term in [1e300, 1, -1e300, 1e-300] { cancelling.add(term) }
        #expect(cancelling.value == 1)
        var huge = ExactSum()
        for term in [Double.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude] { huge.add(term) }
        #expect(huge.value == .greatestFiniteMagnitude)
    }

    @Test
    func exactSumSubtractsAndScales() {
        var sum = ExactSum(), part = ExactSum()
        sum.add(3)
        part.add(0.5)
        sum.add(part, times: -2)
        sum.add(0.25, times: 4)
        #expect(sum.value == 3)
        var negative = ExactSum()
        negative.add(-2.5)
        negative.add(1e-20)
        #expect(negative.value == -2.5)
        var infinite = ExactSum()
        infinite.add(.infinity)
        infinite.add(1)
        #expect(infinite.value == .infinity)
    }
}
