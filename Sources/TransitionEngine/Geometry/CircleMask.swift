/// A circular or oval clipping mask, in the coordinate space of the screen.
///
/// Encoded as `{"center", "radius", "radius_y"}`; `radius_y` is absent for a circle.
public struct CircleMask: Sendable, Hashable, Codable {
    /// The centre of the circle or oval.
    public var center: Vector2
    /// The radius in points (the horizontal semi-axis of an oval); 0 hides the layer entirely.
    public var radius: Double
    /// The vertical semi-axis in points for an oval; nil for a circle of ``radius``.
    public var radiusY: Double?

    /// Creates a circular mask, or an oval one when `radiusY` is given.
    @inlinable
    public init(center: Vector2, radius: Double, radiusY: Double? = nil) {
        self.center = center
        self.radius = radius
        self.radiusY = radiusY
    }

    /// The vertical semi-axis: ``radiusY``, or ``radius`` for a circle.
    @inlinable
    public var verticalRadius: Double { radiusY ?? radius }

    enum CodingKeys: String, CodingKey {
        case center, radius
        case radiusY = "radius_y"
    }
}
