internal import PanReplay
internal import TransitionEngine

/// The `--json` document of `pantrace tune` (schema in docs/TUNE.md).
///
/// Its top-level field names are stable: `preset`, `grid`, `traces`, `excluded`, `best`,
/// `defaults`, `improvement`, `misjudged`.
package struct TuningReport: Sendable, Encodable {
    /// Grid values by key, encoded as a JSON object of numbers and strings.
    struct Values: Sendable, Encodable {
        var keys: [String]
        var values: [PresetValue]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in zip(keys, values) {
                switch value {
                case .number(let number): try container.encode(number, forKey: Key(stringValue: key))
                case .choice(let name): try container.encode(name, forKey: Key(stringValue: key))
                }
            }
        }
    }

    struct Axis: Sendable, Encodable {
        var key: String
        var values: Values.ValueList
    }

    struct Point: Sendable, Encodable {
        var point: Int?
        var values: Values
        var score: PointScore

        enum CodingKeys: String, CodingKey { case point, values }

        func encode(to encoder: any Encoder) throws {
            try score.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(point, forKey: .point)
            try container.encode(values, forKey: .values)
        }
    }

    struct Grid: Sendable, Encodable {
        var axes: [Axis]
        var points: Int
        var results: [Point]?
    }

    struct Traces: Sendable, Encodable {
        var tuned: Int
        var finish: Int
        var cancel: Int
    }

    struct Excluded: Sendable, Encodable {
        var unknownIntent: Int
        var offAxis: Int
        var noProgress: Int
        var wrongWay: Int
        var notFitting: [TuningResult.Misfit]
        var unreadable: [TraceCorpus.Failure]
        var unreplayable: [TraceCorpus.Failure]

        enum CodingKeys: String, CodingKey {
            case unreadable, unreplayable
            case unknownIntent = "unknown_intent"
            case offAxis = "off_axis"
            case noProgress = "no_progress"
            case wrongWay = "wrong_way"
            case notFitting = "not_fitting"
        }
    }

    struct Improvement: Sendable, Encodable {
        var accuracy: Double
        var correct: Int
        var fixed: Int
        var broken: Int
        var falseFinishes: Int
        var falseCancels: Int
        var minimumMargin: Double
        var meanDiscontinuity: Double

        enum CodingKeys: String, CodingKey {
            case accuracy, correct, fixed, broken
            case falseFinishes = "false_finishes"
            case falseCancels = "false_cancels"
            case minimumMargin = "min_margin"
            case meanDiscontinuity = "mean_discontinuity_pt_s"
        }
    }

    /// Grids with more points than this leave `grid.results` out (use `--csv` for them all).
    package static let maximumListedPoints = 100_000

    var preset: String
    var grid: Grid
    var traces: Traces
    var excluded: Excluded
    var best: Point
    var defaults: Point
    var improvement: Improvement
    var misjudged: [TuningResult.Misjudgement]
    /// Grid settings that make a decision outcome unreachable.
    var warnings: [String]
    /// `equal_points`, `no_effect_axes`, `edge`, `accuracy_ci`, `cv_accuracy`, `breakdown`,
    /// `notes`, at the top level; left out for a result without findings.
    var findings: FindingsReport?

    enum CodingKeys: String, CodingKey {
        case preset, grid, traces, excluded, best, defaults, improvement, misjudged, warnings
    }

    /// Encodes the report; the findings' keys sit beside the others at the top level.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(preset, forKey: .preset)
        try container.encode(grid, forKey: .grid)
        try container.encode(traces, forKey: .traces)
        try container.encode(excluded, forKey: .excluded)
        try container.encode(best, forKey: .best)
        try container.encode(defaults, forKey: .defaults)
        try container.encode(improvement, forKey: .improvement)
        try container.encode(misjudged, forKey: .misjudged)
        try container.encode(warnings, forKey: .warnings)
        try findings?.encode(to: encoder)
    }

    /// The report of `result`.
    package init(_ result: TuningResult) {
        let keys = result.grid.axes.map(\.key)
        preset = result.preset
        let listed = result.grid.pointCount <= Self.maximumListedPoints
        grid = Grid(
            axes: result.grid.axes.map { Axis(key: $0.key, values: Values.ValueList(values: $0.values)) },
            points: result.grid.pointCount,
            results: listed
                ? result.scores.indices.map {
                    Point(point: $0, values: Values(keys: keys, values: result.grid.values(ofPoint: $0)), score: result.scores[$0])
                }
                : nil
        )
        traces = Traces(tuned: result.traceCount, finish: result.finishCount, cancel: result.cancelCount)
        excluded = Excluded(
            unknownIntent: result.unknownIntentCount, offAxis: result.offAxisCount, noProgress: result.noProgressCount,
            wrongWay: result.wrongWayCount, notFitting: result.notFitting, unreadable: result.unreadable, unreplayable: result.unreplayable)
        warnings = result.unreachable
        best = Point(point: result.bestPoint, values: Values(keys: keys, values: result.bestValues), score: result.best)
        defaults = Point(point: nil, values: Values(keys: keys, values: result.defaultValues), score: result.defaults)
        improvement = Improvement(
            accuracy: result.best.accuracy - result.defaults.accuracy,
            correct: result.best.correct - result.defaults.correct,
            fixed: result.fixedByBest,
            broken: result.brokenByBest,
            falseFinishes: result.best.falseFinishes - result.defaults.falseFinishes,
            falseCancels: result.best.falseCancels - result.defaults.falseCancels,
            minimumMargin: result.best.minimumMargin - result.defaults.minimumMargin,
            meanDiscontinuity: result.best.meanDiscontinuity - result.defaults.meanDiscontinuity
        )
        misjudged = result.misjudged
        findings = result.findings.map { FindingsReport(result, $0) }
    }
}

extension TuningReport.Values {
    /// A list of grid values, encoded as a JSON array of numbers and strings.
    struct ValueList: Sendable, Encodable {
        var values: [PresetValue]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for value in values {
                switch value {
                case .number(let number): try container.encode(number)
                case .choice(let name): try container.encode(name)
                }
            }
        }
    }
}
