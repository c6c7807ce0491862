/// Where an interactive transition is.
public enum TransitionPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// No gesture has begun.
    case idle
    /// The finger drives progress.
    case interactive
    /// Released; animating toward the decided target.
    case completing
    /// Arrived at progress 1.
    case finished
    /// Returned to progress 0.
    case cancelled
}
