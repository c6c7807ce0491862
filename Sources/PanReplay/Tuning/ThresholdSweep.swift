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

    /// Prepares the sweep of one group.
    ///
    /// - Parameters:
    ///   - entries: one per trace, in trace order.
    ///   - flips: one per trace when the rule reads velocity, else nil (no trace can flip).
    init(
        entries: [Entry], meantFinish: [Bool], flips: [Flip]?, comparison: Decision.Comparison, subsets: TraceSubsets?
    ) {
        self.comparison = comparison
        traceCount = entries.count
        usesVelocity = flips != nil
        var compared: [(statistic: Double, trace: Int)] = []
        compared.reserveCapacity(entries.count)
        var fixedCorrect = 0, fixedFalseFinishes = 0, fixedFalseCancels = 0
        var fixedMinimumMargin = Double.infinity
        var subsetFixedCorrect = [Int](repeating: 0, count: subsets?.count ?? 0)
        var subsetFixedMargin = [Double](repeating: .infinity, count: subsets?.count ?? 0)
        for (trace, entry) in entries.enumerated() {
            switch entry {
            case .compared(let statistic, _, _):
                compared.append((statistic, trace))
            case .fixed(let decision, let metrics):
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
                for subset in subsets?.subsets(ofTrace: trace) ?? [] {
                    if isRight { subsetFixedCorrect[subset] += 1 }
                    if decision.margin < subsetFixedMargin[subset] { subsetFixedMargin[subset] = decision.margin }
                }
            }
        }
        Self.sortByStatistic(&compared)
        statistics = compared.map(\.statistic)
        var meant: [Int32] = [0]
        meant.reserveCapacity(compared.count + 1)
        var cancelTimes: [Double] = [], finishTimes: [Double] = [], cancelJumps: [Double] = [], finishJumps: [Double] = []
        for (_, trace) in compared {
            meant.append(meant.last! + (meantFinish[trace] ? 1 : 0))
            guard case .compared(_, let cancel, let finish) = entries[trace] else { continue }
            cancelTimes.append(cancel.time)
            finishTimes.append(finish.time)
            cancelJumps.append(cancel.discontinuity)
            finishJumps.append(finish.discontinuity)
        }
        meantBefore = meant
        (self.cancelTimes, self.finishTimes, self.cancelJumps, self.finishJumps) = (cancelTimes, finishTimes, cancelJumps, finishJumps)
        (self.fixedCorrect, self.fixedFalseFinishes, self.fixedFalseCancels) = (fixedCorrect, fixedFalseFinishes, fixedFalseCancels)
        self.fixedMinimumMargin = fixedMinimumMargin
        for flip in flips ?? [] {
            switch flip {
            case .never: break
            case .always: flipConstant += 1
            case .whenPassing(let value): flipPlus.append(value)
            case .whenFailing(let value):
                flipConstant += 1
                flipMinus.append(value)
            case .between(let low, let high):
                flipPlus.append(high)
                flipMinus.append(low)
            }
        }
        flipPlus.sort()
        flipMinus.sort()
        if let subsets {
            var members = [[(Double, Bool)]](repeating: [], count: subsets.count)
            for (statistic, trace) in compared {
                for subset in subsets.subsets(ofTrace: trace) { members[subset].append((statistic, meantFinish[trace])) }
            }
            subsetStatistics = members.map { $0.map(\.0) }
            subsetMeantBefore = members.map { list in
                var counts: [Int32] = [0]
                for (_, meant) in list { counts.append(counts.last! + (meant ? 1 : 0)) }
                return counts
            }
            self.subsetFixedCorrect = subsetFixedCorrect
            self.subsetFixedMargin = subsetFixedMargin
        }
    }
}
