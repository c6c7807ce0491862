package import PanTrace
package import TransitionEngine

/// The last line of a replay: the decision, why, and the metrics of docs/MODEL.md §7.
///
/// Encoded with snake_case keys (`decision`, `reason`, `margin`, `release_s`, `completion_s`,
/// `overshoot`, `discontinuity_pt_s`, `flip_prone`, …) and `"type": "summary"` so that a
/// reader of a JSONL replay tells it apart from the frames. docs/REPLAY.md lists every key.
package struct ReplaySummary: Sendable, Hashable, Codable {
    /// Always `"summary"`.
    package var type = "summary"
    /// The trace's identifier.
    package var trace: String
    /// The preset's name.
    package var preset: String
    /// Where velocity came from (`recorded`, `lsq2`, `impulse`, `flutter`).
    package var velocity: VelocitySource
    /// The display frame rate of the replay, Hz.
    package var frameRate: Double
    /// How many frames the replay has.
    package var frames: Int
    /// Finish or cancel.
    package var decision: Decision.Outcome
    /// One line: what was compared with what.
    package var reason: String
    /// The rule that decided (`"D1"` …).
    package var rule: String
    /// How far the deciding statistic was from its threshold.
    package var margin: Double
    /// The unit of ``margin``: `"progress"` or `"pt/s"`.
    package var marginUnit: String
    /// Progress at release, `p0`.
    package var progressAtRelease: Double
    /// The axis velocity the decision used (after any gate), pt/s, positive toward finish.
    package var releaseVelocity: Double
    /// The gesture time of the release sample, s.
    package var releaseTime: Double
    /// The completion model (`"T1a"` …).
    package var completionModel: String
    /// Time from the release to the end of the completion, s.
    package var completionTime: Double
    /// The last time the drawn position is more than 0.5 pt from its target, s after release.
    package var settleTime: Double
    /// The largest excursion past the target, in progress units.
    package var overshoot: Double
    /// The same in points.
    package var overshootPoints: Double
    /// Rendered velocity just after release minus the finger's axis velocity, pt/s.
    package var discontinuity: Double
    /// True when ±10 % velocity noise would change the decision.
    package var isFlipProne: Bool
    /// True when the completion depends on the display frame rate (the stepper).
    package var isFrameRateDependent: Bool
    /// What the person meant.
    package var intent: Intent
    /// Whether the decision matches the intent; absent when the intent is unknown.
    package var isCorrect: Bool?
    /// How well `--realtime` kept time; absent in virtual time.
    package var pacing: PacingReport?
    /// The drag that drives the preset, e.g. `"drag down (+y) over 0.5·H"`.
    package var drag: String?
    /// Whether the recording drives the preset: `fits`, `off_axis`, `no_progress` or
    /// `wrong_way` (docs/MODEL.md §2.6).
    package var fit: GestureFit.Verdict?
    /// The fit in one sentence, with by how much it misses.
    package var fitNote: String?
    /// The largest progress any sample reached.
    package var peakProgress: Double?
    /// A `direction` that would let the recording drive the preset, when one would.
    package var suggestedDirection: DragDirection?
    /// Settings that make an outcome unreachable, and a completion bounded by
    /// docs/MODEL.md §4.12; empty when there is nothing to say.
    package var warnings: [String]?

    enum CodingKeys: String, CodingKey {
        case type, trace, preset, velocity, frames, decision, reason, rule, margin, overshoot, intent, pacing
        case frameRate = "frame_rate"
        case marginUnit = "margin_unit"
        case progressAtRelease = "progress_at_release"
        case releaseVelocity = "release_velocity_pt_s"
        case releaseTime = "release_s"
        case completionModel = "completion_model"
        case completionTime = "completion_s"
        case settleTime = "settle_s"
        case overshootPoints = "overshoot_pt"
        case discontinuity = "discontinuity_pt_s"
        case isFlipProne = "flip_prone"
        case isFrameRateDependent = "frame_rate_dependent"
        case isCorrect = "correct"
        case drag, fit, warnings
        case fitNote = "fit_note"
        case peakProgress = "peak_progress"
        case suggestedDirection = "suggested_direction"
    }
}

extension Intent {
    /// The finish or cancel the person meant, or nil when nobody said or the label is a
    /// detent (a sheet library's, not a two-state transition's).
    package var outcome: Decision.Outcome? {
        switch self {
        case .finish: .finish
        case .cancel: .cancel
        case .unknown, .detent: nil
        }
    }
}

/// How closely a `--realtime` replay met its frame deadlines on the wall clock.
package struct PacingReport: Sendable, Hashable, Codable {
    /// Frames paced.
    package var frames: Int
    /// The playback speed (2 plays twice as fast).
    package var speed: Double
    /// Mean lateness of a frame against its deadline, ms.
    package var meanError: Double
    /// Largest lateness, ms.
    package var maximumError: Double

    /// Creates a report.
    package init(frames: Int, speed: Double, meanError: Double, maximumError: Double) {
        self.frames = frames
        self.speed = speed
        self.meanError = meanError
        self.maximumError = maximumError
    }

    enum CodingKeys: String, CodingKey {
        case frames, speed
        case meanError = "mean_error_ms"
        case maximumError = "max_error_ms"
    }
}
