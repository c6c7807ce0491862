import Testing
import TransitionEngine

struct DecisionPolicyTests {
    static func release(
        progress: Double,
        velocity: Double = 0,
        cross: Double = 0,
        distance: Double = 400,
        phase: GesturePhase = .ended,
        stoppedFor: Double = 0
    ) -> ReleaseState {
        ReleaseState(
            progress: progress,
            velocity: Vector2(x: velocity, y: cross),
            axisVelocity: velocity,
            crossVelocity: cross,
            distance: distance,
            phase: phase,
            time: 1,
            lastMoveTime: 1 - stoppedFor
        )
    }

    @Test(arguments: [(0.49, Decision.Outcome.cancel), (0.5, .finish), (0.51, .finish)])
    func thresholdFinishesAtOrAboveTheta(_ progress: Double, _ outcome: Decision.Outcome) {
        let policy = DecisionPolicy(rule: .threshold(Threshold(0.5)))
        #expect(policy.decide(Self.release(progress: progress)).outcome == outcome)
    }

    @Test(arguments: [(0.5, Decision.Outcome.cancel), (0.500001, .finish)])
    func strictThresholdCancelsExactlyAtTheta(_ progress: Double, _ outcome: Decision.Outcome) {
        let policy = DecisionPolicy(rule: .threshold(Threshold(0.5, .greaterThan)))
        #expect(policy.decide(Self.release(progress: progress)).outcome == outcome)
    }

    @Test
    func thresholdDecisionCarriesReasonAndMargin() {
        let decision = DecisionPolicy(rule: .threshold(Threshold(0.5))).decide(Self.release(progress: 0.3))
        #expect(decision.reason == "progress 0.3 < 0.5 → cancel")
        #expect(abs(decision.margin - 0.2) < 1e-12)
        #expect(decision.basis == .progress)
    }

    @Test
    func projectionHorizonIsHalfASecondAtNormalAndATenthAtFast() {
        #expect(abs(DecisionRule.projectionHorizon(decelerationRate: 0.998) - 0.499) < 1e-12)
        #expect(abs(DecisionRule.projectionHorizon(decelerationRate: 0.99) - 0.099) < 1e-12)
        #expect(abs(DecisionRule.exactProjectionHorizon(decelerationRate: 0.998) - 0.4995) < 1e-4)
        #expect(abs(DecisionRule.exactProjectionHorizon(decelerationRate: 0.99) - 0.0995) < 1e-4)
    }

    @Test
    func projectionReasonReadsLikeTheDocs() {
        // p0 = 0.3, v = 160 pt/s over L = 400: v_p = 0.4, projected 0.3 + 0.4·0.499 = 0.4996.
        let policy = DecisionPolicy(rule: .projection(decelerationRate: 0.998, threshold: Threshold(0.5), isExact: false))
        let below = policy.decide(Self.release(progress: 0.3, velocity: 160))
        #expect(below.outcome == .cancel)
        #expect(below.reason == "projected 0.4996 < 0.5 → cancel")
        let above = policy.decide(Self.release(progress: 0.3, velocity: 200))
        #expect(above.outcome == .finish)
        #expect(above.reason == "projected 0.55 ≥ 0.5 → finish")
        #expect(abs(above.margin - (0.3 + 0.5 * 0.499 - 0.5)) < 1e-12)
    }

    @Test(arguments: [(199.0, Decision.Outcome.cancel), (201.0, .finish)])
    func lookAheadAddsHorizonTimesProgressVelocity(_ velocity: Double, _ outcome: Decision.Outcome) {
        // Hero App Store: h = 1 s, θ = 0.5; p0 = 0 and L = 400 needs v ≥ 200 pt/s.
        let policy = DecisionPolicy(rule: .lookAhead(horizon: 1, threshold: Threshold(0.5)))
        #expect(policy.decide(Self.release(progress: 0, velocity: velocity)).outcome == outcome)
    }

    @Test
    func flickDecidesBySignAboveTheFlickSpeed() {
        let policy = DecisionPolicy(rule: .flickOrThreshold(flickSpeed: 1200, threshold: Threshold(0.33), requiresDominantAxis: true))
        let backward = policy.decide(Self.release(progress: 0.9, velocity: -1300))
        #expect(backward.outcome == .cancel)
        #expect(backward.basis == .flick)
        let slow = policy.decide(Self.release(progress: 0.9, velocity: -1100))
        #expect(slow.outcome == .finish)
        #expect(slow.basis == .progress)
        // Off-axis flick falls back to the threshold.
        let offAxis = policy.decide(Self.release(progress: 0.2, velocity: 800, cross: 1500))
        #expect(offAxis.outcome == .cancel)
        #expect(offAxis.basis == .progress)
    }

    @Test
    func flutterFlingNeedsSpeedAndDominance() {
        let policy = DecisionPolicy(
            rule: .dominantAxisFling(minimumVelocity: 700, minimumVelocityDelta: 400, threshold: Threshold(0.4, .greaterThan)))
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 700)).outcome == .finish)
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 699)).outcome == .cancel)
        // |vx| − |vy| = 399 < 400: no fling.
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 1000, cross: 601)).basis == .progress)
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 1000, cross: 600)).basis == .fling)
        // p0 = 0: never a fling.
        #expect(policy.decide(Self.release(progress: 0, velocity: 5000)).outcome == .cancel)
    }

    @Test
    func directionRuleUsesTheSignOutsideTheDeadBand() {
        let policy = DecisionPolicy(rule: .direction(deadBand: 100, fallback: .threshold(Threshold(0.5))))
        #expect(policy.decide(Self.release(progress: 0.9, velocity: -101)).outcome == .cancel)
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 101)).outcome == .finish)
        #expect(policy.decide(Self.release(progress: 0.9, velocity: -100)).outcome == .finish)
        #expect(policy.decide(Self.release(progress: 0.1, velocity: 100)).outcome == .cancel)
    }

    @Test(arguments: [(0.041, 0.0), (0.039, 300.0)])
    func stoppedFingerGateZeroesStaleVelocity(_ stoppedFor: Double, _ expected: Double) {
        let policy = DecisionPolicy(rule: .threshold(Threshold(0.5)), gates: VelocityGates(stopTime: 0.040))
        let decision = policy.decide(Self.release(progress: 0.2, velocity: 300, stoppedFor: stoppedFor))
        #expect(decision.axisVelocity == expected)
        #expect(decision.isVelocityGated == (expected == 0))
    }

    @Test
    func floorAndClampGateEachComponent() {
        let gates = VelocityGates.android
        let slow = gates.apply(to: Self.release(progress: 0.5, velocity: 49, cross: 9000))
        #expect(slow.release.axisVelocity == 0)
        #expect(slow.release.crossVelocity == 8000)
        #expect(slow.isGated)
        let fine = gates.apply(to: Self.release(progress: 0.5, velocity: 50, cross: -8000))
        #expect(fine.release.axisVelocity == 50)
        #expect(!fine.isGated)
    }

    @Test
    func cancelledPhaseCancelsByDefaultOrDecidesWhenAsked() {
        let release = Self.release(progress: 0.9, phase: .cancelled)
        let byDefault = DecisionPolicy(rule: .threshold(Threshold(0.5))).decide(release)
        #expect(byDefault.outcome == .cancel)
        #expect(byDefault.basis == .cancelledPhase)
        #expect(byDefault.reason == "gesture cancelled → cancel")
        let deciding = DecisionPolicy(rule: .threshold(Threshold(0.5)), cancelledPhase: .decide).decide(release)
        #expect(deciding.outcome == .finish)
    }
}
