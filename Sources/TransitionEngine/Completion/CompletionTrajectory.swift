/// The planned motion after a release: `p(t)` for `t ≥ 0` since release, analytic except
/// for the display-link stepper (whose frame rate is fixed when it is planned).
///
/// Evaluation is pure and allocation-free. At and after ``duration`` the progress is the
/// target exactly.
public struct CompletionTrajectory: Sendable, Hashable {
    /// Which model produced the trajectory.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// T1a.
        case percentDrivenTimeline
        /// T1b.
        case percentDrivenCurve
        /// Fixed duration along a curve.
        case fixedDuration
        /// The display-link stepper.
        case displayLinkStepper
        /// T4.
        case spring
        /// T9 after a fling.
        case flutterFling
        /// T9 without a fling: linear `forward()`/`reverse()`.
        case flutterLinear
        /// T10.
        case hermite
    }

    enum Shape: Sendable, Hashable {
        case linear
        case curve(TimingCurve)
        /// `base + k·rate` on display frame `k` (`start` before the first), then from frame
        /// `snapFrame` a linear finish from `last` to the target over `tail` seconds.
        case steps(rate: Double, frameRate: Double, snapFrame: Int, base: Double, last: Double, tail: Double)
        case spring(DampedOscillator, springTarget: Double, clampsToUnit: Bool)
        case hermite(m0: Double)
    }

    /// The model.
    public let kind: Kind
    /// `p0`.
    public let startProgress: Double
    /// `q`.
    public let target: Double
    /// The completion time `T`, s: the planned time, at most ``maximumDuration``.
    public let duration: Double
    /// The time the model planned, s, before the ``maximumDuration`` bound.
    public let plannedDuration: Double
    let shape: Shape

    /// The longest a completion lasts, s (docs/MODEL.md §4.12). A plan that would take longer
    /// (a cancel from `p0 = 1` with `s = 1 − p0` takes `D/0.001`) is re-timed to end here
    /// (percent-driven, fixed, Hermite), or ends here on its target (spring, stepper).
    public static let maximumDuration = 10.0

    init(kind: Kind, start: Double, target: Double, duration: Double, shape: Shape) {
        self.kind = kind
        self.startProgress = start
        self.target = target
        self.plannedDuration = max(0, duration)
        self.duration = min(max(0, duration), Self.maximumDuration)
        self.shape = shape
    }

    /// True when the plan was longer than ``maximumDuration`` and was bounded.
    public var isBounded: Bool { plannedDuration > duration }

    /// `Δ = q − p0`.
    @inlinable
    public var delta: Double { target - startProgress }

    /// True when the trajectory depends on the display frame rate (the stepper).
    public var isFrameRateDependent: Bool { kind == .displayLinkStepper }

    /// True once `elapsed ≥ T`.
    @inlinable
    public func isComplete(at elapsed: Double) -> Bool { elapsed >= duration }

    /// Progress `p(t)` at `elapsed` seconds after release.
    public func progress(at elapsed: Double) -> Double {
        if elapsed >= duration { return target }
        if elapsed <= 0 { return startProgress }
        let t = elapsed
        switch shape {
        case .linear:
            return startProgress + delta * (t / duration)
        case .curve(let curve):
            return startProgress + delta * curve.value(at: t / duration)
        case .steps(let rate, let frameRate, let snapFrame, let base, let last, let tail):
            // Display frames arrive at k/f after release; progress holds between them. Until
            // the first, the transition shows what the last `update` left.
            let frames = (t * frameRate + 1e-9).rounded(.down)
            if frames < 1 { return startProgress }
            if frames < Double(snapFrame) { return base + frames * rate }
            guard tail > 0 else { return target }
            let since = t - Double(snapFrame) / frameRate
            return last + (target - last) * min(1, max(0, since / tail))
        case .spring(let oscillator, let springTarget, let clampsToUnit):
            let value = springTarget + oscillator.displacement(at: t)
            return clampsToUnit ? min(max(value, 0), 1) : value
        case .hermite(let m0):
            let tau = t / duration
            let tau2 = tau * tau
            let u = m0 * (tau2 * tau - 2 * tau2 + tau) + (3 * tau2 - 2 * tau2 * tau)
            return startProgress + delta * u
        }
    }

    /// The analytic velocity `p'(t)` in progress per second (0 once complete).
    ///
    /// For the stepper, whose progress is a staircase, this is the average speed
    /// `rate × frameRate`.
    public func velocity(at elapsed: Double) -> Double {
        if elapsed >= duration { return 0 }
        let t = max(0, elapsed)
        switch shape {
        case .linear:
            return delta / duration
        case .curve(let curve):
            return delta * curve.slope(at: t / duration) / duration
        case .steps(let rate, let frameRate, let snapFrame, _, let last, let tail):
            if tail > 0 && t >= Double(snapFrame) / frameRate { return (target - last) / tail }
            return rate * frameRate
        case .spring(let oscillator, _, _):
            return oscillator.velocity(at: t)
        case .hermite(let m0):
            let tau = t / duration
            let slope = m0 * (3 * tau * tau - 4 * tau + 1) + 6 * tau - 6 * tau * tau
            return delta * slope / duration
        }
    }

    /// The largest excursion beyond the target, in progress units (0 for monotone models).
    public var overshoot: Double {
        guard case .spring(let oscillator, _, _) = shape, duration > 0 else { return 0 }
        let direction: Double = delta != 0 ? (delta > 0 ? 1 : -1) : (oscillator.initialVelocity >= 0 ? 1 : -1)
        var largest = 0.0
        for time in oscillator.extremumTimes(limit: 3) where time < duration {
            largest = max(largest, direction * (progress(at: time) - target))
        }
        return largest
    }
}
