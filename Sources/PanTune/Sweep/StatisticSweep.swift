package import PanTrace
internal import TransitionEngine

/// The sorted threshold sweep on bare statistics (one D1-style comparison per trace, no
/// completion metrics): the part of ``Tuner`` that `Benchmarks/tune/peer.py` times against
/// numpy's sorted method on the same numbers.
package enum StatisticSweep {
    /// What one sweep gives, reduced to numbers a peer can check.
    package struct Summary: Sendable {
        /// The sum of `correct` over every threshold.
        package var correctSum: Int
        /// The sum of the smallest margins over every threshold.
        package var minimumMarginSum: Double
        /// The sum of the mean margins over every threshold.
        package var meanMarginSum: Double
        /// Per fold, the index of the threshold the tie rule picks on the other folds.
        package var foldBest: [Int]
    }

    /// The cross-validation folds ``Tuner`` assigns to these traces, in order.
    package static func folds(of traces: [Trace]) -> (count: Int, ofTrace: [Int]) {
        let subsets = TraceSubsets(traces: traces)
        return (subsets.foldCount, subsets.foldOfTrace.map { Int($0) })
    }

    /// Scores every threshold from the sorted statistics (every ``PointScore`` field), and
    /// with `folds`, each fold's correct decisions and smallest margin and the tie rule's
    /// pick on the other folds, as ``Tuner`` does.
    package static func run(
        statistics: [Double], meantFinish: [Bool], thresholds: [Double], isStrict: Bool, defaultThreshold: Double,
        folds: (count: Int, ofTrace: [Int])?, storage: ThresholdStorage = .smaller
    ) throws -> Summary {
        let subsets = folds.map { TraceSubsets(foldCount: $0.count, foldOfTrace: $0.ofTrace) }
        var builder = ThresholdSweep.Builder(
            thresholds: thresholds, meantFinish: meantFinish, usesVelocity: false, comparison: isStrict ? .greaterThan : .atLeast,
            subsets: subsets, expectedCompared: statistics.count, storage: storage)
        for (trace, statistic) in statistics.enumerated() {
            builder.addCompared(trace: trace, statistic: statistic, cancel: (0, 0), finish: (0, 0))
        }
        let sweep = ThresholdSweep(builder)
        let subsetCount = subsets?.count ?? 0
        let evaluation = sweep.evaluate()
        let scores = evaluation.scores
        var tallies = SubsetTallies(points: 0, subsets: subsetCount)
        tallies.correct = evaluation.subsetCorrect
        tallies.minimumMargin = evaluation.subsetMargins
        var summary = Summary(correctSum: 0, minimumMarginSum: 0, meanMarginSum: 0, foldBest: [])
        for score in scores {
            summary.correctSum += score.correct
            summary.minimumMarginSum += score.minimumMargin
            summary.meanMarginSum += score.meanMargin
        }
        if let subsets {
            let grid = try TuningGrid(axes: [GridAxis(key: ParameterKey.threshold.rawValue, values: thresholds.map { .number($0) })])
            let rule = TieRule(grid: grid, defaultValues: [.number(defaultThreshold)])
            let (cross, _) = tallies.findings(
                subsets: subsets, rule: rule, grid: grid, scores: scores, best: 0, defaults: SubsetTally(subsets: subsetCount))
            summary.foldBest = (cross?.folds ?? []).map { fold in thresholds.firstIndex(of: fold.values[0].number!)! }
        }
        return summary
    }
}
