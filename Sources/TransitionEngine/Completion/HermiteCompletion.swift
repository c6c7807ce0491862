/// T10: a velocity-matched cubic Hermite with a fixed end time (docs/MODEL.md §4.10).
///
/// With `τ = t/T` and `m0 = v_rel·T`, `u(τ) = m0(τ³ − 2τ² + τ) + (3τ² − 2τ³)`, so `u(0) = 0`,
/// `u'(0) = v_rel`, `u(1) = 1`, `u'(1) = 0`. `T = clamp(T_base·|Δ|, T_min, T_max)`, then shrunk so
/// that `m0 ≤ 3` (monotone, no overshoot). A release moving away from the target
/// (`v_rel < 0`), or with `Δ = 0`, uses the ``fallback`` spring (T4) instead.
public struct HermiteCompletion: Sendable, Hashable, Codable {
    /// `T_base`, s per unit of `|Δ|` (suggested: the transition duration `D`).
    public var baseDuration: Double
    /// `T_min`, 0.12 s.
    public var minimumDuration: Double
    /// `T_max` (suggested: `D`).
    public var maximumDuration: Double
    /// The T4 model used when `v_rel < 0`.
    public var fallback: SpringCompletion

    /// Creates the model.
    public init(baseDuration: Double, minimumDuration: Double = 0.12, maximumDuration: Double, fallback: SpringCompletion) {
        precondition(baseDuration > 0 && minimumDuration > 0 && maximumDuration >= minimumDuration, "invalid Hermite durations")
        self.baseDuration = baseDuration
        self.minimumDuration = minimumDuration
        self.maximumDuration = maximumDuration
        self.fallback = fallback
    }

    /// The suggested configuration for a transition of duration `D`: `T_base = T_max = D`.
    public init(transitionDuration: Double) {
        self.init(
            baseDuration: transitionDuration,
            minimumDuration: min(0.12, transitionDuration),
            maximumDuration: transitionDuration,
            fallback: SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1))
        )
    }
}
