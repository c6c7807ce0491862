/// A circular clipping mask, in the coordinate space of the screen.
public struct CircleMask: Sendable, Hashable, Codable {
    /// The centre of the circle.
    public var center: Vector2
    /// The radius in points; 0 hides the layer entirely.
    public var radius: Double

    /// Creates a mask.
    @inlinable
    public init(center: Vector2, radius: Double) {
        self.center = center
        self.radius = radius
    }
}
