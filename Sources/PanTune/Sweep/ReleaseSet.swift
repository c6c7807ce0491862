internal import TransitionEngine

/// The labelled releases of every tuned trace under one progress mapping and velocity
/// source, and the scoring loop the sweep runs on them.
///
/// A release state does not depend on any decision parameter, so it is computed once here
/// and decided under every grid point with the allocation-free ``DecisionPolicy/decide(_:)``.
struct ReleaseSet: Sendable {
    /// One release per tuned trace, in corpus order.
    var releases: ReleaseColumns
    /// Whether each trace was meant to finish.
    var meantFinish: [Bool]
    /// Whether the sums are kept exactly (``ExactSum``), so that they equal the sorted
    /// sweep's to the bit, or added in trace order as plain doubles, which is cheaper and
    /// enough where no sorted sweep can run (a grid without a threshold axis).
    var exactSums = true

    /// The releases as one array, when made (``materialize()``): the per-decision sweep reads
    /// every release at every point, and reads an array faster than columns.
    private(set) var materialized: [ReleaseState]?

    /// The releases given, with their intents.
    init(releases: ReleaseColumns, meantFinish: [Bool]) {
        self.releases = releases
        self.meantFinish = meantFinish
    }

    /// The releases given, with their intents.
    init(releases: [ReleaseState], meantFinish: [Bool]) {
        self.init(releases: ReleaseColumns(releases), meantFinish: meantFinish)
    }

    /// Makes ``materialized``: 96 bytes a trace, for a sweep that decides every point.
    mutating func materialize() {
        if materialized == nil { materialized = Array(releases) }
    }

    /// Completion metrics of one release for one decision, memoized per completion context.
    ///
    /// The completion after release depends on the release, the decision's target, its gated
    /// velocity (fixed by the release and the gates) and whether a velocity rule decided
    /// (`CompletionModel.trajectory`). Within one completion context (the same completion
    /// model, rendered mapping, curve and gates) that leaves four cases per trace; a slot is
    /// valid when its stamp equals the current generation, so moving to a new context is O(1).
    /// A cache for no traces (``none``) keeps nothing and computes every metric afresh: the
    /// right one for a single score, where 80 bytes a trace would buy nothing.
    struct CompletionCache {
        /// A cache that keeps nothing.
        static let none = CompletionCache(traces: 0)

        private(set) var stamps: [UInt32]
        private(set) var times: [Double]
        private(set) var discontinuities: [Double]
        private var generation: UInt32 = 1

        init(traces: Int) {
            stamps = [UInt32](repeating: 0, count: traces * 4)
            times = [Double](repeating: 0, count: traces * 4)
            discontinuities = [Double](repeating: 0, count: traces * 4)
        }

        /// Forgets every slot (a new completion context).
        mutating func invalidate() {
            generation &+= 1
            if generation == 0 {
                for index in stamps.indices { stamps[index] = 0 }
                generation = 1
            }
        }

        /// The completion time and `|discontinuity|` of `release` decided as `decision`.
        @inline(__always)
        mutating func metrics(trace: Int, release: ReleaseState, decision: Decision, preset: Preset, frameRate: Double) -> (
            time: Double, discontinuity: Double
        ) {
            guard !stamps.isEmpty else { return ReleaseSet.metrics(release: release, decision: decision, preset: preset, frameRate: frameRate) }
            let slot = trace &* 4 &+ (decision.outcome == .finish ? 2 : 0) &+ (decision.isVelocityBased ? 1 : 0)
            if stamps[slot] != generation {
                (times[slot], discontinuities[slot]) = ReleaseSet.metrics(release: release, decision: decision, preset: preset, frameRate: frameRate)
                stamps[slot] = generation
            }
            return (times[slot], discontinuities[slot])
        }
    }

