import Testing
import TransitionEngine

struct CompletionModelTests {
    static func release(_ progress: Double, velocity: Double = 0, distance: Double = 400) -> ReleaseState {
        ReleaseState(
            progress: progress,
            velocity: Vector2(x: velocity, y: 0),
            axisVelocity: velocity,
            crossVelocity: 0,
            distance: distance,
            phase: .ended,
            time: 0,
            lastMoveTime: 0
        )
    }

    static func decision(_ outcome: Decision.Outcome, for release: ReleaseState, basis: Decision.Basis = .progress) -> Decision {
        Decision(
            outcome: outcome,
            basis: basis,
            statistic: release.progress,
            threshold: 0.5,
            comparison: .atLeast,
            axisVelocity: release.axisVelocity,
            progressVelocity: release.progressVelocity
        )
    }

    static func plan(
        _ model: CompletionModel, _ outcome: Decision.Outcome, p0: Double, velocity: Double = 0,
        frameRate: Double = 60, basis: Decision.Basis = .progress
    ) -> CompletionTrajectory {
        let release = release(p0, velocity: velocity)
        return model.trajectory(release: release, decision: decision(outcome, for: release, basis: basis), displayFrameRate: frameRate)
    }

    @Test(arguments: [(0.2, 1.0), (0.8, 1.0), (0.8, 0.5), (0.35, 2.0)])
    func percentDrivenFinishTakesRemainingTimesDurationOverSpeed(_ p0: Double, _ speed: Double) {
        let model = CompletionModel.percentDriven(PercentDrivenCompletion(duration: 0.35, speed: .constant(speed)))
        let trajectory = Self.plan(model, .finish, p0: p0)
        #expect(abs(trajectory.duration - (1 - p0) * 0.35 / speed) < 1e-12)
    }

    @Test
    func percentDrivenCancelTakesProgressTimesDurationOverSpeedByDefault() {
        // Worked example of §1.2: D = 0.35, p0 = 0.8 → finish 0.07 s, cancel 0.28 s.
        let model = PercentDrivenCompletion(duration: 0.35)
        #expect(abs(model.completionTime(from: 0.8, to: 1) - 0.07) < 1e-12)
        #expect(abs(model.completionTime(from: 0.8, to: 0) - 0.28) < 1e-12)
        let complement = PercentDrivenCompletion(duration: 0.35, cancelDuration: .complement)
        #expect(abs(complement.completionTime(from: 0.8, to: 0) - 0.07) < 1e-12)
    }

    @Test(arguments: [0.1, 0.3, 0.5, 0.75])
    func oneMinusProgressSpeedFinishesInFullDurationAndCancelsInScaledTime(_ p0: Double) {
        let model = PercentDrivenCompletion(duration: 1.5, speed: .oneMinusProgress)
        #expect(abs(model.completionTime(from: p0, to: 1) - 1.5) < 1e-12)
        #expect(abs(model.completionTime(from: p0, to: 0) - p0 * 1.5 / (1 - p0)) < 1e-12)
    }

    @Test
    func resumedTimelineMovesLinearlyAtSpeedOverDuration() {
        let model = CompletionModel.percentDriven(PercentDrivenCompletion(duration: 0.4, speed: .constant(2)))
        let trajectory = Self.plan(model, .finish, p0: 0.6)
        #expect(abs(trajectory.velocity(at: 0) - 2 / 0.4) < 1e-12)
        #expect(abs(trajectory.progress(at: 0.05) - (0.6 + 0.05 * 5)) < 1e-12)
        #expect(trajectory.progress(at: trajectory.duration) == 1)
    }

    @Test
    func freshEaseInOutSegmentStartsAtRest() {
        let model = CompletionModel.percentDriven(PercentDrivenCompletion(duration: 0.4, shape: .completionCurve(.easeInOut)))
        let trajectory = Self.plan(model, .finish, p0: 0.5, velocity: 900)
        #expect(trajectory.velocity(at: 0) == 0)
        #expect(trajectory.progress(at: trajectory.duration / 2) == 0.75)
    }

    @Test
    func freshEaseOutSegmentStartsAtOnePointSevenTwoFourDeltaOverT() {
        let model = CompletionModel.percentDriven(PercentDrivenCompletion(duration: 0.4, shape: .completionCurve(.easeOut)))
        let trajectory = Self.plan(model, .cancel, p0: 0.5)
        #expect(abs(trajectory.velocity(at: 0) - (-0.5 * (1 / 0.58) / trajectory.duration)) < 1e-9)
    }

