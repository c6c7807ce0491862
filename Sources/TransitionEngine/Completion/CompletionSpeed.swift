/// UIKit's `completionSpeed`: a constant, or a rule of the release progress `p0`.
///
/// The completion takes `|Δ|·D/s` (docs/MODEL.md §4.1; Apple, UIPercentDrivenInteractiveTransition.completionSpeed). UIKit requires
/// `s > 0`; a rule that yields less than ``minimum`` is raised to it.
public enum CompletionSpeed: Sendable, Hashable, Codable {
    /// A fixed speed (UIKit's default is 1).
    case constant(Double)
    /// `s = 1 − percentComplete`, the `swipe-dismiss` article's rule (docs/MODEL.md §6.5): a finish always
    /// takes the full `D`, a cancel takes `p0·D/(1 − p0)`.
    case oneMinusProgress
    /// `s = intercept + slope · p0`.
    case linear(intercept: Double, slope: Double)

    /// The smallest speed used, so that times stay finite.
    public static let minimum = 1e-3

    /// `s` for a release at `p0`, at least ``minimum``.
    public func value(atProgress p0: Double) -> Double {
        let raw: Double
        switch self {
        case .constant(let speed): raw = speed
        case .oneMinusProgress: raw = 1 - p0
        case .linear(let intercept, let slope): raw = intercept + slope * p0
        }
        return max(raw, Self.minimum)
    }

    /// A short description for reasons and catalogs.
    public var summary: String {
        switch self {
        case .constant(let speed): "\(Decision.format(speed))"
        case .oneMinusProgress: "1 − p0"
        case .linear(let intercept, let slope): "\(Decision.format(intercept)) + \(Decision.format(slope))·p0"
        }
    }
}
