internal import PanReplay
internal import Synchronization
internal import TransitionEngine

extension GridSweep {
    /// The grid's threshold axis when the sorted sweep may score it: numbers only, more than one.
    private var thresholdAxis: Int? {
        let grid = space.grid
        guard allowsSortedSweep,
            let axis = grid.axes.firstIndex(where: { $0.key == ParameterKey.threshold.rawValue }),
            grid.axes[axis].values.count > 1,
            grid.axes[axis].values.allSatisfy({ $0.number?.isFinite == true })
        else { return nil }
        return axis
    }

    /// Scores every point with ``ThresholdSweep``: the grid's points are grouped by every axis
    /// but the threshold, and each group's thresholds are swept from its traces' sorted
    /// statistics. Nil when the grid has no threshold axis or a group's rule does not compare
    /// a θ-independent statistic with θ (checked at the axis's two ends for every trace);
    /// the caller then decides every point.
    ///
    /// - Parameters:
    ///   - releaseSets: one per combination of `releaseAxes` values, row-major.
    func sortedSweep(
        releaseSets: [ReleaseSet], releaseAxes: [Int], subsets: TraceSubsets?, progress: (@Sendable (Int, Int) -> Void)?
    ) -> (scores: [PointScore], tallies: SubsetTallies?)? {
        guard let thresholdAxis else { return nil }
        let grid = space.grid
        let axes = grid.axes
        let keys = axes.map(\.key)
        let thresholds = axes[thresholdAxis].values.map { $0.number! }
        let others = axes.indices.filter { $0 != thresholdAxis }
        let groupCount = others.reduce(1) { $0 * axes[$1].values.count }
        let total = grid.pointCount
        let subsetCount = subsets?.count ?? 0
        let results = Mutex([PointScore](repeating: .empty, count: total))
        let tallies = Mutex(SubsetTallies(points: subsets == nil ? 0 : total, subsets: subsetCount))
        let done = Atomic<Int>(0)
        let frameRate = self.frameRate
        let storage = thresholdStorage

        let isSwept = work.forEachBlock(count: groupCount, blockSize: 1) {
            [Int](repeating: 0, count: axes.count)
        } each: { indices, groups in
            for group in groups {
                var remainder = group
                for axis in others.reversed() {
                    indices[axis] = remainder % axes[axis].values.count
                    remainder /= axes[axis].values.count
                }
                let set = releaseSets[releaseAxes.reduce(0) { $0 * axes[$1].values.count + indices[$1] }]
                var presetIndices = indices
                func preset(threshold: Int) -> Preset {
                    presetIndices[thresholdAxis] = threshold
                    return space.parameters(keys: keys, values: zip(axes, presetIndices).map { $0.values[$1] }).preset
                }
                let first = preset(threshold: 0)
                let last = preset(threshold: thresholds.count - 1)
                guard
                    let sweep = Self.thresholdSweep(
                        set: set, first: first, last: last, thresholds: thresholds, frameRate: frameRate, subsets: subsets,
                        storage: storage)
                else { return false }
                let evaluation = sweep.evaluate()
                var local: [(Int, PointScore)] = []
                local.reserveCapacity(thresholds.count)
                for (index, score) in evaluation.scores.enumerated() {
                    indices[thresholdAxis] = index
                    local.append((grid.point(withValueIndices: indices), score))
                }
                let localCorrect = evaluation.subsetCorrect
                let localMargins = evaluation.subsetMargins
                results.withLock { scores in
                    for (point, score) in local { scores[point] = score }
                }
                if subsets != nil {
                    tallies.withLock { $0.store(correct: localCorrect, margins: localMargins, atPoints: local.map(\.0)) }
                }
                progress?(done.add(local.count, ordering: .relaxed).newValue, total)
            }
            return true
        }
        guard isSwept else { return nil }
        return (results.withLock { $0 }, subsets == nil ? nil : tallies.withLock { $0 })
    }

    /// One group's sweep, or nil when a trace's decision is not a θ-independent comparison
    /// with θ (or the same fixed decision) at both ends of the axis.
    static func thresholdSweep(
        set: ReleaseSet, first: Preset, last: Preset, thresholds: [Double], frameRate: Double, subsets: TraceSubsets?,
        storage: ThresholdStorage
    ) -> ThresholdSweep? {
        let policy = first.policy
        let comparison: Decision.Comparison
        switch policy.rule {
        case .threshold(let threshold), .flickOrThreshold(_, let threshold, _), .dominantAxisFling(_, _, let threshold),
            .lookAhead(_, let threshold), .projection(_, let threshold, _), .direction(_, .threshold(let threshold)):
            comparison = threshold.comparison
        case .direction:
            return nil
        }
        // D1 reads only p0: velocity noise cannot flip it (as in `ReleaseSet.score`).
        let usesVelocity: Bool
        if case .threshold = policy.rule { usesVelocity = false } else { usesVelocity = true }
        var builder = ThresholdSweep.Builder(
            thresholds: thresholds, meantFinish: set.meantFinish, usesVelocity: usesVelocity, comparison: comparison, subsets: subsets,
            expectedCompared: set.releases.count, storage: storage)
        for (trace, release) in set.releases.enumerated() {
            let decision = policy.decide(release)
            let other = last.policy.decide(release)
            func metrics(_ outcome: Decision.Outcome) -> (time: Double, discontinuity: Double) {
                var decided = decision
                decided.outcome = outcome
                return ReleaseSet.metrics(release: release, decision: decided, preset: first, frameRate: frameRate)
            }
            if ThresholdSweep.isCompared(decision) {
                guard other.basis == decision.basis, other.statistic.bitPattern == decision.statistic.bitPattern,
                    decision.threshold == thresholds.first, other.threshold == thresholds.last,
                    decision.comparison == comparison, other.comparison == comparison, decision.statistic.isFinite
                else { return nil }
                builder.addCompared(trace: trace, statistic: decision.statistic, cancel: metrics(.cancel), finish: metrics(.finish))
            } else {
                guard other == decision else { return nil }
                builder.addFixed(trace: trace, decision: decision, metrics: metrics(decision.outcome))
            }
            if usesVelocity {
                let noisy = [policy.decide(release.withVelocity(scaledBy: 0.9)), policy.decide(release.withVelocity(scaledBy: 1.1))]
                guard noisy.allSatisfy({ !ThresholdSweep.isCompared($0) || $0.threshold == thresholds.first }) else { return nil }
                builder.add(ThresholdSweep.Flip([decision] + noisy))
            }
        }
        return ThresholdSweep(builder)
    }
}
