/// The size of the screen a gesture was recorded on.
///
/// Every value that reaches a ``TraceMetadata`` from outside (a file header, JSON, a wire
/// message, a flag) is checked with ``validated()``: width and height within
/// ``ValueLimits/screenPoints``, the scale within ``ValueLimits/screenScale``.
public struct ScreenGeometry: Hashable, Sendable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double
    /// Pixels per point (UIKit's `UIScreen.scale`).
    public var scale: Double

    /// Creates a screen size. The values are not checked here; see ``validated()``.
    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// An iPhone 15-class screen, 390 × 844 pt at 3×: the default for synthetic gestures.
    public static let phone = ScreenGeometry(width: 390, height: 844, scale: 3)

    /// Why these values cannot describe a screen, or nil when they can.
    public var problem: String? {
        let points = ValueLimits.screenPoints, scales = ValueLimits.screenScale
        for (name, value) in [("width", width), ("height", height)] where !(value.isFinite && points.contains(value)) {
            return "screen \(name) \(value) is outside \(Self.format(points.lowerBound))…\(Self.format(points.upperBound)) points"
        }
        guard scale.isFinite, scales.contains(scale) else {
            return "screen scale \(scale) is outside \(Self.format(scales.lowerBound))…\(Self.format(scales.upperBound))"
        }
        return nil
    }

    /// The same screen, checked.
    /// - Throws: ``PanTraceError`` naming the value out of range.
    public func validated() throws(PanTraceError) -> ScreenGeometry {
        if let problem { throw PanTraceError(.invalidValue(problem)) }
        return self
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

extension ScreenGeometry: Codable {
    private enum CodingKeys: String, CodingKey { case width, height, scale }

    /// Decodes and checks a screen: a JSON header or wire message with a zero, negative or
    /// huge screen is refused here, where it enters.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height),
            scale: try c.decode(Double.self, forKey: .scale))
        if let problem {
            throw DecodingError.dataCorruptedError(forKey: .width, in: c, debugDescription: problem)
        }
    }
}
