/// An axis-aligned rectangle in points: origin at the top-left corner, y pointing down.
public struct Rect: Sendable, Hashable, Codable {
    /// The x coordinate of the left edge.
    public var x: Double
    /// The y coordinate of the top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle from its origin and size.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle at the origin that covers `size`.
    @inlinable
    public init(size: Size) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// A zero-sized rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
}
