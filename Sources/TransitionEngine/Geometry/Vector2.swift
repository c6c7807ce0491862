/// A two-dimensional vector in points (or points per second for velocities).
///
/// The engine uses the UIKit coordinate convention: x grows to the right, y grows
/// downward, and the origin is the top-left corner of the screen.
public struct Vector2: Sendable, Hashable, Codable {
    /// The horizontal component.
    public var x: Double
    /// The vertical component.
    public var y: Double

    /// Creates a vector from its components.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector2(x: 0, y: 0)

    /// The Euclidean length, `√(x² + y²)`.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// Returns this vector with both components multiplied by `factor`.
    @inlinable
    public func scaled(by factor: Double) -> Vector2 {
        Vector2(x: x * factor, y: y * factor)
    }
}
