/// The rubber-band function used to mimic `UIScrollView` past its bounds.
///
/// `b(x) = (1 − 1/(x·c/d + 1))·d`, c = 0.55 (docs/MODEL.md §2.2; Apple documents no
/// formula or constant, docs/MODEL.md §4.11 U6, so `coefficient` is a parameter).
/// `b(0) = 0`, `b'(0) = c`, and `b → d` as x → ∞.
public struct RubberBand: Sendable, Hashable, Codable {
    /// The coefficient `c`, 0.55 by default.
    public var coefficient: Double
    /// The dimension `d` in the same unit as the input.
    public var dimension: Double

    /// Creates a rubber band.
    public init(coefficient: Double = 0.55, dimension: Double) {
        precondition(coefficient > 0 && dimension > 0, "rubber band needs a positive coefficient and dimension")
        self.coefficient = coefficient
        self.dimension = dimension
    }

    /// The damped offset for an overshoot `x` (sign-preserving).
    public func offset(for x: Double) -> Double {
        let magnitude = abs(x)
        let damped = (1 - 1 / (magnitude * coefficient / dimension + 1)) * dimension
        return x < 0 ? -damped : damped
    }

    /// The derivative `b'(x) = c / (x·c/d + 1)²`.
    public func slope(at x: Double) -> Double {
        let denominator = abs(x) * coefficient / dimension + 1
        return coefficient / (denominator * denominator)
    }
}
