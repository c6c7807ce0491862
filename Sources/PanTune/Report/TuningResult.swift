package import PanReplay
package import PanTrace
package import TransitionEngine

/// What a sweep found: a score per grid point, the best point, the preset's defaults, and
/// the traces the best point still gets wrong.
package struct TuningResult: Sendable {
    /// A trace the best point decides against its intent.
    package struct Misjudgement: Sendable, Hashable, Codable {
        /// The file the trace came from.
        package var file: String
        /// The trace's identifier.
        package var trace: String
        /// What the person meant.
        package var intent: Intent
        /// What the best point decided.
        package var decision: Decision.Outcome
        /// Why, in one line.
        package var reason: String
        /// How far the deciding statistic was from its threshold.
        package var margin: Double
        /// Progress at release.
        package var progressAtRelease: Double
        /// The axis velocity the decision used, pt/s.
        package var velocity: Double

        enum CodingKeys: String, CodingKey {
            case file, trace, intent, decision, reason, margin
            case progressAtRelease = "progress_at_release"
            case velocity = "velocity_pt_s"
        }
    }

    /// A trace left out because it does not drive the preset (docs/MODEL.md §2.6).
    package struct Misfit: Sendable, Hashable, Encodable {
        /// The file the trace came from.
        package var file: String
        /// Why: `off_axis`, `no_progress` or `wrong_way`.
        package var verdict: GestureFit.Verdict
        /// The fit in one sentence, with by how much it misses.
        package var reason: String

        /// Creates a misfit.
        package init(file: String, verdict: GestureFit.Verdict, reason: String) {
            self.file = file
            self.verdict = verdict
            self.reason = reason
        }
    }

    /// The preset swept.
    package var preset: String
    /// The grid.
    package var grid: TuningGrid
    /// One score per grid point, in grid order.
    package var scores: [PointScore]
    /// The index of the best point.
    package var bestPoint: Int
    /// The preset's defaults scored on the same traces.
    package var defaults: PointScore
    /// The preset's default value of each grid axis, in axis order.
    package var defaultValues: [PresetValue]
    /// Traces decided (known intent, replayable).
    package var traceCount: Int
    /// Of those, meant to finish.
    package var finishCount: Int
    /// Of those, meant to cancel.
    package var cancelCount: Int
    /// Traces left out because nobody labelled their intent.
    package var unknownIntentCount: Int
    /// Traces left out because they do not drive the preset, with the reason for each.
    package var notFitting: [Misfit]
    /// Of those, traces that move mostly across the preset's axis (another gesture).
    package var offAxisCount: Int { notFitting.filter { $0.verdict == .offAxis }.count }
    /// Of those, traces whose progress never reaches ``GestureFit/minimumPeakProgress``.
    package var noProgressCount: Int { notFitting.filter { $0.verdict == .noProgress }.count }
    /// Of those, traces that move the other way under a magnitude mapping.
    package var wrongWayCount: Int { notFitting.filter { $0.verdict == .wrongWay }.count }
    /// Traces left out because they cannot be replayed (no release sample).
    package var unreplayable: [TraceCorpus.Failure]
    /// Files that could not be read.
    package var unreadable: [TraceCorpus.Failure]
    /// The traces the best point decides against their intent, in corpus order.
    package var misjudged: [Misjudgement]
    /// Traces the defaults got wrong and the best point gets right.
    package var fixedByBest: Int
    /// Traces the defaults got right and the best point gets wrong.
    package var brokenByBest: Int
    /// Grid settings that make a decision outcome unreachable (docs/MODEL.md §3.10).
    package var unreachable: [String] = []
    /// What the sweep can and cannot tell about its best point; nil for a result not made by
    /// ``Tuner`` (e.g. read back from an older report).
    package var findings: TuningFindings?

    /// The best point's score.
    package var best: PointScore { scores[bestPoint] }

    /// The best point's values, in axis order.
    package var bestValues: [PresetValue] { grid.values(ofPoint: bestPoint) }

    /// Whether any input was skipped (unreadable or unreplayable): the CLI then exits non-zero.
    package var hasSkipped: Bool { !unreadable.isEmpty || !unreplayable.isEmpty }

}
