internal import TransitionEngine

/// Scores every value of the threshold axis at once from each trace's statistic, sorted.
///
/// Where the rule compares a statistic with the threshold θ (D1's `p0`, D4/D5's
/// `p0 + h·v_p`, the progress test of D2, D3 and D6's fallback), the statistic, and whether a
/// trace reaches that test at all, do not depend on θ: a trace is either *compared* (its
/// statistic `s` decides, `s ≥ θ` or `s > θ`) or *fixed* (a flick, a fling, a direction, a
/// cancelled phase or no `changed`: the same decision for every θ). So the statistics are
/// sorted once, and for each θ a walk over the sorted thresholds gives the index `k` of the
/// first passing statistic; counts of meant finishes before `k` give the false finishes and
/// cancels, the neighbours of θ the smallest margin, and running sums the mean margin and
/// the completion metrics (each trace has one value per outcome). Sums are exact
/// (``ExactSum``), so every field equals the per-decision sweep's to the bit; `TunerTests`
/// compares the two over random grids.
struct ThresholdSweep {
    /// One trace as seen by a group of grid points that differ only in θ.
    enum Entry {
        /// The rule compares `statistic` with θ; completion metrics for each outcome.
        case compared(statistic: Double, cancel: (time: Double, discontinuity: Double), finish: (time: Double, discontinuity: Double))
        /// The same decision for every θ.
        case fixed(Decision, metrics: (time: Double, discontinuity: Double))
    }

    /// How ±10 % velocity noise can flip a trace, as a function of θ.
    enum Flip {
        /// Never (or the rule ignores velocity).
        case never
        /// For every θ.
        case always
        /// When the statistic `value` passes θ.
        case whenPassing(Double)
        /// When the statistic `value` does not pass θ.
        case whenFailing(Double)
        /// When `high` passes θ and `low` does not.
        case between(low: Double, high: Double)

        /// The flip of a release whose three decisions (velocity × 1, 0.9, 1.1) are given.
        init(_ decisions: [Decision]) {
            var fixedFinish = false, fixedCancel = false
            var low = Double.infinity, high = -Double.infinity
            for decision in decisions {
                if ThresholdSweep.isCompared(decision) {
                    low = min(low, decision.statistic)
                    high = max(high, decision.statistic)
                } else if decision.outcome == .finish {
                    fixedFinish = true
                } else {
                    fixedCancel = true
                }
            }
            switch (fixedFinish, fixedCancel, low <= high) {
            case (true, true, _): self = .always
            case (_, _, false): self = .never
            case (true, false, true): self = .whenFailing(low)
            case (false, true, true): self = .whenPassing(high)
            case (false, false, true): self = .between(low: low, high: high)
            }
        }
    }

    /// Whether `decision` came from comparing a θ-independent statistic with θ.
    static func isCompared(_ decision: Decision) -> Bool {
        switch decision.basis {
        case .progress, .lookAhead, .projection: true
        default: false
        }
    }

    let comparison: Decision.Comparison
    let traceCount: Int
    /// The thresholds, in the caller's order.
    let thresholds: [Double]
    /// The compared traces as running totals between thresholds, when kept so; the sorted
    /// columns below are then empty.
    let buckets: ThresholdBuckets?
    /// The compared traces' statistics, ascending, with their intents and metrics in the same order.
    let statistics: [Double]
    /// Meant finishes among the first `k` sorted statistics.
    let meantBefore: [Int32]
    let cancelTimes: [Double], finishTimes: [Double]
    let cancelJumps: [Double], finishJumps: [Double]
    var fixedCorrect = 0, fixedFalseFinishes = 0, fixedFalseCancels = 0
    var fixedMinimumMargin = Double.infinity
    var fixedMargins = ExactSum(), fixedTimes = ExactSum(), fixedJumps = ExactSum()
    let usesVelocity: Bool
    var flipConstant = 0
    var flipPlus: [Double] = [], flipMinus: [Double] = []
    /// Per subset: sorted statistics, meant finishes before each, fixed correct and smallest margin.
    var subsetStatistics: [[Double]] = []
    var subsetMeantBefore: [[Int32]] = []
    var subsetFixedCorrect: [Int] = []
    var subsetFixedMargin: [Double] = []

