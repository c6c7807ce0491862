import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay
@testable import PanTune

/// The integer sums of the sorted sweep against the superaccumulator, and its two paths
/// (integer sums, superaccumulators) against a direct count at every threshold.
struct FixedSumTests {
    /// A random double of either sign whose bits lie in `2^(low)…2^(low + span)`.
    static func randomValue(_ random: inout SeededGenerator, low: Int, span: Int) -> Double {
        let exponent = low + 52 + Int(random.next() % UInt64(max(1, span - 52)))
        let value = Double(
            sign: random.next() % 2 == 0 ? .plus : .minus, exponent: exponent, significand: 1 + Double(random.next() % (1 << 52)) / 0x1p52)
        return value
    }

    @Test(arguments: 0..<40)
    func integerSumsRoundLikeTheSuperaccumulator(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 2400)
        let span = 60 + Int(random.next() % 50)
        let low = -80 + Int(random.next() % 60)
        let values = (0..<(1 + Int(random.next() % 200))).map { _ in Self.randomValue(&random, low: low, span: span) }
        var low2 = Int.max, high = Int.min
        for value in values {
            let bits = try #require(FixedSum.bits(value))
            low2 = min(low2, bits.low)
            high = max(high, bits.high)
        }
        let unit = try #require(FixedSum.unit(low: low2, high: high, count: values.count))
        var exact = ExactSum()
        var integer: Int128 = 0
        for value in values {
            exact.add(value)
            integer += FixedSum.integer(value, unit: unit)
        }
        #expect(exact.fixedPoint(unit: unit) == integer)
        #expect(FixedSum.rounded(integer, unit: unit).bitPattern == exact.value.bitPattern)
    }

    @Test
    func integerSumsRoundHalfwayToEven() throws {
        let half: Double = Double.ulpOfOne / 2
        let one: Double = 1
        let cases: [(terms: [Double], expected: Double)] = [
            ([one, half], one), ([one, half, half], one + Double.ulpOfOne),
            ([one + Double.ulpOfOne, half], one + 2 * Double.ulpOfOne), ([one, half, 0x1p-80], one + Double.ulpOfOne)
        ]
        for (terms, expected) in cases {
            let unit = -80
            var integer: Int128 = 0
            for term in terms { integer += FixedSum.integer(term, unit: unit) }
            #expect(FixedSum.rounded(integer, unit: unit) == expected, "\(terms)")
            #expect(FixedSum.rounded(-integer, unit: unit) == -expected, "\(terms)")
        }
    }

    /// Both sides of the limit: sums that may grow to 126 bits fit, one bit more does not.
    @Test
    func aScaleFitsUpTo126Bits() {
        // Factors up to 1 add 3 bits (one for the count, two of room).
        #expect(FixedSum.unit(low: -100, high: 23, count: 1) == -100)
        #expect(FixedSum.unit(low: -100, high: 24, count: 1) == nil)
        #expect(FixedSum.unit(low: -1000, high: -900, count: 1) == nil)
        #expect(FixedSum.unit(low: 0, high: 0, count: 1_000_000) == 0)
    }

    /// A direct count of every threshold: correct decisions, each margin summed exactly,
    /// the smallest margin and the metrics, as the per-decision sweep scores them.
    static func direct(_ statistics: [Double], meant: [Bool], metrics: [(cancel: Double, finish: Double)], threshold: Double, strict: Bool)
        -> PointScore
    {
        var correct = 0, falseFinishes = 0, falseCancels = 0
        var margins = ExactSum(), times = ExactSum()
        var smallest = Double.infinity
        for (index, statistic) in statistics.enumerated() {
            let finish = strict ? statistic > threshold : statistic >= threshold
            if finish == meant[index] { correct += 1 } else if finish { falseFinishes += 1 } else { falseCancels += 1 }
            let decision = Decision(
                outcome: finish ? .finish : .cancel, basis: .progress, statistic: statistic, threshold: threshold,
                comparison: strict ? .greaterThan : .atLeast, axisVelocity: 0, progressVelocity: 0)
            ReleaseSet.addMargin(of: decision, to: &margins)
            smallest = min(smallest, abs(statistic - threshold))
            times.add(finish ? metrics[index].finish : metrics[index].cancel)
        }
        let count = Double(statistics.count)
        return PointScore(
            traces: statistics.count, correct: correct, falseFinishes: falseFinishes, falseCancels: falseCancels, flipProne: 0,
            meanMargin: margins.value / count, minimumMargin: smallest, meanDiscontinuity: times.value / count,
            meanCompletionTime: times.value / count)
    }

    /// Metrics of ordinary sizes take the integer path; one of 10⁻³⁰⁰ beside them does not
    /// fit 126 bits and sends the group to the superaccumulators. Both equal the direct count,
    /// and so do running totals between thresholds (``ThresholdBuckets``).
    @Test(arguments: [false, true])
    func bothPathsGiveTheDirectCount(tinyMetric: Bool) throws {
        var random = SeededGenerator(seed: tinyMetric ? 31 : 32)
        let count = 300
        var statistics = (0..<count).map { _ in Double(random.next() % 1000) / 997 }
        statistics[7] = statistics[8]
        let meant = (0..<count).map { _ in random.next() % 3 != 0 }
        var metrics = (0..<count).map { _ in (cancel: Double(random.next() % 10_000) / 7919, finish: Double(random.next() % 10_000) / 104_729) }
        if tinyMetric { metrics[5].cancel = 1e-300 }
        var thresholds = (0..<120).map { _ in Double(random.next() % 1200) / 997 - 0.1 }
        thresholds += [statistics[3], statistics[8], 0, 1]
        for strict in [false, true] {
            for storage in [ThresholdStorage.sortedColumns, .buckets] {
                let sweep = ThresholdSweep(
                    thresholds: thresholds,
                    entries: zip(statistics, metrics).map {
                        .compared(
                            statistic: $0, cancel: (time: $1.cancel, discontinuity: $1.cancel), finish: (time: $1.finish, discontinuity: $1.finish))
                    },
                    meantFinish: meant, flips: nil, comparison: strict ? .greaterThan : .atLeast, subsets: nil, storage: storage)
                let evaluation = sweep.evaluate()
                for (index, threshold) in thresholds.enumerated() {
                    let expected = Self.direct(statistics, meant: meant, metrics: metrics, threshold: threshold, strict: strict)
                    #expect(evaluation.scores[index] == expected, "θ = \(threshold), strict \(strict), tiny \(tinyMetric), \(storage)")
                }
            }
        }
    }
}

