public import PanTrace
public import TransitionEngine

/// What a sweep found: a score per grid point, the best point, the preset's defaults, and
/// the traces the best point still gets wrong.
public struct TuningResult: Sendable {
    /// A trace the best point decides against its intent.
    public struct Misjudgement: Sendable, Hashable, Codable {
        /// The file the trace came from.
        public var file: String
        /// The trace's identifier.
        public var trace: String
        /// What the person meant.
        public var intent: Intent
        /// What the best point decided.
        public var decision: Decision.Outcome
        /// Why, in one line.
        public var reason: String
        /// How far the deciding statistic was from its threshold.
        public var margin: Double
        /// Progress at release.
        public var progressAtRelease: Double
        /// The axis velocity the decision used, pt/s.
        public var velocity: Double

        enum CodingKeys: String, CodingKey {
            case file, trace, intent, decision, reason, margin
            case progressAtRelease = "progress_at_release"
            case velocity = "velocity_pt_s"
        }
    }

    /// The preset swept.
    public var preset: String
    /// The grid.
    public var grid: TuningGrid
    /// One score per grid point, in grid order.
    public var scores: [PointScore]
    /// The index of the best point.
    public var bestPoint: Int
    /// The preset's defaults scored on the same traces.
    public var defaults: PointScore
    /// The preset's default value of each grid axis, in axis order.
    public var defaultValues: [PresetValue]
    /// Traces decided (known intent, replayable).
    public var traceCount: Int
    /// Of those, meant to finish.
    public var finishCount: Int
    /// Of those, meant to cancel.
    public var cancelCount: Int
    /// Traces left out because nobody labelled their intent.
    public var unknownIntentCount: Int
    /// Traces left out because they move mostly across the preset's axis (another gesture).
    public var offAxisCount: Int
    /// Traces left out because they cannot be replayed (no release sample).
    public var unreplayable: [TraceCorpus.Failure]
    /// Files that could not be read.
    public var unreadable: [TraceCorpus.Failure]
    /// The traces the best point decides against their intent, in corpus order.
    public var misjudged: [Misjudgement]
    /// Traces the defaults got wrong and the best point gets right.
    public var fixedByBest: Int
    /// Traces the defaults got right and the best point gets wrong.
    public var brokenByBest: Int

    /// The best point's score.
    public var best: PointScore { scores[bestPoint] }

    /// The best point's values, in axis order.
    public var bestValues: [PresetValue] { grid.values(ofPoint: bestPoint) }

    /// Whether any input was skipped (unreadable or unreplayable): the CLI then exits non-zero.
    public var hasSkipped: Bool { !unreadable.isEmpty || !unreplayable.isEmpty }

    /// The index of the best of `scores` by ``PointScore/ranks(above:)``; the first in grid
    /// order wins a complete tie.
    public static func bestIndex(of scores: [PointScore]) -> Int {
        precondition(!scores.isEmpty, "no scores")
        var best = 0
        for index in scores.indices.dropFirst() where scores[index].ranks(above: scores[best]) {
            best = index
        }
        return best
    }
}
