package import TransitionEngine

/// What a sweep can and cannot tell (docs/TUNE.md, "How much to trust the best point"): the
/// points as good as the best, the axes that change no decision, a best point on the grid's
/// edge, the accuracy's confidence interval, cross-validated accuracy, and a breakdown by tag
/// and source.
package struct TuningFindings: Sendable {
    /// A best point on an end of a numeric axis: a wider grid might do better.
    package struct Edge: Sendable, Hashable {
        /// The axis.
        package var key: String
        /// `low` or `high`.
        package var side: String
        /// The best point's value there.
        package var value: PresetValue
        /// Whether that value is also the end of the parameter's allowed range, so the grid
        /// cannot be widened that way.
        package var isAtLimit: Bool
    }

    /// One fold of the cross-validation: tuned on the other folds, scored on this one.
    package struct Fold: Sendable, Hashable {
        /// The fold's number, from 0.
        package var fold: Int
        /// Traces held out in it.
        package var traces: Int
        /// The best point of the other folds (by the tie rule), in axis order.
        package var values: [PresetValue]
        /// Its correct decisions on the held-out traces.
        package var correct: Int
        /// The defaults' correct decisions on the same traces.
        package var defaultsCorrect: Int
    }

    /// k-fold cross-validated accuracy: how the tuning would do on traces it did not see.
    package struct CrossValidation: Sendable, Hashable {
        /// The seed of the fold assignment.
        package var seed: UInt64
        /// The folds.
        package var folds: [Fold]
        /// Held-out decisions that matched the intent, summed over the folds.
        package var correct: Int { folds.reduce(0) { $0 + $1.correct } }
        /// Traces held out, summed over the folds (every tuned trace once).
        package var traces: Int { folds.reduce(0) { $0 + $1.traces } }
        /// `correct / traces`.
        package var accuracy: Double { traces == 0 ? 0 : Double(correct) / Double(traces) }
        /// The defaults' accuracy on the same traces (they are not tuned, so this is their
        /// plain accuracy).
        package var defaultsAccuracy: Double { traces == 0 ? 0 : Double(folds.reduce(0) { $0 + $1.defaultsCorrect }) / Double(traces) }
        /// The exact interval of the cross-validated accuracy.
        package var interval: BinomialInterval { BinomialInterval(correct: correct, trials: traces) }
    }

    /// How the best point, the defaults and the group's own best do on one group of traces.
    package struct GroupScore: Sendable, Hashable {
        /// `tag` or `source`.
        package var kind: String
        /// The tag or the source.
        package var value: String
        /// Traces in the group.
        package var traces: Int
        /// The overall best point's correct decisions on them.
        package var bestCorrect: Int
        /// The defaults' correct decisions on them.
        package var defaultsCorrect: Int
        /// The group's own best point (by the tie rule), in axis order.
        package var ownValues: [PresetValue]
        /// Its correct decisions on the group.
        package var ownCorrect: Int
        /// How many points are as good as the group's own best on the group.
        package var ownEqualPoints: Int
    }

    /// The best point and the equal points it was chosen from.
    package var choice: TieRule.Choice
    /// Axes along which the decision part of the score never changes.
    package var noEffectAxes: [String]
    /// Axes on whose end the best point lies.
    package var edges: [Edge]
    /// The best point's accuracy, 95 % exact interval.
    package var accuracyInterval: BinomialInterval
    /// The defaults' accuracy, 95 % exact interval.
    package var defaultsInterval: BinomialInterval
    /// k-fold cross-validation, or nil when not computed (see ``detailNote``).
    package var crossValidation: CrossValidation?
    /// Per group, largest first.
    package var breakdown: [GroupScore]
    /// Groups that qualified but were not broken down (more than ``TraceSubsets/maximumGroups``).
    package var groupsLeftOut: Int
    /// Why cross-validation and the breakdown were not computed, when they were not.
    package var detailNote: String?

    /// The most (grid points × subsets) a sweep tallies per subset: about 96 MB.
    package static let maximumTallies = 8_000_000

    /// The decision part of a score: what an axis with no effect leaves unchanged.
    static func decisionFields(_ score: PointScore) -> [Double] {
        [
            Double(score.correct), Double(score.falseFinishes), Double(score.falseCancels), Double(score.flipProne), score.meanMargin,
            score.minimumMargin
        ]
    }

    /// The axes of `grid` (with at least two values) along which the decision part of every
    /// score is the same.
    static func noEffectAxes(grid: TuningGrid, scores: [PointScore]) -> [String] {
        var stride = 1
        var strides = [Int](repeating: 1, count: grid.axes.count)
        for axis in grid.axes.indices.reversed() {
            strides[axis] = stride
            stride *= grid.axes[axis].values.count
        }
        return grid.axes.indices.filter { axis in
            let size = grid.axes[axis].values.count
            guard size > 1 else { return false }
            for point in scores.indices {
                let index = (point / strides[axis]) % size
                guard index > 0 else { continue }
                let base = point - index * strides[axis]
                if scores[point].correct != scores[base].correct || decisionFields(scores[point]) != decisionFields(scores[base]) { return false }
            }
            return true
        }.map { grid.axes[$0].key }
    }

    /// The numeric axes (of at least three values, with an effect) on whose end `best` lies.
    static func edges(grid: TuningGrid, best: Int, noEffect: [String], preset: PresetName) -> [Edge] {
        let parameters = PresetCatalog.entry(for: preset).parameters
        return zip(grid.axes, grid.valueIndices(ofPoint: best)).compactMap { axis, index in
            guard axis.values.count >= 3, !noEffect.contains(axis.key), axis.values.allSatisfy({ $0.number != nil }) else { return nil }
            let numbers = axis.values.map { $0.number! }
            let value = numbers[index]
            let side: String
            if value == numbers.min() {
                side = "low"
            } else if value == numbers.max() {
                side = "high"
            } else {
                return nil
            }
            var isAtLimit = false
            if let parameter = parameters.first(where: { $0.key == axis.key }), case .range(let range) = parameter.allowed {
                isAtLimit = side == "low" ? value <= range.lowerBound : value >= range.upperBound
            }
            return Edge(key: axis.key, side: side, value: .number(value), isAtLimit: isAtLimit)
        }
    }
}

