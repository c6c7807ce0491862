import Foundation
import Testing
import TransitionEngine

struct TransitionMetricsTests {
    static func release(_ progress: Double, velocity: Double, distance: Double = 400) -> ReleaseState {
        ReleaseState(
            progress: progress,
            velocity: Vector2(x: velocity, y: 0),
            axisVelocity: velocity,
            crossVelocity: 0,
            distance: distance,
            phase: .ended,
            time: 1,
            lastMoveTime: 1
        )
    }

    static let threshold = DecisionPolicy(rule: .threshold(Threshold(0.5)))

    @Test(arguments: [(0.6, 500.0), (0.3, -250.0), (0.7, 2000.0)])
    func velocityMatchedSpringHasNoDiscontinuity(_ p0: Double, _ velocity: Double) {
        let metrics = TransitionMetrics(
            release: Self.release(p0, velocity: velocity),
            policy: Self.threshold,
            completion: .spring(SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1), relativeVelocityLimit: nil))
        )
        #expect(abs(metrics.velocityDiscontinuity) < 1e-9)
    }

    @Test(arguments: [(0.6, 500.0), (0.2, -100.0)])
    func hermiteHasNoDiscontinuity(_ p0: Double, _ velocity: Double) {
        let metrics = TransitionMetrics(
            release: Self.release(p0, velocity: velocity),
            policy: Self.threshold,
            completion: .hermite(HermiteCompletion(transitionDuration: 0.4))
        )
        #expect(abs(metrics.velocityDiscontinuity) < 1e-9)
        #expect(metrics.overshoot == 0)
    }

    @Test(arguments: [350.0, 1200.0])
    func freshEaseInOutSegmentJumpsByTheFingerVelocity(_ velocity: Double) {
        let metrics = TransitionMetrics(
            release: Self.release(0.7, velocity: velocity),
            policy: Self.threshold,
            completion: .percentDriven(PercentDrivenCompletion(duration: 0.4, shape: .completionCurve(.easeInOut)))
        )
        #expect(metrics.velocityDiscontinuity == -velocity)
    }

    @Test
    func resumedTimelineJumpsToSpeedOverDurationInPoints() {
        let metrics = TransitionMetrics(
            release: Self.release(0.7, velocity: 300),
            policy: Self.threshold,
            completion: .percentDriven(PercentDrivenCompletion(duration: 0.4))
        )
        // Rendered velocity L·s/D = 400/0.4 = 1000 pt/s.
        #expect(abs(metrics.velocityDiscontinuity - 700) < 1e-9)
        #expect(abs(metrics.completionTime - 0.12) < 1e-12)
        #expect(!metrics.isFrameRateDependent)
    }

    @Test
    func curveScrubScalesTheRenderedVelocityBySlope() {
        let release = Self.release(0.5, velocity: 0)
        let metrics = TransitionMetrics(
            release: release,
            policy: Self.threshold,
            completion: .percentDriven(PercentDrivenCompletion(duration: 0.4)),
            scrub: .curve,
            curve: .easeInOut
        )
        let slope = TimingCurve.easeInOut.slope(at: 0.5)
        #expect(abs(metrics.velocityDiscontinuity - 400 * slope / 0.4) < 1e-6)
    }

    @Test
    func stepperIsFlaggedAsFrameRateDependent() {
        let metrics = TransitionMetrics(release: Self.release(0.6, velocity: 0), preset: Preset(.drawer))
        #expect(metrics.isFrameRateDependent)
        #expect(metrics.completionTimes.map(\.frameRate) == [60, 120, 240])
        // The stepped part halves with each doubling of the rate; the percent-driven finish
        // after the snap frame (docs/MODEL.md §4.4) does not, and differs with where it starts.
        let times = metrics.completionTimes.map(\.completionTime)
        #expect(times[0] > times[1] && times[1] > times[2])
    }

    @Test(arguments: PresetName.allCases.filter { $0 != .drawer })
    func analyticPresetsAreNotFrameRateDependent(_ name: PresetName) {
        let metrics = TransitionMetrics(release: Self.release(0.6, velocity: 300), preset: Preset(name))
        #expect(!metrics.isFrameRateDependent)
    }

    @Test
    func flipProneWhenTenPercentVelocityChangesTheOutcome() {
        let policy = DecisionPolicy(rule: .projection(decelerationRate: 0.998, threshold: Threshold(0.5), isExact: false))
        let completion = CompletionModel.spring(SpringCompletion(spring: Spring(response: 0.4, dampingRatio: 1)))
        // p0 = 0.3 on L = 400 needs v ≥ 160.3 pt/s; 165 − 10 % = 148.5 flips.
        let close = TransitionMetrics(release: Self.release(0.3, velocity: 165), policy: policy, completion: completion)
        #expect(close.outcome == .finish)
        #expect(close.isFlipProne)
        let clear = TransitionMetrics(release: Self.release(0.3, velocity: 400), policy: policy, completion: completion)
        #expect(!clear.isFlipProne)
        #expect(abs(clear.margin - (0.3 + 0.499 - 0.5)) < 1e-12)
    }

    @Test
    func bouncySpringReportsOvershootAndSettleTime() {
        let metrics = TransitionMetrics(release: Self.release(0.6, velocity: 0), preset: Preset(.bouncePresent))
        // ζ = 0.6 from rest (the source's initial velocity 0): overshoot e^{−πζ/√(1−ζ²)} of Δ = 0.4.
        #expect(metrics.outcome == .finish)
        let expected = 0.4 * exp(-Double.pi * 0.6 / (1 - 0.36).squareRoot())
        #expect(abs(metrics.overshoot - expected) < 1e-9)
        #expect(abs(metrics.overshootPoints - expected * 400) < 1e-6)
        #expect(metrics.settleTime > 0 && metrics.settleTime <= metrics.completionTime)
    }
}
