/// What a pointer did: the one phase type of raw pointer events and of the samples a velocity
/// tracker is fed (``PointerEvent/Phase`` and ``VelocitySample/Phase`` name it).
public enum PointerPhase: String, Hashable, Sendable, CaseIterable {
    /// The pointer touched down; a tracker starts a new gesture and forgets earlier samples.
    case down
    /// The pointer moved while down (or another pointer landed and this one was reported again).
    case move
    /// The pointer lifted; a tracker uses its time, not its position.
    case up
    /// The system took the pointer away (`pointercancel`, `ACTION_CANCEL`).
    case cancel
}
