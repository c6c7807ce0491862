/// One callback of a pan gesture recognizer.
///
/// What `UIPanGestureRecognizer` reports at each callback (docs/MODEL.md §1.1; Apple, UIPanGestureRecognizer): the time since the
/// gesture began, the phase, the translation since the touch went down, the velocity, and
/// optionally the raw location and the number of touches.
public struct PanSample: Hashable, Sendable {
    /// Seconds since the gesture began (stored on the file's time grid, 1 µs by default).
    public var time: Double
    /// Cumulative translation in points since the touch went down.
    public var translation: PanVector
    /// Velocity in points per second, as recorded or as estimated (see ``TraceMetadata/velocityOrigin``).
    public var velocity: PanVector
    /// The raw touch location in points in the recording's screen, when the source had it.
    public var location: PanVector?
    /// The recognizer state of this callback. Stored after `location`, in the byte its
    /// optional leaves spare: a sample takes 80 bytes, not 88.
    public var phase: GesturePhase
    /// The number of touches down, when the source reported it.
    public var touches: Int?

    /// Creates a sample.
    public init(
        time: Double, phase: GesturePhase, translation: PanVector, velocity: PanVector,
        location: PanVector? = nil, touches: Int? = nil
    ) {
        self.time = time
        self.phase = phase
        self.translation = translation
        self.velocity = velocity
        self.location = location
        self.touches = touches
    }
}