    @Test
    func velocityMatchedSpringStartsAtTheFingerVelocity() {
        let model = CompletionModel.spring(SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1)))
        let trajectory = Self.plan(model, .finish, p0: 0.3, velocity: 600)
        #expect(abs(trajectory.velocity(at: 0) - 1.5) < 1e-12)
        #expect(trajectory.progress(at: 0) == 0.3)
        #expect(trajectory.progress(at: trajectory.duration) == 1)
        // Settled to 0.5 pt over L = 400 at T.
        #expect(abs(trajectory.progress(at: trajectory.duration - 1e-9) - 1) * 400 <= 0.5)
    }

    @Test
    func springClipsRelativeVelocityAtThirtyFive() {
        let model = CompletionModel.spring(SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1)))
        // v_p = 8000/400 = 20, Δ = 0.1 ⇒ v_rel = 200, clipped to 35 ⇒ p' = 3.5.
        let trajectory = Self.plan(model, .finish, p0: 0.9, velocity: 8000)
        #expect(abs(trajectory.velocity(at: 0) - 3.5) < 1e-12)
    }

    @Test
    func momentumDampingAppliesAtAndAboveItsSpeed() {
        let model = SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1), momentum: .init(speed: 1200, dampingRatio: 0.8))
        #expect(abs(model.effectiveSpring(axisVelocity: 1199).dampingRatio - 1) < 1e-12)
        #expect(abs(model.effectiveSpring(axisVelocity: -1200).dampingRatio - 0.8) < 1e-12)
    }

    @Test
    func overshootClampingStopsAtTheFirstArrival() {
        let model = CompletionModel.spring(SpringCompletion(spring: Spring(response: 0.5, dampingRatio: 0.4), overshootClamping: true))
        let trajectory = Self.plan(model, .finish, p0: 0.2)
        #expect(trajectory.overshoot == 0)
        for step in 0...200 {
            #expect(trajectory.progress(at: Double(step) * 0.005) <= 1 + 1e-12)
        }
        let free = Self.plan(.spring(SpringCompletion(spring: Spring(response: 0.5, dampingRatio: 0.4))), .finish, p0: 0.2)
        #expect(free.overshoot > 0.1)
    }

    @Test
    func hermiteMatchesVelocityAndEndsAtRestOnTheTarget() {
        let model = CompletionModel.hermite(HermiteCompletion(transitionDuration: 0.4))
        let trajectory = Self.plan(model, .finish, p0: 0.4, velocity: 400)
        #expect(abs(trajectory.velocity(at: 0) - 1) < 1e-12)
        #expect(abs(trajectory.duration - 0.24) < 1e-12)
        #expect(abs(trajectory.progress(at: trajectory.duration * (1 - 1e-12)) - 1) < 1e-9)
        #expect(abs(trajectory.velocity(at: trajectory.duration * (1 - 1e-9))) < 1e-6)
        #expect(trajectory.overshoot == 0)
    }

    @Test
    func hermiteShrinksTheDurationToStayMonotone() {
        // v_rel = (4000/400)/0.5 = 20 /s; T = 0.2 gives m0 = 4 > 3 ⇒ T = 3/20.
        let trajectory = Self.plan(.hermite(HermiteCompletion(transitionDuration: 0.4)), .finish, p0: 0.5, velocity: 4000)
        #expect(abs(trajectory.duration - 0.15) < 1e-12)
        var previous = 0.5
        for step in 1...150 {
            let value = trajectory.progress(at: Double(step) * 0.001)
            #expect(value >= previous - 1e-12 && value <= 1 + 1e-12)
            previous = value
        }
    }

    @Test
    func hermiteFallsBackToTheSpringWhenMovingAwayFromTheTarget() {
        let trajectory = Self.plan(.hermite(HermiteCompletion(transitionDuration: 0.4)), .finish, p0: 0.6, velocity: -200)
        #expect(trajectory.kind == .spring)
        #expect(abs(trajectory.velocity(at: 0) - (-0.5)) < 1e-12)
    }

    @Test
    func flutterFlingReachesTheTargetAndClamps() {
        let model = CompletionModel.flutterFling(FlingCompletion())
        let trajectory = Self.plan(model, .finish, p0: 0.3, velocity: 900, basis: .fling)
        #expect(trajectory.kind == .flutterFling)
        #expect(abs(trajectory.velocity(at: 0) - 3) < 1e-12)
        #expect(trajectory.duration > 0 && trajectory.duration < 0.5)
        #expect(abs(trajectory.progress(at: trajectory.duration - 1e-7) - 1) < 1e-4)
        #expect(trajectory.progress(at: 10) == 1)
    }

    @Test
    func flutterFlingPlanUsesTheSpringOnlyAfterAFling() {
        let release = Self.release(0.3, velocity: 900)
        let fling = CompletionModel.flutterFling(FlingCompletion())
            .trajectory(release: release, decision: Self.decision(.finish, for: release, basis: .fling))
        #expect(fling.kind == .flutterFling)
        let linear = CompletionModel.flutterFling(FlingCompletion())
            .trajectory(release: release, decision: Self.decision(.cancel, for: release))
        #expect(linear.kind == .flutterLinear)
        #expect(abs(linear.duration - 0.2 * 0.3) < 1e-12)
    }

    @Test
    func displayLinkStepperDependsOnTheFrameRate() {
        let model = CompletionModel.displayLinkStepper(
            DisplayLinkStepper(rate: 0.02, cancel: PercentDrivenCompletion(duration: 0.3), finishesPercentDriven: false))
        // From 0.5: p += 0.02 reaches ≥ 0.98 on frame 24 (24 × 0.02 = 0.48, up to accumulation).
        let at60 = Self.plan(model, .finish, p0: 0.5, frameRate: 60)
        let at120 = Self.plan(model, .finish, p0: 0.5, frameRate: 120)
        let frames = DisplayLinkStepper(rate: 0.02, cancel: PercentDrivenCompletion(duration: 0.3)).snapFrame(from: 0.5)
        #expect(frames == 24 || frames == 25)
        #expect(abs(at60.duration - Double(frames) / 60) < 1e-12)
        #expect(abs(at120.duration - at60.duration / 2) < 1e-12)
        #expect(at60.isFrameRateDependent)
        // Staircase: holds between frames.
        #expect(at60.progress(at: 0.5 / 60) == 0.5)
        #expect(abs(at60.progress(at: 1.5 / 60) - 0.52) < 1e-12)
        // A cancel goes through the percent-driven path and does not depend on the rate.
        let cancel60 = Self.plan(model, .cancel, p0: 0.3, frameRate: 60)
        let cancel240 = Self.plan(model, .cancel, p0: 0.3, frameRate: 240)
        #expect(cancel60.duration == cancel240.duration)
        #expect(abs(cancel60.duration - 0.09) < 1e-12)
    }

    static let analyticModels: [CompletionModel] = [
        .percentDriven(PercentDrivenCompletion(duration: 0.4)),
        .percentDriven(PercentDrivenCompletion(duration: 0.4, shape: .completionCurve(.easeInOut))),
        .percentDriven(PercentDrivenCompletion(duration: 1.5, speed: .oneMinusProgress)),
        .fixedDuration(FixedDurationCompletion(duration: 0.4)),
        .spring(SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1))),
        .spring(SpringCompletion(spring: Spring(response: 0.8, dampingRatio: 0.6))),
        .spring(SpringCompletion(spring: Spring(response: 0.3, dampingRatio: 1.6))),
        .flutterFling(FlingCompletion()),
        .hermite(HermiteCompletion(transitionDuration: 0.4))
    ]

    @Test(arguments: analyticModels)
    func analyticModelsAgreeAcrossFrameRates(_ model: CompletionModel) {
        for (p0, velocity, outcome) in [(0.3, 700.0, Decision.Outcome.finish), (0.4, -300.0, .cancel)] {
            let release = Self.release(p0, velocity: velocity)
            let decision = Self.decision(outcome, for: release, basis: .fling)
            var sampled: [Double: [Double]] = [:]
            for rate in [60.0, 120.0, 240.0] {
                let trajectory = model.trajectory(release: release, decision: decision, displayFrameRate: rate)
                // Every rate's frames, keyed on the 60 Hz grid they share.
                for frame in 0...Int(rate * 2) where frame % Int(rate / 60) == 0 {
                    let time = Double(frame) / rate
                    sampled[(time * 60).rounded(), default: []].append(trajectory.progress(at: time))
                }
            }
            for values in sampled.values {
                #expect(values.count == 3)
                #expect(values.max()! - values.min()! <= 1e-9)
            }
        }
    }
}
