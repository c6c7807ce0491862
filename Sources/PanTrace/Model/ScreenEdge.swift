/// The screen edge a gesture started from, as `UIScreenEdgePanGestureRecognizer.edges` names it.
public enum ScreenEdge: String, Sendable, Codable, CaseIterable {
    /// The leading edge in a left-to-right layout (the edge-swipe "back").
    case left
    /// The right edge.
    case right
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
}
