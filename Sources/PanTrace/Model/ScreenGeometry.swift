/// The size of the screen a gesture was recorded on.
public struct ScreenGeometry: Hashable, Sendable, Codable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double
    /// Pixels per point (UIKit's `UIScreen.scale`).
    public var scale: Double

    /// Creates a screen size.
    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// An iPhone 15-class screen, 390 × 844 pt at 3×: the default for synthetic gestures.
    public static let phone = ScreenGeometry(width: 390, height: 844, scale: 3)
}
