/// A width and a height in points, such as the screen a transition runs on.
public struct Size: Sendable, Hashable, Codable {
    /// The horizontal extent in points.
    public var width: Double
    /// The vertical extent in points.
    public var height: Double

    /// Creates a size.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
