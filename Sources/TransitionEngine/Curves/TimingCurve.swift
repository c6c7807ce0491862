/// A named timing curve: UIKit's `UIView.AnimationCurve` values, Core Animation's
/// `default`, Material's "standard", or any custom cubic Bézier.
///
/// Control points from Apple's `CAMediaTimingFunctionName` pages (docs/MODEL.md §5.1); the
/// mapping of `UIView.AnimationCurve` onto them is assumed, not documented (§4.11 U4).
public enum TimingCurve: Sendable, Hashable, Codable {
    /// (0, 0)–(1, 1): the identity.
    case linear
    /// `easeIn` (0.42, 0)–(1, 1).
    case easeIn
    /// `easeOut` (0, 0)–(0.58, 1).
    case easeOut
    /// `easeInEaseOut` (0.42, 0)–(0.58, 1), UIKit's default `completionCurve`.
    case easeInOut
    /// Core Animation `default` (0.25, 0.1)–(0.25, 1).
    case systemDefault
    /// Material "standard" (0.4, 0)–(0.2, 1), Hero's default.
    case materialStandard
    /// Any other timing function.
    case custom(CubicBezier)

    /// The named curves, in catalog order.
    public static let named: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInOut, .systemDefault, .materialStandard]

    /// The curve's name as used in preset parameters (`"easeInOut"`); `"custom"` for custom curves.
    public var name: String {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInOut: "easeInOut"
        case .systemDefault: "default"
        case .materialStandard: "materialStandard"
        case .custom: "custom"
        }
    }

    /// The named curve called `name`, or nil.
    public init?(name: String) {
        guard let curve = Self.named.first(where: { $0.name == name }) else { return nil }
        self = curve
    }

    /// The curve's control points.
    public var bezier: CubicBezier {
        switch self {
        case .linear: CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)
        case .easeIn: CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
        case .easeOut: CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
        case .easeInOut: CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        case .systemDefault: CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        case .materialStandard: CubicBezier(x1: 0.4, y1: 0, x2: 0.2, y2: 1)
        case .custom(let bezier): bezier
        }
    }

    /// The eased value `C(u)` for `u` clamped to [0, 1].
    public func value(at u: Double) -> Double {
        if case .linear = self { return min(max(u, 0), 1) }
        return bezier.value(at: u)
    }

    /// The analytic slope `C'(u)`.
    public func slope(at u: Double) -> Double {
        if case .linear = self { return 1 }
        return bezier.slope(at: u)
    }

    /// `C'(0)`, e.g. 1.724… for easeOut (docs/MODEL.md §5.1).
    public var startSlope: Double { bezier.startSlope }

    /// `C'(1)`, e.g. 1.724… for easeIn (docs/MODEL.md §5.1).
    public var endSlope: Double { bezier.endSlope }
}
