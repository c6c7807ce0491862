// exp, sin, cos and log are not in the Swift standard library on Linux; Glibc is imported
// for these libm math functions only (the engine is otherwise stdlib-only).
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The closed-form motion of a damped spring released from a displacement with a velocity.
///
/// `y(t)` is the displacement from the target. Formulas are docs/MODEL.md §4.6:
/// under-damped `e^{−βt}(y0 cos ωd t + ((y0' + β y0)/ωd) sin ωd t)`, critical
/// `e^{−βt}(y0 + (y0' + β y0) t)`, over-damped `A e^{r+ t} + B e^{r− t}`. Velocities are the
/// analytic derivatives. Everything is precomputed at release so evaluation is a few
/// multiplications, an `exp` and (under-damped) a `sin` and `cos`.
public struct DampedOscillator: Sendable, Hashable {
    /// The damping regime.
    public enum Regime: String, Sendable, Hashable, Codable {
        /// ζ < 1: oscillates.
        case underdamped
        /// ζ = 1 (within 1e-9).
        case critical
        /// ζ > 1: no oscillation, slower return.
        case overdamped
    }

    /// The regime, from the damping ratio.
    public let regime: Regime
    /// The initial displacement from the target.
    public let initialDisplacement: Double
    /// The initial velocity.
    public let initialVelocity: Double
    /// β = c / 2m, the decay rate of the envelope.
    public let decay: Double
    // Under-damped: ωd and c2; critical: c2; over-damped: r+, r−, A, B.
    private let frequency: Double
    private let c1: Double
    private let c2: Double
    private let rootPlus: Double
    private let rootMinus: Double

    /// Solves the spring for the given initial conditions.
    public init(spring: Spring, displacement y0: Double, velocity v0: Double) {
        let omega0 = spring.naturalFrequency
        let zeta = spring.dampingRatio
        let beta = spring.damping / (2 * spring.mass)
        initialDisplacement = y0
        initialVelocity = v0
        decay = beta
        if abs(zeta - 1) <= 1e-9 {
            regime = .critical
            frequency = 0
            c1 = y0
            c2 = v0 + beta * y0
            rootPlus = -beta
            rootMinus = -beta
        } else if zeta < 1 {
            regime = .underdamped
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            frequency = omegaD
            c1 = y0
            c2 = (v0 + beta * y0) / omegaD
            rootPlus = -beta
            rootMinus = -beta
        } else {
            regime = .overdamped
            let root = (zeta * zeta - 1).squareRoot()
            let plus = -omega0 * (zeta - root)
            let minus = -omega0 * (zeta + root)
            rootPlus = plus
            rootMinus = minus
            frequency = 0
            // A = (y0' − r− y0) / (r+ − r−), B = y0 − A; stored as c2 = A, c1 = B.
            let a = (v0 - minus * y0) / (plus - minus)
            c2 = a
            c1 = y0 - a
        }
    }

    /// The displacement from the target at time `t` ≥ 0.
    public func displacement(at t: Double) -> Double {
        switch regime {
        case .underdamped:
            let angle = frequency * t
            return exp(-decay * t) * (c1 * cos(angle) + c2 * sin(angle))
        case .critical:
            return exp(-decay * t) * (c1 + c2 * t)
        case .overdamped:
            return c2 * exp(rootPlus * t) + c1 * exp(rootMinus * t)
        }
    }

    /// The analytic velocity `y'(t)`.
    public func velocity(at t: Double) -> Double {
        switch regime {
        case .underdamped:
            let angle = frequency * t
            let cosine = cos(angle)
            let sine = sin(angle)
            let envelope = exp(-decay * t)
            return envelope * ((c2 * frequency - decay * c1) * cosine - (c1 * frequency + decay * c2) * sine)
        case .critical:
            return exp(-decay * t) * (c2 - decay * (c1 + c2 * t))
        case .overdamped:
            return c2 * rootPlus * exp(rootPlus * t) + c1 * rootMinus * exp(rootMinus * t)
        }
    }

    /// An upper estimate of the time after which `|y| ≤ epsilon` for good.
    ///
    /// Under-damped and critical use ScrollMechanics' estimates (docs/MODEL.md §4.6):
    /// `ln((|c1| + |c2|)/ε)/β` and `max(ln(2|c1|/ε)/β, 2/β · ln(4|c2|/(e β ε)))`.
    /// Over-damped bounds each exponential by ε/2: `max_i ln(2|X_i|/ε)/|r_i|`.
    public func settleTime(epsilon: Double) -> Double {
        precondition(epsilon > 0, "epsilon must be positive")
        if c1 == 0 && c2 == 0 { return 0 }
        let estimate: Double
        switch regime {
        case .underdamped:
            estimate = log((abs(c1) + abs(c2)) / epsilon) / decay
        case .critical:
            let first = c1 == 0 ? 0 : log(2 * abs(c1) / epsilon) / decay
            let second = c2 == 0 ? 0 : 2 / decay * log(4 * abs(c2) / (exp(1) * decay * epsilon))
            estimate = max(first, second)
        case .overdamped:
            let first = c2 == 0 ? 0 : log(2 * abs(c2) / epsilon) / abs(rootPlus)
            let second = c1 == 0 ? 0 : log(2 * abs(c1) / epsilon) / abs(rootMinus)
            estimate = max(first, second)
        }
        return max(0, estimate)
    }

    /// The first time `t > 0` at which `y(t) = 0` (the target is reached), or nil if never.
    public func firstZeroCrossing() -> Double? {
        switch regime {
        case .underdamped:
            // y = 0 ⇔ c1 cos θ + c2 sin θ = 0 ⇔ θ = atan2(−c1, c2) mod π.
            if c1 == 0 { return c2 == 0 ? nil : Double.pi / frequency }
            var angle = atan2(-c1, c2)
            while angle <= 0 { angle += Double.pi }
            while angle > Double.pi { angle -= Double.pi }
            return angle / frequency
        case .critical:
            guard c2 != 0 else { return nil }
            let t = -c1 / c2
            return t > 0 ? t : nil
        case .overdamped:
            // A e^{r+ t} = −B e^{r− t} ⇔ t = ln(−B/A) / (r+ − r−).
            guard c2 != 0, -c1 / c2 > 0 else { return nil }
            let t = log(-c1 / c2) / (rootPlus - rootMinus)
            return t > 0 ? t : nil
        }
    }

    /// The times `t > 0` at which `y'(t) = 0`, earliest first (at most `limit`).
    public func extremumTimes(limit: Int = 4) -> [Double] {
        switch regime {
        case .underdamped:
            // y' = 0 ⇔ (c2 ωd − β c1) cos θ = (c1 ωd + β c2) sin θ.
            let p = c2 * frequency - decay * c1
            let q = c1 * frequency + decay * c2
            if p == 0 && q == 0 { return [] }
            var angle = atan2(p, q)
            while angle <= 0 { angle += Double.pi }
            return (0..<limit).map { (angle + Double($0) * Double.pi) / frequency }
        case .critical:
            // c2 − β(c1 + c2 t) = 0.
            guard c2 != 0 else { return [] }
            let t = (c2 - decay * c1) / (decay * c2)
            return t > 0 ? [t] : []
        case .overdamped:
            // A r+ e^{r+ t} = −B r− e^{r− t}.
            guard c2 != 0 else { return [] }
            let ratio = -(c1 * rootMinus) / (c2 * rootPlus)
            guard ratio > 0 else { return [] }
            let t = log(ratio) / (rootPlus - rootMinus)
            return t > 0 ? [t] : []
        }
    }
}
