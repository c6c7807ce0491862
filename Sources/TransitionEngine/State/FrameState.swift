/// What a viewer draws at one instant, without heap storage: the hot-path counterpart of
/// ``FrameState``.
public struct FrameSnapshot: Sendable, Hashable {
    /// Seconds since the gesture began.
    public var time: Double
    /// The phase at `time`.
    public var phase: TransitionPhase
    /// Timeline progress `p`.
    public var progress: Double
    /// Drawn progress `R(p)`.
    public var renderedProgress: Double
    /// The z-ordered layers, back to front.
    public var layers: LayerStack

    /// Creates a snapshot.
    public init(time: Double, phase: TransitionPhase, progress: Double, renderedProgress: Double, layers: LayerStack) {
        self.time = time
        self.phase = phase
        self.progress = progress
        self.renderedProgress = renderedProgress
        self.layers = layers
    }
}

/// The decision as reported on the release frame: the decision, its reason and margin, and
/// what completion it started.
public struct ReleaseReport: Sendable, Hashable, Codable {
    /// The decision (outcome, basis, statistic, threshold, margin, gated velocity).
    public var decision: Decision
    /// The rule identifier, `"D1"` … `"D6"`.
    public var rule: String
    /// One line, e.g. `"projected 0.62 ≥ 0.5 → finish"`.
    public var reason: String
    /// `|statistic − threshold|`.
    public var margin: Double
    /// The completion model identifier, `"T1a"` ….
    public var completionModel: String
    /// The planned completion time, s.
    public var completionTime: Double

    /// Creates a report.
    public init(decision: Decision, rule: String, completionModel: String, completionTime: Double) {
        self.decision = decision
        self.rule = rule
        self.reason = decision.reason
        self.margin = decision.margin
        self.completionModel = completionModel
        self.completionTime = completionTime
    }

    /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
    private enum CodingKeys: String, CodingKey {
        case decision, rule, reason, margin
        case completionModel = "completion_model", completionTime = "completion_time"
    }
}

/// One frame of a replay, ready to encode and send to a viewer.
public struct FrameState: Sendable, Hashable, Codable {
    /// Seconds since the gesture began.
    public var time: Double
    /// The phase.
    public var phase: TransitionPhase
    /// Timeline progress `p`.
    public var progress: Double
    /// Drawn progress `R(p)`.
    public var renderedProgress: Double
    /// The layers, back to front.
    public var layers: [Layer]
    /// The gesture sample in effect (the latest at or before `time`), if any.
    public var gesture: GestureInput?
    /// On the release frame only: the decision with its reason and margin.
    public var release: ReleaseReport?

    /// Creates a frame state.
    public init(
        time: Double,
        phase: TransitionPhase,
        progress: Double,
        renderedProgress: Double,
        layers: [Layer],
        gesture: GestureInput? = nil,
        release: ReleaseReport? = nil
    ) {
        self.time = time
        self.phase = phase
        self.progress = progress
        self.renderedProgress = renderedProgress
        self.layers = layers
        self.gesture = gesture
        self.release = release
    }

    /// A frame state from a snapshot (copies the layers into an array).
    public init(_ snapshot: FrameSnapshot, gesture: GestureInput? = nil, release: ReleaseReport? = nil) {
        self.init(
            time: snapshot.time,
            phase: snapshot.phase,
            progress: snapshot.progress,
            renderedProgress: snapshot.renderedProgress,
            layers: Array(snapshot.layers),
            gesture: gesture,
            release: release
        )
    }

    /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
    private enum CodingKeys: String, CodingKey {
        case time, phase, progress, layers, gesture, release
        case renderedProgress = "rendered_progress"
    }
}
