/// A planar velocity in position units per second.
///
/// The unit follows the positions the tracker was fed: touch pixels for Android logs, logical
/// pixels for Flutter logs, points for UIKit recordings. Time is always per second, like
/// Android's `VelocityTracker::getVelocity` and Flutter's `Velocity.pixelsPerSecond`.
public struct Velocity2: Hashable, Sendable {
    /// The horizontal component, in position units per second.
    public var x: Double

    /// The vertical component, in position units per second.
    public var y: Double

    /// Creates a velocity from its two components.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// A velocity that isn't moving at all (Flutter's `Velocity.zero`).
    public static let zero = Velocity2(x: 0, y: 0)
}

extension Velocity2: CustomStringConvertible {
    /// The two components, as `(x, y) /s`.
    public var description: String {
        "(\(x), \(y)) /s"
    }
}