/// The per-decision sweep keeps exact sums only where a sorted sweep could give the same
/// grid's report: with a threshold axis of two or more numbers.
struct PerDecisionSumTests {
    static func margins(_ traces: [Trace], threshold: Double?) throws -> [Double] {
        var preset = try Preset(named: "swipe-dismiss")
        if let threshold { preset = try Preset(.swipeDismiss, overrides: ["threshold": .number(threshold)]) }
        return try traces.map { trace in
            let release = try GestureTrack(trace: trace, velocity: .recorded).releaseState(preset: preset)
            return preset.policy.decide(release).margin
        }
    }

    @Test
    func aGridWithoutAThresholdAxisSumsInTraceOrder() throws {
        let traces = Fixtures.swipes(40, seed: 5)
        let plain = try TuningGrid(axes: [GridAxis(parsing: "cancelledPhase=cancel,decide")])
        let tuner = try Tuner(presetNamed: "swipe-dismiss", grid: plain)
        #expect(!tuner.space.hasThresholdAxis)
        let result = try tuner.run(on: TraceCorpus(traces: traces))
        let margins = try Self.margins(traces, threshold: nil)
        #expect(result.scores[1].meanMargin == margins.reduce(0, +) / Double(margins.count))
    }

    @Test
    func aThresholdAxisKeepsTheSumsExact() throws {
        let traces = Fixtures.swipes(40, seed: 5)
        for (axis, isSwept) in [("threshold=0.45,0.5", true), ("threshold=0.5", false)] {
            var configuration = Tuner.Configuration()
            configuration.allowsSortedSweep = false
            let tuner = try Tuner(presetNamed: "swipe-dismiss", grid: try TuningGrid(axes: [GridAxis(parsing: axis)]), configuration: configuration)
            #expect(tuner.space.hasThresholdAxis == isSwept, "\(axis)")
            let result = try tuner.run(on: TraceCorpus(traces: traces))
            let point = result.scores.count - 1
            let preset = try Preset(.swipeDismiss, overrides: ["threshold": .number(0.5)])
            var exact = ExactSum()
            var plain = 0.0
            for trace in traces {
                let decision = preset.policy.decide(try GestureTrack(trace: trace, velocity: .recorded).releaseState(preset: preset))
                ReleaseSet.addMargin(of: decision, to: &exact)
                plain += decision.margin
            }
            let expected = (isSwept ? exact.value : plain) / Double(traces.count)
            #expect(result.scores[point].meanMargin == expected, "\(axis)")
        }
    }
}