    /// Collects one group's traces, one at a time, without keeping a record per trace: a
    /// compared trace leaves its statistic, its index and its four metrics in columns (about
    /// 44 bytes) or adds to the buckets (``ThresholdBuckets``); a fixed trace only adds to the
    /// fixed counts and sums; a flip only to the flip lists or buckets.
    struct Builder {
        let comparison: Decision.Comparison
        let thresholds: [Double]
        var buckets: ThresholdBuckets?
        let meantFinish: [Bool]
        let usesVelocity: Bool
        let subsets: TraceSubsets?
        var statistics: [Double] = [], traces: [Int32] = []
        var cancelTimes: [Double] = [], finishTimes: [Double] = []
        var cancelJumps: [Double] = [], finishJumps: [Double] = []
        var fixedCorrect = 0, fixedFalseFinishes = 0, fixedFalseCancels = 0
        var fixedMinimumMargin = Double.infinity
        var fixedMargins = ExactSum(), fixedTimes = ExactSum(), fixedJumps = ExactSum()
        var flipConstant = 0
        var flipPlus: [Double] = [], flipMinus: [Double] = []
        var subsetFixedCorrect: [Int], subsetFixedMargin: [Double]

        /// Starts a group of `meantFinish.count` traces to be scored at `thresholds` (the flips
        /// are added only when the rule reads velocity).
        init(
            thresholds: [Double], meantFinish: [Bool], usesVelocity: Bool, comparison: Decision.Comparison, subsets: TraceSubsets?,
            expectedCompared: Int = 0, storage: ThresholdStorage = .smaller
        ) {
            self.comparison = comparison
            self.thresholds = thresholds
            let subsetCount = subsets?.count ?? 0
            if storage.usesBuckets(thresholds: thresholds.count, subsets: subsetCount, expected: expectedCompared) {
                buckets = ThresholdBuckets(thresholds: thresholds, isStrict: comparison == .greaterThan, subsets: subsetCount)
            }
            self.meantFinish = meantFinish
            self.usesVelocity = usesVelocity
            self.subsets = subsets
            subsetFixedCorrect = [Int](repeating: 0, count: subsets?.count ?? 0)
            subsetFixedMargin = [Double](repeating: .infinity, count: subsets?.count ?? 0)
            guard buckets == nil else { return }
            statistics.reserveCapacity(expectedCompared)
            traces.reserveCapacity(expectedCompared)
            cancelTimes.reserveCapacity(expectedCompared)
            finishTimes.reserveCapacity(expectedCompared)
            cancelJumps.reserveCapacity(expectedCompared)
            finishJumps.reserveCapacity(expectedCompared)
        }

        /// Trace `trace`'s rule compares `statistic` with θ.
        mutating func addCompared(
            trace: Int, statistic: Double, cancel: (time: Double, discontinuity: Double), finish: (time: Double, discontinuity: Double)
        ) {
            if buckets != nil {
                buckets!.add(statistic: statistic, isMeant: meantFinish[trace], cancel: cancel, finish: finish, subsets: subsets, trace: trace)
                return
            }
            statistics.append(statistic)
            traces.append(Int32(trace))
            cancelTimes.append(cancel.time)
            finishTimes.append(finish.time)
            cancelJumps.append(cancel.discontinuity)
            finishJumps.append(finish.discontinuity)
        }

        /// Trace `trace` is decided as `decision` for every θ.
        mutating func addFixed(trace: Int, decision: Decision, metrics: (time: Double, discontinuity: Double)) {
            let finished = decision.outcome == .finish
            let isRight = finished == meantFinish[trace]
            if isRight {
                fixedCorrect += 1
            } else if finished {
                fixedFalseFinishes += 1
            } else {
                fixedFalseCancels += 1
            }
            ReleaseSet.addMargin(of: decision, to: &fixedMargins)
            fixedMinimumMargin = min(fixedMinimumMargin, decision.margin)
            fixedTimes.add(metrics.time)
            fixedJumps.add(metrics.discontinuity)
            guard let subsets else { return }
            for subset in subsets.subsets(ofTrace: trace) {
                if isRight { subsetFixedCorrect[subset] += 1 }
                if decision.margin < subsetFixedMargin[subset] { subsetFixedMargin[subset] = decision.margin }
            }
        }

        /// How velocity noise can flip one trace (only when the rule reads velocity).
        mutating func add(_ flip: Flip) {
            switch flip {
            case .never: break
            case .always: flipConstant += 1
            case .whenPassing(let value): addFlip(value, plus: true)
            case .whenFailing(let value):
                flipConstant += 1
                addFlip(value, plus: false)
            case .between(let low, let high):
                addFlip(high, plus: true)
                addFlip(low, plus: false)
            }
        }

