public import PanTrace

/// One raw pointer event: what a touch screen, a browser or a pointer log reports.
///
/// The input of ``PanRecognizer``. Locations are in points on the recording's screen, time
/// is nanoseconds on any monotonic clock (a log's own clock, a browser's
/// `PointerEvent.timeStamp`, Android's `CLOCK_MONOTONIC`).
public struct PointerEvent: Hashable, Sendable {
    /// What the pointer did (``PointerPhase``).
    public typealias Phase = PointerPhase

    /// Event time in nanoseconds.
    public var nanoseconds: Int64
    /// Where the pointer is, in points.
    public var location: PanVector
    /// What the pointer did.
    public var phase: Phase
    /// Which pointer: any integer that stays the same from its down to its up.
    public var pointer: Int

    /// Creates an event.
    public init(nanoseconds: Int64, location: PanVector, phase: Phase, pointer: Int = 0) {
        self.nanoseconds = nanoseconds
        self.location = location
        self.phase = phase
        self.pointer = pointer
    }

    /// Creates an event from coordinates.
    public init(nanoseconds: Int64, x: Double, y: Double, phase: Phase, pointer: Int = 0) {
        self.init(nanoseconds: nanoseconds, location: PanVector(x: x, y: y), phase: phase, pointer: pointer)
    }
}
