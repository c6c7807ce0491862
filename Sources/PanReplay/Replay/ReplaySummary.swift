public import PanTrace
public import TransitionEngine

/// The last line of a replay: the decision, why, and the metrics of DESIGN.md §4 and
/// `reference/transitions.md` §8.4.
///
/// Encoded with snake_case keys (`decision`, `reason`, `margin`, `release_s`, `completion_s`,
/// `overshoot`, `discontinuity_pt_s`, `flip_prone`, …) and `"type": "summary"` so that a
/// reader of a JSONL replay tells it apart from the frames. docs/REPLAY.md lists every key.
public struct ReplaySummary: Sendable, Hashable, Codable {
    /// Always `"summary"`.
    public var type = "summary"
    /// The trace's identifier.
    public var trace: String
    /// The preset's name.
    public var preset: String
    /// Where velocity came from (`recorded`, `lsq2`, `impulse`, `flutter`).
    public var velocity: VelocitySource
    /// The display frame rate of the replay, Hz.
    public var frameRate: Double
    /// How many frames the replay has.
    public var frames: Int
    /// Finish or cancel.
    public var decision: Decision.Outcome
    /// One line: what was compared with what.
    public var reason: String
    /// The rule that decided (`"D1"` …).
    public var rule: String
    /// How far the deciding statistic was from its threshold.
    public var margin: Double
    /// The unit of ``margin``: `"progress"` or `"pt/s"`.
    public var marginUnit: String
    /// Progress at release, `p0`.
    public var progressAtRelease: Double
    /// The axis velocity the decision used (after any gate), pt/s, positive toward finish.
    public var releaseVelocity: Double
    /// The gesture time of the release sample, s.
    public var releaseTime: Double
    /// The completion model (`"T1a"` …).
    public var completionModel: String
    /// Time from the release to the end of the completion, s.
    public var completionTime: Double
    /// The last time the drawn position is more than 0.5 pt from its target, s after release.
    public var settleTime: Double
    /// The largest excursion past the target, in progress units.
    public var overshoot: Double
    /// The same in points.
    public var overshootPoints: Double
    /// Rendered velocity just after release minus the finger's axis velocity, pt/s.
    public var discontinuity: Double
    /// True when ±10 % velocity noise would change the decision.
    public var isFlipProne: Bool
    /// True when the completion depends on the display frame rate (the stepper).
    public var isFrameRateDependent: Bool
    /// What the person meant.
    public var intent: Intent
    /// Whether the decision matches the intent; absent when the intent is unknown.
    public var isCorrect: Bool?
    /// How well `--realtime` kept time; absent in virtual time.
    public var pacing: PacingReport?

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
    }
}

extension Intent {
    /// The outcome the person meant, or nil when nobody said.
    public var outcome: Decision.Outcome? {
        switch self {
        case .finish: .finish
        case .cancel: .cancel
        case .unknown: nil
        }
    }
}

/// How closely a `--realtime` replay met its frame deadlines on the wall clock.
public struct PacingReport: Sendable, Hashable, Codable {
    /// Frames paced.
    public var frames: Int
    /// The playback speed (2 plays twice as fast).
    public var speed: Double
    /// Mean lateness of a frame against its deadline, ms.
    public var meanError: Double
    /// Largest lateness, ms.
    public var maximumError: Double

    /// Creates a report.
    public init(frames: Int, speed: Double, meanError: Double, maximumError: Double) {
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