    /// The completion time and `|discontinuity|` of `release` decided as `decision`, computed
    /// afresh (the sorted sweep needs each trace's two outcomes once, so it keeps no cache).
    @inline(__always)
    static func metrics(release: ReleaseState, decision: Decision, preset: Preset, frameRate: Double) -> (time: Double, discontinuity: Double) {
        let trajectory = preset.completion.trajectory(release: release, decision: decision, displayFrameRate: frameRate)
        let discontinuity = abs(
            TransitionMetrics.velocityDiscontinuity(release: release, trajectory: trajectory, scrub: preset.scrub, curve: preset.transitionCurve))
        return (trajectory.duration, discontinuity)
    }

    /// The look-ahead `h` when the policy's statistic is `p0 + h·v_p` and its gates scale
    /// with the velocity (only the stopped-finger gate, which zeroes it or leaves it), else nil.
    static func linearHorizon(_ policy: DecisionPolicy) -> Double? {
        guard policy.gates.floor == nil && policy.gates.maximum == nil else { return nil }
        switch policy.rule {
        case .lookAhead(let horizon, _):
            return horizon
        case .projection(let rate, _, let isExact):
            return isExact ? DecisionRule.exactProjectionHorizon(decelerationRate: rate) : DecisionRule.projectionHorizon(decelerationRate: rate)
        default:
            return nil
        }
    }

    /// True when ±10 % velocity noise provably keeps a look-ahead decision: the statistic moves
    /// by at most `0.1·|h·v_p|`, and the margin is larger than that (with room for rounding).
    /// Otherwise the caller decides the two noisy releases, as `TransitionMetrics` does.
    @inline(__always)
    static func cannotFlip(_ decision: Decision, horizon: Double?) -> Bool {
        guard let horizon, decision.basis == .lookAhead || decision.basis == .projection else { return false }
        return decision.margin > 0.1 * abs(horizon * decision.progressVelocity) * (1 + 1e-9) + 1e-12
    }

    /// Adds `decision`'s margin to `sum` exactly: `|statistic − threshold|` unrounded (the
    /// rounded difference and its error, by the error-free TwoSum transformation), or nothing
    /// for a margin of 0. Both the per-decision and the sorted sweep sum margins this way, so
    /// their means agree to the bit (``ExactSum``).
    @inline(__always)
    static func addMargin(of decision: Decision, to sum: inout ExactSum) {
        guard decision.margin != 0 else { return }
        let a = decision.statistic, b = -decision.threshold
        let rounded = a + b
        guard rounded.isFinite else { return sum.add(abs(rounded)) }
        let other = rounded - a
        let error = (a - (rounded - other)) + (b - other)
        if rounded < 0 {
            sum.add(-rounded)
            sum.add(-error)
        } else {
            sum.add(rounded)
            sum.add(error)
        }
    }

    /// Decides every release under `preset` and scores the decisions against the intents.
    ///
    /// Sums run in trace order, so the score is the same bit for bit whichever thread runs it.
    func score(_ preset: Preset, frameRate: Double, cache: inout CompletionCache) -> PointScore {
        var none = SubsetTally(subsets: 0)
        return score(preset, frameRate: frameRate, cache: &cache, subsets: nil, tally: &none)
    }

    /// Decides every release under `preset`, scores the decisions against the intents, and
    /// counts each subset's correct decisions and smallest margin into `tally`.
    func score(
        _ preset: Preset, frameRate: Double, cache: inout CompletionCache, subsets: TraceSubsets?, tally: inout SubsetTally
    ) -> PointScore {
        if exactSums {
            return score(preset, frameRate: frameRate, cache: &cache, subsets: subsets, tally: &tally, sums: ExactSum.self)
        }
        return score(preset, frameRate: frameRate, cache: &cache, subsets: subsets, tally: &tally, sums: PlainSum.self)
    }

    private func score<Sum: ScoreSum>(
        _ preset: Preset, frameRate: Double, cache: inout CompletionCache, subsets: TraceSubsets?, tally: inout SubsetTally,
        sums: Sum.Type
    ) -> PointScore {
        if let materialized {
            return score(materialized, preset, frameRate: frameRate, cache: &cache, subsets: subsets, tally: &tally, sums: sums)
        }
        return score(releases, preset, frameRate: frameRate, cache: &cache, subsets: subsets, tally: &tally, sums: sums)
    }

