/// A Core Animation timing function: a cubic Bézier from (0, 0) to (1, 1).
///
/// Evaluation follows docs/MODEL.md §5.2: solve `Bx(t) = u` for `t` by Newton's
/// method with a bisection fallback, then return `By(t)`. Slopes are analytic
/// (`By'(t) / Bx'(t)`), never finite differences.
public struct CubicBezier: Sendable, Hashable, Codable {
    /// The x coordinate of the first control point, in [0, 1].
    public let x1: Double
    /// The y coordinate of the first control point.
    public let y1: Double
    /// The x coordinate of the second control point, in [0, 1].
    public let x2: Double
    /// The y coordinate of the second control point.
    public let y2: Double

    /// Creates a timing function from its two control points.
    ///
    /// - Precondition: `x1` and `x2` lie in [0, 1], so that x is monotone in t.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "Bézier control x must lie in [0, 1]")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// True when both control points lie on the diagonal, so the curve is the identity.
    public var isLinear: Bool { x1 == y1 && x2 == y2 }

    // Power-basis coefficients: B(t) = ((a t + b) t + c) t with c = 3 P1, b = 3 (P2 − P1) − c,
    // a = 1 − c − b (P0 = 0, P3 = 1).
    private var cx: Double { 3 * x1 }
    private var bx: Double { 3 * (x2 - x1) - cx }
    private var ax: Double { 1 - cx - bx }
    private var cy: Double { 3 * y1 }
    private var by: Double { 3 * (y2 - y1) - cy }
    private var ay: Double { 1 - cy - by }

    private func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func dx(at t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    private func dy(at t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }

    /// Solves `Bx(t) = u` for the curve parameter `t` (Newton, then bisection).
    func parameter(for u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        var t = u
        for _ in 0..<8 {
            let error = x(at: t) - u
            if abs(error) < 1e-14 { return t }
            let slope = dx(at: t)
            if abs(slope) < 1e-9 { break }
            let next = t - error / slope
            if next < 0 || next > 1 { break }
            t = next
        }
        var low = 0.0
        var high = 1.0
        t = u
        for _ in 0..<64 {
            let value = x(at: t)
            if abs(value - u) < 1e-14 { return t }
            if value < u { low = t } else { high = t }
            t = (low + high) / 2
            if high - low < 1e-15 { break }
        }
        return t
    }

    /// The eased value `C(u)` for input progress `u` (clamped to [0, 1]).
    public func value(at u: Double) -> Double {
        if isLinear { return min(max(u, 0), 1) }
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        return y(at: parameter(for: u))
    }

    /// The slope `C'(u) = dy/dx` at input progress `u` (clamped to [0, 1]).
    ///
    /// Where `Bx'(t)` vanishes (an end control point coinciding with its end point) the
    /// limit from docs/MODEL.md §5.2 is used: ``startSlope`` or ``endSlope``.
    public func slope(at u: Double) -> Double {
        if isLinear { return 1 }
        let t = parameter(for: min(max(u, 0), 1))
        let denominator = dx(at: t)
        if abs(denominator) < 1e-12 {
            return t < 0.5 ? startSlope : endSlope
        }
        return dy(at: t) / denominator
    }

    /// `C'(0)`: `P1y / P1x`, or `P2y / P2x` when P1 coincides with (0, 0) (docs/MODEL.md §5.2).
    public var startSlope: Double {
        if x1 != 0 || y1 != 0 { return y1 / x1 }
        if x2 != 0 || y2 != 0 { return y2 / x2 }
        return 1
    }

    /// `C'(1)`: `(1 − P2y) / (1 − P2x)`, or the same with P1 when P2 coincides with (1, 1) (docs/MODEL.md §5.2).
    public var endSlope: Double {
        if x2 != 1 || y2 != 1 { return (1 - y2) / (1 - x2) }
        if x1 != 1 || y1 != 1 { return (1 - y1) / (1 - x1) }
        return 1
    }
}