/// Per-point tallies of every subset (folds, then groups), flat: point `p`, subset `s` at
/// `p · subsets + s`.
struct SubsetTallies: Sendable {
    var subsets: Int
    var correct: [Int32]
    var minimumMargin: [Double]

    init(points: Int, subsets: Int) {
        self.subsets = subsets
        correct = [Int32](repeating: 0, count: points * subsets)
        minimumMargin = [Double](repeating: .infinity, count: points * subsets)
    }

    /// Stores one worker's run: `correct` and `margins` hold `subsets` values a point, the
    /// points in the order of `points`.
    mutating func store(correct counts: [Int32], margins: [Double], atPoints points: [Int]) {
        for (position, point) in points.enumerated() {
            let range = (position * subsets)..<((position + 1) * subsets)
            store(correct: counts[range], margins: margins[range], atPoint: point)
        }
    }

    mutating func store(correct counts: ArraySlice<Int32>, margins: ArraySlice<Double>, atPoint point: Int) {
        for (subset, (count, margin)) in zip(counts, margins).enumerated() {
            correct[point * subsets + subset] = count
            minimumMargin[point * subsets + subset] = margin
        }
    }

    /// Cross-validation over `folds` and the breakdown over the groups that follow them.
    func findings(
        subsets layout: TraceSubsets, rule: TieRule, grid: TuningGrid, scores: [PointScore], best: Int, defaults: SubsetTally
    ) -> (TuningFindings.CrossValidation?, [TuningFindings.GroupScore]) {
        var cross: TuningFindings.CrossValidation?
        let folds = layout.foldCount
        if folds > 0 {
            var results: [TuningFindings.Fold] = []
            for fold in 0..<folds {
                let choice = rule.choose(
                    correct: { scores[$0].correct - Int(correct[$0 * subsets + fold]) },
                    minimumMargin: { point in
                        var smallest = Double.infinity
                        for other in 0..<folds where other != fold { smallest = min(smallest, minimumMargin[point * subsets + other]) }
                        return smallest
                    })
                let held = layout.foldOfTrace.filter { Int($0) == fold }.count
                results.append(
                    TuningFindings.Fold(
                        fold: fold, traces: held, values: grid.values(ofPoint: choice.best),
                        correct: Int(correct[choice.best * subsets + fold]), defaultsCorrect: defaults.correct[fold]))
            }
            cross = TuningFindings.CrossValidation(seed: TraceSubsets.seed, folds: results)
        }
        let breakdown = layout.groups.enumerated().map { number, group in
            let subset = folds + number
            let own = rule.choose(
                correct: { Int(correct[$0 * subsets + subset]) }, minimumMargin: { minimumMargin[$0 * subsets + subset] })
            return TuningFindings.GroupScore(
                kind: group.kind, value: group.value, traces: group.traces, bestCorrect: Int(correct[best * subsets + subset]),
                defaultsCorrect: defaults.correct[subset], ownValues: grid.values(ofPoint: own.best),
                ownCorrect: Int(correct[own.best * subsets + subset]), ownEqualPoints: own.equal.count)
        }
        return (cross, breakdown)
    }
}
