/// A two-dimensional value in points (translation, location) or points per second (velocity).
///
/// The one vector type of PanTrace and PanCapture: a velocity tracker's estimate is one too,
/// in the units of the positions it was fed (touch pixels for Android logs, logical pixels for
/// Flutter's, points for UIKit's) per second. The engine has its own, `Vector2`.
public struct PanVector: Hashable, Sendable, Codable {
    /// The horizontal component; positive to the right.
    public var x: Double
    /// The vertical component; positive downward, as in UIKit.
    public var y: Double

    /// Creates a vector from its components.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = PanVector(x: 0, y: 0)

    /// The Euclidean length.
    public var magnitude: Double { (x * x + y * y).squareRoot() }

    /// Whether both components are finite (neither NaN nor infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
