/// A damped spring `m y'' + c y' + k y = 0`, described physically or by design parameters.
///
/// The design mapping is the one SwiftUI's `Spring` documents (docs/MODEL.md §4.7): `m = 1`, `k = (2π / response)²`, `c = 4π ζ / response`,
/// `ζ = 1 − bounce`. So `Spring(duration: 0.5, bounce: 0.3)` is `(1, 157.9, 17.6)`.
public struct Spring: Sendable, Hashable, Codable {
    /// The mass `m`.
    public var mass: Double
    /// The stiffness `k`.
    public var stiffness: Double
    /// The damping coefficient `c` (not the ratio).
    public var damping: Double

    /// Creates a spring from physical parameters.
    ///
    /// - Precondition: mass and stiffness are positive and damping is non-negative.
    public init(mass: Double = 1, stiffness: Double, damping: Double) {
        precondition(mass > 0 && stiffness > 0 && damping >= 0, "invalid spring parameters")
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// Creates a spring from design parameters: the period of the undamped oscillation
    /// (`response`, s) and the damping ratio ζ (docs/MODEL.md §4.7).
    public init(response: Double, dampingRatio: Double) {
        precondition(response > 0 && dampingRatio >= 0, "invalid spring design parameters")
        let omega = 2 * Double.pi / response
        self.init(mass: 1, stiffness: omega * omega, damping: 4 * Double.pi * dampingRatio / response)
    }

    /// Creates a spring from the iOS 17 / SwiftUI parameters: `duration` (the response) and
    /// `bounce` (`ζ = 1 − bounce`; negative bounce gives an overdamped spring, a mapping
    /// Apple does not document for bounce < 0).
    public init(duration: Double, bounce: Double) {
        self.init(response: duration, dampingRatio: 1 - bounce)
    }

    /// The design response of a UIKit duration spring (`UIView.animate(withDuration:delay:
    /// usingSpringWithDamping:…)`) as PanTrace reads it (docs/MODEL.md §4.7): the envelope is
    /// 0.1 % of the distance at `duration`, so `ω0 = ln 1000 / (min(ζ, 1) · duration)` and the
    /// response is `2π / ω0`.
    public static func uiKitResponse(duration: Double, dampingRatio: Double) -> Double {
        // e^{−ζ ω0 D} = 10⁻³ ⇒ ω0 = ln(1000) / (ζ D).
        let omega = 6.907755278982137 / (min(dampingRatio, 1) * duration)
        return 2 * Double.pi / omega
    }

    /// The undamped angular frequency ω0 = √(k/m), rad/s.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The damping ratio ζ = c / (2 √(k m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The design response 2π/ω0, s (SwiftUI's `duration`).
    public var response: Double { 2 * Double.pi / naturalFrequency }

    /// SwiftUI's bounce, `1 − ζ`.
    public var bounce: Double { 1 - dampingRatio }

    /// Returns this spring with its damping ratio replaced, keeping mass and stiffness.
    public func withDampingRatio(_ ratio: Double) -> Spring {
        Spring(mass: mass, stiffness: stiffness, damping: 2 * ratio * (stiffness * mass).squareRoot())
    }

    /// The solution for displacement `y0` from the target and velocity `velocity` at t = 0.
    public func oscillator(displacement: Double, velocity: Double) -> DampedOscillator {
        DampedOscillator(spring: self, displacement: displacement, velocity: velocity)
    }
}
