/// The phase of a pan gesture, as `UIGestureRecognizer.State` reports it.
public enum GesturePhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// The pan was recognised.
    case began
    /// The finger moved.
    case changed
    /// The finger lifted.
    case ended
    /// The system cancelled the gesture.
    case cancelled

    /// True for `ended` and `cancelled`: the gesture is over.
    public var isRelease: Bool { self == .ended || self == .cancelled }
}

/// One pan callback as the engine needs it: the replayer maps recorded samples onto this.
///
/// The engine does not import the trace model; this is its own small input type.
public struct GestureInput: Sendable, Hashable, Codable {
    /// Seconds since the gesture began.
    public var time: Double
    /// The recognizer phase.
    public var phase: GesturePhase
    /// Cumulative translation since touch-down, in points.
    public var translation: Vector2
    /// Velocity in points per second.
    public var velocity: Vector2

    /// Creates an input sample.
    public init(time: Double, phase: GesturePhase, translation: Vector2, velocity: Vector2 = .zero) {
        self.time = time
        self.phase = phase
        self.translation = translation
        self.velocity = velocity
    }
}