        private mutating func addFlip(_ value: Double, plus: Bool) {
            if buckets != nil {
                buckets!.addFlip(value, plus: plus)
            } else if plus {
                flipPlus.append(value)
            } else {
                flipMinus.append(value)
            }
        }
    }

    /// Prepares the sweep of one group from a record per trace (tests and
    /// ``StatisticSweep``; ``Tuner`` adds its traces to a ``Builder`` one at a time).
    ///
    /// - Parameters:
    ///   - entries: one per trace, in trace order.
    ///   - flips: one per trace when the rule reads velocity, else nil (no trace can flip).
    init(
        thresholds: [Double], entries: [Entry], meantFinish: [Bool], flips: [Flip]?, comparison: Decision.Comparison,
        subsets: TraceSubsets?, storage: ThresholdStorage = .smaller
    ) {
        var builder = Builder(
            thresholds: thresholds, meantFinish: meantFinish, usesVelocity: flips != nil, comparison: comparison, subsets: subsets,
            expectedCompared: entries.count, storage: storage)
        for (trace, entry) in entries.enumerated() {
            switch entry {
            case .compared(let statistic, let cancel, let finish):
                builder.addCompared(trace: trace, statistic: statistic, cancel: cancel, finish: finish)
            case .fixed(let decision, let metrics): builder.addFixed(trace: trace, decision: decision, metrics: metrics)
            }
        }
        for flip in flips ?? [] { builder.add(flip) }
        self.init(builder)
    }

    /// Sorts the builder's compared traces by statistic and prepares the sweep. The columns
    /// are put in order one at a time, so at most one extra column is alive at once.
    init(_ builder: consuming Builder) {
        comparison = builder.comparison
        traceCount = builder.meantFinish.count
        usesVelocity = builder.usesVelocity
        thresholds = builder.thresholds
        buckets = builder.buckets
        let order = Self.sortedOrder(of: builder.statistics)
        func sorted(_ column: inout [Double]) -> [Double] {
            let values = column
            column = []
            return order.map { values[Int($0)] }
        }
        statistics = sorted(&builder.statistics)
        cancelTimes = sorted(&builder.cancelTimes)
        finishTimes = sorted(&builder.finishTimes)
        cancelJumps = sorted(&builder.cancelJumps)
        finishJumps = sorted(&builder.finishJumps)
        let unsortedTraces = builder.traces
        builder.traces = []
        let traces = order.map { unsortedTraces[Int($0)] }
        let meantFinish = builder.meantFinish
        var meant = [Int32](repeating: 0, count: traces.count + 1)
        for (index, trace) in traces.enumerated() { meant[index + 1] = meant[index] + (meantFinish[Int(trace)] ? 1 : 0) }
        meantBefore = meant
        (fixedCorrect, fixedFalseFinishes, fixedFalseCancels) = (builder.fixedCorrect, builder.fixedFalseFinishes, builder.fixedFalseCancels)
        fixedMinimumMargin = builder.fixedMinimumMargin
        (fixedMargins, fixedTimes, fixedJumps) = (builder.fixedMargins, builder.fixedTimes, builder.fixedJumps)
        flipConstant = builder.flipConstant
        flipPlus = builder.flipPlus
        flipMinus = builder.flipMinus
        flipPlus.sort()
        flipMinus.sort()
        if let subsets = builder.subsets {
            subsetFixedCorrect = builder.subsetFixedCorrect
            subsetFixedMargin = builder.subsetFixedMargin
            guard buckets == nil else { return }
            var sizes = [Int](repeating: 0, count: subsets.count)
            for trace in traces { for subset in subsets.subsets(ofTrace: Int(trace)) { sizes[subset] += 1 } }
            var subsetStatistics = sizes.map { size in
                var list: [Double] = []
                list.reserveCapacity(size)
                return list
            }
            var subsetMeantBefore = sizes.map { size in
                var list: [Int32] = [0]
                list.reserveCapacity(size + 1)
                return list
            }
            for (index, trace) in traces.enumerated() {
                let isMeant: Int32 = meantFinish[Int(trace)] ? 1 : 0
                for subset in subsets.subsets(ofTrace: Int(trace)) {
                    subsetStatistics[subset].append(statistics[index])
                    subsetMeantBefore[subset].append(subsetMeantBefore[subset].last! + isMeant)
                }
            }
            self.subsetStatistics = subsetStatistics
            self.subsetMeantBefore = subsetMeantBefore
        }
    }
}
