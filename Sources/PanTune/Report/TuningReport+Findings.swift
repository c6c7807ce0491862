internal import TransitionEngine

extension TuningReport {
    /// One grid value, encoded as a JSON number or string.
    struct SingleValue: Sendable, Encodable {
        var value: PresetValue

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .number(let number): try container.encode(number)
            case .choice(let name): try container.encode(name)
            }
        }
    }

    /// `equal_points`: the points with the best point's number of correct decisions.
    struct EqualPointsReport: Sendable, Encodable {
        struct Axis: Sendable, Encodable {
            var key: String
            /// Values of the axis the set takes, in axis order.
            var values: Values.ValueList
            var low: SingleValue
            var high: SingleValue
            var count: Int
            var wholeAxis: Bool

            enum CodingKeys: String, CodingKey {
                case key, values, count, low, high
                case wholeAxis = "whole_axis"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(key, forKey: .key)
                try container.encode(values, forKey: .values)
                try container.encode(count, forKey: .count)
                try container.encode(wholeAxis, forKey: .wholeAxis)
                // `low` and `high` as single values: the first and last taken, in axis order
                // (the smallest and largest for a rising numeric axis).
                try container.encode(low, forKey: .low)
                try container.encode(high, forKey: .high)
            }
        }

        var count: Int
        var correct: Int
        var accuracy: Double
        var isBox: Bool
        var afterMargin: Int
        var decidedBy: TieRule.Step
        var axes: [Axis]

        enum CodingKeys: String, CodingKey {
            case count, correct, accuracy, axes
            case isBox = "is_box"
            case afterMargin = "after_margin"
            case decidedBy = "decided_by"
        }
    }

    struct EdgeReport: Sendable, Encodable {
        var key: String
        var side: String
        var value: SingleValue
        var atLimit: Bool

        enum CodingKeys: String, CodingKey {
            case key, side, value
            case atLimit = "at_limit"
        }
    }

    struct Interval: Sendable, Encodable {
        var low: Double
        var high: Double
    }

    /// `accuracy_ci`.
    struct AccuracyInterval: Sendable, Encodable {
        var method = "clopper-pearson"
        var level: Double
        var best: Interval
        var defaults: Interval
    }

    /// `cv_accuracy`.
    struct CrossValidationReport: Sendable, Encodable {
        struct Fold: Sendable, Encodable {
            var fold: Int
            var traces: Int
            var values: Values
            var correct: Int
            var accuracy: Double
            var defaultsCorrect: Int

            enum CodingKeys: String, CodingKey {
                case fold, traces, values, correct, accuracy
                case defaultsCorrect = "defaults_correct"
            }
        }

        var folds: Int
        var seed: UInt64
        var stratified = false
        var correct: Int
        var traces: Int
        var accuracy: Double
        var ci: Interval
        var defaultsAccuracy: Double
        var gainOverDefaults: Double
        var perFold: [Fold]

        enum CodingKeys: String, CodingKey {
            case folds, seed, stratified, correct, traces, accuracy, ci
            case defaultsAccuracy = "defaults_accuracy"
            case gainOverDefaults = "gain_over_defaults"
            case perFold = "per_fold"
        }
    }

    /// One entry of `breakdown`.
    struct GroupReport: Sendable, Encodable {
        struct Own: Sendable, Encodable {
            var values: Values
            var correct: Int
            var accuracy: Double
            var equalPoints: Int

            enum CodingKeys: String, CodingKey {
                case values, correct, accuracy
                case equalPoints = "equal_points"
            }
        }

        var kind: String
        var value: String
        var traces: Int
        var bestCorrect: Int
        var bestAccuracy: Double
        var defaultsCorrect: Int
        var defaultsAccuracy: Double
        var ownBest: Own

        enum CodingKeys: String, CodingKey {
            case kind, value, traces
            case bestCorrect = "best_correct"
            case bestAccuracy = "best_accuracy"
            case defaultsCorrect = "defaults_correct"
            case defaultsAccuracy = "defaults_accuracy"
            case ownBest = "own_best"
        }
    }

    /// The findings' part of the report (every field nil for a result without findings).
    struct FindingsReport: Sendable, Encodable {
        var equalPoints: EqualPointsReport
        var noEffectAxes: [String]
        var edge: [EdgeReport]
        var accuracyInterval: AccuracyInterval
        var crossValidation: CrossValidationReport?
        var breakdown: [GroupReport]
        var notes: [String]

        enum CodingKeys: String, CodingKey {
            case edge, breakdown, notes
            case equalPoints = "equal_points"
            case noEffectAxes = "no_effect_axes"
            case accuracyInterval = "accuracy_ci"
            case crossValidation = "cv_accuracy"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(equalPoints, forKey: .equalPoints)
            try container.encode(noEffectAxes, forKey: .noEffectAxes)
            try container.encode(edge, forKey: .edge)
            try container.encode(accuracyInterval, forKey: .accuracyInterval)
            // An explicit null when not computed; `notes` says why.
            try container.encode(crossValidation, forKey: .crossValidation)
            try container.encode(breakdown, forKey: .breakdown)
            try container.encode(notes, forKey: .notes)
        }

        init(_ result: TuningResult, _ findings: TuningFindings) {
            let keys = result.grid.axes.map(\.key)
            let equal = findings.choice.equal
            equalPoints = EqualPointsReport(
                count: equal.count, correct: result.best.correct, accuracy: result.best.accuracy, isBox: equal.isBox,
                afterMargin: findings.choice.afterMargin, decidedBy: findings.choice.decidedBy,
                axes: zip(result.grid.axes, equal.axes).map { axis, share in
                    let taken = axis.values.indices.filter { share.takes[$0] }.map { axis.values[$0] }
                    let numbers = taken.compactMap(\.number)
                    let isNumeric = numbers.count == taken.count
                    return EqualPointsReport.Axis(
                        key: axis.key, values: Values.ValueList(values: taken),
                        low: SingleValue(value: isNumeric ? .number(numbers.min()!) : taken.first!),
                        high: SingleValue(value: isNumeric ? .number(numbers.max()!) : taken.last!),
                        count: share.count, wholeAxis: share.isWhole)
                })
            noEffectAxes = findings.noEffectAxes
            edge = findings.edges.map {
                EdgeReport(key: $0.key, side: $0.side, value: SingleValue(value: $0.value), atLimit: $0.isAtLimit)
            }
            accuracyInterval = AccuracyInterval(
                level: findings.accuracyInterval.level,
                best: Interval(low: findings.accuracyInterval.low, high: findings.accuracyInterval.high),
                defaults: Interval(low: findings.defaultsInterval.low, high: findings.defaultsInterval.high))
            crossValidation = findings.crossValidation.map { cross in
                let interval = cross.interval
                return CrossValidationReport(
                    folds: cross.folds.count, seed: cross.seed, correct: cross.correct, traces: cross.traces, accuracy: cross.accuracy,
                    ci: Interval(low: interval.low, high: interval.high), defaultsAccuracy: cross.defaultsAccuracy,
                    gainOverDefaults: cross.accuracy - cross.defaultsAccuracy,
                    perFold: cross.folds.map {
                        CrossValidationReport.Fold(
                            fold: $0.fold, traces: $0.traces, values: Values(keys: keys, values: $0.values), correct: $0.correct,
                            accuracy: $0.traces == 0 ? 0 : Double($0.correct) / Double($0.traces), defaultsCorrect: $0.defaultsCorrect)
                    })
            }
            breakdown = findings.breakdown.map { group in
                let n = Double(max(group.traces, 1))
                return GroupReport(
                    kind: group.kind, value: group.value, traces: group.traces, bestCorrect: group.bestCorrect,
                    bestAccuracy: Double(group.bestCorrect) / n, defaultsCorrect: group.defaultsCorrect,
                    defaultsAccuracy: Double(group.defaultsCorrect) / n,
                    ownBest: GroupReport.Own(
                        values: Values(keys: keys, values: group.ownValues), correct: group.ownCorrect,
                        accuracy: Double(group.ownCorrect) / n, equalPoints: group.ownEqualPoints))
            }
            notes = result.notes
        }
    }
}