    private func score<Sum: ScoreSum, Releases: Sequence<ReleaseState>>(
        _ releases: Releases, _ preset: Preset, frameRate: Double, cache: inout CompletionCache, subsets: TraceSubsets?,
        tally: inout SubsetTally, sums: Sum.Type
    ) -> PointScore {
        tally.reset()
        let policy = preset.policy
        // D1 reads only p0 (gates and the cancelled phase never turn on velocity), so ±10 %
        // velocity noise cannot flip it and the two extra decisions are skipped.
        let usesVelocity: Bool
        if case .threshold = policy.rule { usesVelocity = false } else { usesVelocity = true }
        let horizon = Self.linearHorizon(policy)
        var correct = 0, falseFinishes = 0, falseCancels = 0, flipProne = 0
        var marginSum = Sum(), minimumMargin = Double.infinity
        var timeSum = Sum(), discontinuitySum = Sum()
        var traceCount = 0
        for (index, release) in releases.enumerated() {
            traceCount += 1
            let decision = policy.decide(release)
            let finished = decision.outcome == .finish
            if let subsets {
                let isRight = finished == meantFinish[index]
                for subset in subsets.subsets(ofTrace: index) {
                    if isRight { tally.correct[subset] += 1 }
                    if decision.margin < tally.minimumMargin[subset] { tally.minimumMargin[subset] = decision.margin }
                }
            }
            if finished == meantFinish[index] {
                correct += 1
            } else if finished {
                falseFinishes += 1
            } else {
                falseCancels += 1
            }
            marginSum.addMargin(of: decision)
            minimumMargin = min(minimumMargin, decision.margin)
            if usesVelocity && !Self.cannotFlip(decision, horizon: horizon)
                && (policy.decide(release.withVelocity(scaledBy: 0.9)).outcome != decision.outcome
                    || policy.decide(release.withVelocity(scaledBy: 1.1)).outcome != decision.outcome)
            {
                flipProne += 1
            }
            let metrics = cache.metrics(trace: index, release: release, decision: decision, preset: preset, frameRate: frameRate)
            timeSum.add(metrics.time)
            discontinuitySum.add(metrics.discontinuity)
        }
        let count = Double(traceCount)
        let isEmpty = traceCount == 0
        return PointScore(
            traces: traceCount, correct: correct, falseFinishes: falseFinishes, falseCancels: falseCancels, flipProne: flipProne,
            meanMargin: isEmpty ? 0 : marginSum.rounded() / count,
            minimumMargin: isEmpty ? 0 : minimumMargin,
            meanDiscontinuity: isEmpty ? 0 : discontinuitySum.rounded() / count,
            meanCompletionTime: isEmpty ? 0 : timeSum.rounded() / count
        )
    }
}

/// A running sum for ``ReleaseSet``'s scoring loop.
protocol ScoreSum {
    init()
    mutating func add(_ value: Double)
    /// Adds a decision's margin.
    mutating func addMargin(of decision: Decision)
    /// The sum, rounded to a double.
    mutating func rounded() -> Double
}

extension ExactSum: ScoreSum {
    /// Adds `|statistic − threshold|` exactly (``ReleaseSet/addMargin(of:to:)``).
    @inline(__always)
    mutating func addMargin(of decision: Decision) { ReleaseSet.addMargin(of: decision, to: &self) }
}

/// A plain double sum, rounded at every addition, in the order the terms come.
struct PlainSum: ScoreSum {
    private var total = 0.0

    init() {}

    @inline(__always)
    mutating func add(_ value: Double) { total += value }

    @inline(__always)
    mutating func addMargin(of decision: Decision) { total += decision.margin }

    mutating func rounded() -> Double { total }
}
