/// How a transition completes after release: one of the models of
/// docs/MODEL.md §4 that the presets use.
public enum CompletionModel: Sendable, Hashable, Codable {
    /// T1a / T1b, UIKit percent-driven.
    case percentDriven(PercentDrivenCompletion)
    /// A fixed time along a curve (`zoom-custom`).
    case fixedDuration(FixedDurationCompletion)
    /// The `drawer` seed's display-link stepper (finish) with percent-driven cancels.
    case displayLinkStepper(DisplayLinkStepper)
    /// T4, velocity-matched spring.
    case spring(SpringCompletion)
    /// T9, Flutter fling.
    case flutterFling(FlingCompletion)
    /// T10, velocity-matched cubic.
    case hermite(HermiteCompletion)

    /// A short identifier: `"T1a"`, `"T1b"`, `"fixed"`, `"stepper"`, `"T4"`, `"T9"`, `"T10"`.
    public var identifier: String {
        switch self {
        case .percentDriven(let model):
            if case .resumeTimeline = model.shape { return "T1a" }
            return "T1b"
        case .fixedDuration: return "fixed"
        case .displayLinkStepper: return "stepper"
        case .spring: return "T4"
        case .flutterFling: return "T9"
        case .hermite: return "T10"
        }
    }

    /// True for the display-link stepper, whose finish depends on the display frame rate.
    public var isFrameRateDependent: Bool {
        if case .displayLinkStepper = self { return true }
        return false
    }

    /// Plans the motion after a release. Never allocates.
    ///
    /// - Parameters:
    ///   - release: the release (its progress and distance `L` are used).
    ///   - decision: the decision (target, and the gated velocities).
    ///   - displayFrameRate: the display's frame rate in Hz; only the stepper uses it.
    public func trajectory(release: ReleaseState, decision: Decision, displayFrameRate: Double = 60) -> CompletionTrajectory {
        // The completion continues from what the transition shows (UIKit's `percentComplete`).
        let p0 = release.startProgress
        let q = decision.target
        let delta = q - p0
        switch self {
        case .percentDriven(let model):
            return Self.percentDriven(model, p0: p0, q: q)
        case .fixedDuration(let model):
            return CompletionTrajectory(kind: .fixedDuration, start: p0, target: q, duration: model.duration, shape: .curve(model.curve))
        case .displayLinkStepper(let model):
            guard q == 1 else { return Self.percentDriven(model.cancel, p0: p0, q: q) }
            precondition(displayFrameRate > 0, "display frame rate must be positive")
            // The stepper counts from the release callback's progress (the drawer repository
            // computes it before its switch); on the snap frame `finish()` jumps to the end, or
            // (``DisplayLinkStepper/finishesPercentDriven``) completes the rest percent-driven
            // from the last value given to `update` (docs/MODEL.md §4.4).
            let base = release.progress
            let frames = model.snapFrame(from: base)
            let last = frames > 1 ? base + Double(frames - 1) * model.rate : p0
            let tail = model.finishesPercentDriven ? model.cancel.completionTime(from: last, to: 1) : 0
            return CompletionTrajectory(
                kind: .displayLinkStepper,
                start: p0,
                target: q,
                duration: Double(frames) / displayFrameRate + tail,
                shape: .steps(rate: model.rate, frameRate: displayFrameRate, snapFrame: frames, base: base, last: last, tail: tail)
            )
        case .spring(let model):
            return Self.spring(
                model, p0: p0, q: q, progressVelocity: decision.progressVelocity, axisVelocity: decision.axisVelocity, distance: release.distance)
        case .flutterFling(let model):
            if decision.isVelocityBased {
                let speed = abs(decision.axisVelocity) * model.velocityScale
                let springTarget = q == 1 ? 1 + model.tolerance : -model.tolerance
                let velocity = springTarget > p0 ? speed : -speed
                let oscillator = model.spring.oscillator(displacement: p0 - springTarget, velocity: velocity)
                let arrival = Self.arrivalTime(oscillator, displacement: q - springTarget)
                return CompletionTrajectory(
                    kind: .flutterFling, start: p0, target: q, duration: arrival,
                    shape: .spring(oscillator, springTarget: springTarget, clampsToUnit: true))
            }
            return CompletionTrajectory(kind: .flutterLinear, start: p0, target: q, duration: model.movementDuration * abs(delta), shape: .linear)
        case .hermite(let model):
            let relative = delta == 0 ? -1 : decision.progressVelocity / delta
            guard relative >= 0 else {
                return Self.spring(
                    model.fallback, p0: p0, q: q, progressVelocity: decision.progressVelocity, axisVelocity: decision.axisVelocity,
                    distance: release.distance)
            }
            var duration = min(max(model.baseDuration * abs(delta), model.minimumDuration), model.maximumDuration)
            if relative * duration > 3 { duration = 3 / relative }
            return CompletionTrajectory(kind: .hermite, start: p0, target: q, duration: duration, shape: .hermite(m0: relative * duration))
        }
    }

    private static func percentDriven(_ model: PercentDrivenCompletion, p0: Double, q: Double) -> CompletionTrajectory {
        let duration = model.completionTime(from: p0, to: q)
        switch model.shape {
        case .resumeTimeline:
            return CompletionTrajectory(kind: .percentDrivenTimeline, start: p0, target: q, duration: duration, shape: .linear)
        case .completionCurve(let curve):
            return CompletionTrajectory(kind: .percentDrivenCurve, start: p0, target: q, duration: duration, shape: .curve(curve))
        }
    }

    private static func spring(_ model: SpringCompletion, p0: Double, q: Double, progressVelocity: Double, axisVelocity: Double, distance: Double)
        -> CompletionTrajectory
    {
        let spring = model.effectiveSpring(axisVelocity: axisVelocity)
        let velocity = model.initialProgressVelocity(progressVelocity: progressVelocity, delta: q - p0)
        let oscillator = spring.oscillator(displacement: p0 - q, velocity: velocity)
        // A UIView spring animation lasts its duration (docs/MODEL.md §4.7); otherwise the spring
        // runs until it settles to epsilon points.
        var duration = model.totalDuration ?? oscillator.settleTime(epsilon: model.epsilon / distance)
        if model.overshootClamping, let crossing = oscillator.firstZeroCrossing(), crossing < duration {
            duration = crossing
        }
        return CompletionTrajectory(
            kind: .spring, start: p0, target: q, duration: duration, shape: .spring(oscillator, springTarget: q, clampsToUnit: false))
    }

    /// The first time the oscillator's displacement reaches `displacement` (scan at 1 ms,
    /// then bisection); falls back to the settle time. Runs once per release.
    private static func arrivalTime(_ oscillator: DampedOscillator, displacement target: Double) -> Double {
        let limit = max(oscillator.settleTime(epsilon: 1e-6), 1e-3)
        let startSign = oscillator.initialDisplacement - target
        if startSign == 0 { return 0 }
        var previous = 0.0
        var time = 0.001
        while time <= limit + 0.001 {
            if (oscillator.displacement(at: time) - target) * startSign <= 0 {
                var low = previous
                var high = time
                for _ in 0..<60 {
                    let mid = (low + high) / 2
                    if (oscillator.displacement(at: mid) - target) * startSign <= 0 { high = mid } else { low = mid }
                }
                return high
            }
            previous = time
            time += 0.001
        }
        return limit
    }
}
