/// T4: a velocity-matched spring in UIKit's relative units (docs/MODEL.md §4.8; Apple, UISpringTimingParameters.initialVelocity).
///
/// With `Δ = q − p0`, the unit displacement `u = (p − p0)/Δ` starts at 0 with
/// `u'(0) = v_rel = clamp(v_p/Δ, ±35)` (the Apple sample's clip; `v_rel = 0` when `Δ = 0`, as
/// the `UISpringTimingParameters` recipe says for a zero distance) and follows the closed
/// forms of docs/MODEL.md §4.6. It is run in progress units (`y0 = p0 − q`, `y0' = Δ·v_rel`), which is the
/// same motion. The completion time is the settle time to ``epsilon`` points
/// (`ε/(L·|Δ|)` in u, i.e. `ε/L` in progress).
public struct SpringCompletion: Sendable, Hashable, Codable {
    /// Whether the spring starts with the finger's velocity.
    public enum InitialVelocity: String, Sendable, Hashable, Codable, CaseIterable {
        /// `u'(0) = v_rel` (velocity-continuous).
        case matched
        /// `u'(0) = 0` (`UIView.animate(… initialSpringVelocity: 0 …)`).
        case zero
    }

    /// WWDC18 "reward momentum with overshoot": a different damping ratio for fast releases.
    public struct MomentumDamping: Sendable, Hashable, Codable {
        /// The axis speed at or above which ``dampingRatio`` is used, pt/s.
        public var speed: Double
        /// The damping ratio for fast releases (0.8 in the talk's Now Playing example).
        public var dampingRatio: Double

        /// Creates the rule.
        public init(speed: Double, dampingRatio: Double) {
            self.speed = speed
            self.dampingRatio = dampingRatio
        }
    }

    /// The spring.
    public var spring: Spring
    /// An optional damping override for fast releases.
    public var momentum: MomentumDamping?
    /// Matched or zero initial velocity.
    public var initialVelocity: InitialVelocity
    /// The clip on `|v_rel|` (35 in Apple's PhotoTransitioning sample); nil for none.
    public var relativeVelocityLimit: Double?
    /// The settle tolerance in points.
    public var epsilon: Double
    /// Stop at the first arrival at the target instead of overshooting.
    public var overshootClamping: Bool
    /// When false, damping ratios above 1 are reduced to 1.
    public var allowsOverdamping: Bool
    /// A `UIView` spring animation's duration, s, when the completion lasts exactly that
    /// (Apple: "the total duration of the animations", docs/MODEL.md §4.7); nil to run until
    /// the spring settles to ``epsilon``.
    public var totalDuration: Double?

    /// Creates the model. Defaults follow docs/MODEL.md §4.8: matched velocity, clip 35, ε = 0.5 pt.
    public init(
        spring: Spring,
        momentum: MomentumDamping? = nil,
        initialVelocity: InitialVelocity = .matched,
        relativeVelocityLimit: Double? = 35,
        epsilon: Double = 0.5,
        overshootClamping: Bool = false,
        allowsOverdamping: Bool = true,
        totalDuration: Double? = nil
    ) {
        precondition(epsilon > 0, "epsilon must be positive")
        precondition(totalDuration.map { $0 > 0 } ?? true, "a total duration must be positive")
        self.totalDuration = totalDuration
        self.spring = spring
        self.momentum = momentum
        self.initialVelocity = initialVelocity
        self.relativeVelocityLimit = relativeVelocityLimit
        self.epsilon = epsilon
        self.overshootClamping = overshootClamping
        self.allowsOverdamping = allowsOverdamping
    }

    /// The spring used for a release with axis velocity `axisVelocity` (pt/s).
    public func effectiveSpring(axisVelocity: Double) -> Spring {
        var result = spring
        if let momentum, abs(axisVelocity) >= momentum.speed {
            result = result.withDampingRatio(momentum.dampingRatio)
        }
        if !allowsOverdamping && result.dampingRatio > 1 {
            result = result.withDampingRatio(1)
        }
        return result
    }

    /// The initial progress velocity `Δ·v_rel` after the relative clip.
    public func initialProgressVelocity(progressVelocity vp: Double, delta: Double) -> Double {
        guard initialVelocity == .matched, delta != 0 else { return 0 }
        var relative = vp / delta
        if let limit = relativeVelocityLimit {
            relative = min(max(relative, -limit), limit)
        }
        return relative * delta
    }
}
