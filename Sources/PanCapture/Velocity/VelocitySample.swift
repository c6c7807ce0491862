/// One event of the tracked pointer, as a ``VelocityFeeder`` consumes it.
///
/// Only the first pointer of a gesture is described: PanTrace ignores extra pointers, as
/// `UIScreenEdgePanGestureRecognizer` does.
public struct VelocitySample: Hashable, Sendable {
    /// What the pointer did (``PointerPhase``).
    public typealias Phase = PointerPhase

    /// The event time in nanoseconds on any monotonic clock.
    ///
    /// Nanoseconds keep Android's `nsecs_t` timestamps exact; Flutter's microsecond
    /// timestamps are whole multiples of 1000.
    public var nanoseconds: Int64

    /// The horizontal position.
    public var x: Double

    /// The vertical position.
    public var y: Double

    /// What the pointer did.
    public var phase: Phase

    /// Creates a sample.
    public init(nanoseconds: Int64, x: Double, y: Double, phase: Phase) {
        self.nanoseconds = nanoseconds
        self.x = x
        self.y = y
        self.phase = phase
    }
}
