/// The per-replay metrics of docs/MODEL.md §7.
public struct TransitionMetrics: Sendable, Hashable, Codable {
    /// The completion time at one display frame rate.
    public struct FrameRateSample: Sendable, Hashable, Codable {
        /// The display frame rate, Hz.
        public var frameRate: Double
        /// The completion time at that rate, s.
        public var completionTime: Double
    }

    /// The frame rates the invariance check samples (docs/MODEL.md §7.7).
    public static let checkedFrameRates: [Double] = [60, 120, 240]

    /// Finish or cancel.
    public var outcome: Decision.Outcome
    /// The decision's one-line reason.
    public var reason: String
    /// `|statistic − threshold|` in the statistic's unit.
    public var margin: Double
    /// True when the margin is in pt/s (a velocity rule decided), false for progress.
    public var isMarginInPointsPerSecond: Bool
    /// The completion time `T`, s.
    public var completionTime: Double
    /// The largest excursion past the target, in progress units.
    public var overshoot: Double
    /// The same in points (`× L`).
    public var overshootPoints: Double
    /// The last time the rendered position is more than `epsilon` points from the target, s.
    public var settleTime: Double
    /// Rendered velocity just after release minus the finger's axis velocity, pt/s.
    public var velocityDiscontinuity: Double
    /// True when ±10 % velocity noise changes the decision.
    public var isFlipProne: Bool
    /// True when the completion time differs across ``checkedFrameRates`` (the stepper).
    public var isFrameRateDependent: Bool
    /// The completion time at each of ``checkedFrameRates``.
    public var completionTimes: [FrameRateSample]

    /// Computes the metrics of one release under `preset`.
    ///
    /// - Parameters:
    ///   - release: the release state.
    ///   - preset: the preset (policy, completion, rendered mapping).
    ///   - displayFrameRate: the replay's frame rate (for the stepper's own trajectory).
    ///   - epsilon: the settle tolerance in points.
    public init(release: ReleaseState, preset: Preset, displayFrameRate: Double = 60, epsilon: Double = 0.5) {
        self.init(
            release: release,
            policy: preset.policy,
            completion: preset.completion,
            scrub: preset.scrub,
            curve: preset.transitionCurve,
            displayFrameRate: displayFrameRate,
            epsilon: epsilon
        )
    }

    /// Computes the metrics from the parts of a preset.
    public init(
        release: ReleaseState,
        policy: DecisionPolicy,
        completion: CompletionModel,
        scrub: ScrubMapping = .linear,
        curve: TimingCurve = .linear,
        displayFrameRate: Double = 60,
        epsilon: Double = 0.5
    ) {
        let decision = policy.decide(release)
        let trajectory = completion.trajectory(release: release, decision: decision, displayFrameRate: displayFrameRate)
        let pointsPerProgress = release.distance / release.gain

        outcome = decision.outcome
        reason = decision.reason
        margin = decision.margin
        isMarginInPointsPerSecond = decision.isVelocityBased
        completionTime = trajectory.duration
        overshoot = trajectory.overshoot
        overshootPoints = trajectory.overshoot * pointsPerProgress
        settleTime = Self.settleTime(trajectory, scrub: scrub, curve: curve, tolerance: epsilon / pointsPerProgress)
        velocityDiscontinuity = Self.velocityDiscontinuity(release: release, trajectory: trajectory, scrub: scrub, curve: curve)

        let slower = policy.decide(release.withVelocity(scaledBy: 0.9)).outcome
        let faster = policy.decide(release.withVelocity(scaledBy: 1.1)).outcome
        isFlipProne = slower != decision.outcome || faster != decision.outcome

        completionTimes = Self.checkedFrameRates.map { rate in
            FrameRateSample(
                frameRate: rate,
                completionTime: completion.trajectory(release: release, decision: decision, displayFrameRate: rate).duration
            )
        }
        let times = completionTimes.map(\.completionTime)
        isFrameRateDependent = (times.max()! - times.min()!) > 1e-9
    }

    /// `L · R'(p0) · p'(0⁺) − v`, in pt/s (docs/MODEL.md §7.5).
    public static func velocityDiscontinuity(release: ReleaseState, trajectory: CompletionTrajectory, scrub: ScrubMapping, curve: TimingCurve)
        -> Double
    {
        let renderedSlope = scrub.slope(at: release.startProgress, curve: curve)
        let renderedVelocity = release.distance / release.gain * renderedSlope * trajectory.velocity(at: 0)
        return renderedVelocity - release.axisVelocity
    }

    /// The last time `|R(p) − R(q)|` exceeds `tolerance` (progress units), scanning back from
    /// `T` in 1 ms steps; 0 when it never does.
    static func settleTime(_ trajectory: CompletionTrajectory, scrub: ScrubMapping, curve: TimingCurve, tolerance: Double) -> Double {
        let target = scrub.rendered(trajectory.target, curve: curve)
        var time = trajectory.duration
        while time > 0 {
            let rendered = scrub.rendered(trajectory.progress(at: time), curve: curve)
            if abs(rendered - target) > tolerance {
                return min(time + 0.001, trajectory.duration)
            }
            time -= 0.001
        }
        return 0
    }
}
