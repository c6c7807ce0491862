import Foundation
import Testing
import TransitionEngine

struct InteractiveTransitionTests {
    static let screen = Size(width: 400, height: 800)

    static func sample(_ time: Double, _ phase: GesturePhase, x: Double, vx: Double = 0) -> GestureInput {
        GestureInput(time: time, phase: phase, translation: Vector2(x: x, y: 0), velocity: Vector2(x: vx, y: 0))
    }

    @Test
    func gestureDrivesProgressThenReleaseCompletesToFinish() {
        var transition = InteractiveTransition(preset: Preset(.uikitPercent), screen: Self.screen)
        #expect(transition.snapshot(at: 0).phase == .idle)
        // `began` does not move the transition: UIKit apps call update only in `.changed`.
        #expect(transition.handle(Self.sample(0, .began, x: 10)) == .began(progress: 0))
        #expect(transition.handle(Self.sample(0.1, .changed, x: 240)) == .updated(progress: 0.6))
        guard case .released(let report) = transition.handle(Self.sample(0.2, .ended, x: 240, vx: 300)) else {
            Issue.record("expected a release")
            return
        }
        #expect(report.decision.outcome == .finish)
        #expect(report.rule == "D1")
        #expect(report.completionModel == "T1a")
        #expect(abs(report.completionTime - 0.4 * 0.35) < 1e-12)
        #expect(report.reason == "progress 0.6 ≥ 0.5 → finish")

        let midway = transition.snapshot(at: 0.27)
        #expect(midway.phase == .completing)
        #expect(abs(midway.progress - 0.8) < 1e-12)
        #expect(transition.advance(to: 0.3) == .none)
        #expect(transition.advance(to: 0.35) == .finished)
        #expect(transition.state == .finished)
        #expect(transition.snapshot(at: 0.5).progress == 1)
    }

    @Test
    func snapshotsAreAnalyticWithoutAdvancing() {
        var transition = InteractiveTransition(preset: Preset(.best), screen: Self.screen)
        _ = transition.handle(Self.sample(0, .began, x: 0))
        _ = transition.handle(Self.sample(0.1, .changed, x: 100))
        _ = transition.handle(Self.sample(0.1, .ended, x: 100, vx: 900))
        let end = transition.snapshot(at: 5)
        #expect(end.phase == .finished)
        #expect(end.progress == 1)
        #expect(transition.state == .completing(target: 1, releaseTime: 0.1))
    }

    @Test
    func regrabDuringCompletionPausesAndContinuesInteractively() throws {
        var transition = InteractiveTransition(preset: Preset(.best), screen: Self.screen)
        _ = transition.handle(Self.sample(0, .began, x: 0))
        _ = transition.handle(Self.sample(0.1, .changed, x: 200))
        _ = transition.handle(Self.sample(0.1, .ended, x: 200, vx: 800))
        let trajectory = try #require(transition.trajectory)
        let expectedProgress = trajectory.progress(at: 0.05)
        let expectedVelocity = trajectory.velocity(at: 0.05)

        let action = transition.handle(Self.sample(0.15, .began, x: 0))
        #expect(action == .paused(progress: expectedProgress, velocity: expectedVelocity))
        #expect(transition.state == .interactive(progress: expectedProgress))
        // The new gesture moves relative to where it was grabbed.
        #expect(transition.handle(Self.sample(0.2, .changed, x: -40)) == .updated(progress: expectedProgress - 0.1))
        guard case .released(let report) = transition.handle(Self.sample(0.22, .ended, x: -40, vx: -2000)) else {
            Issue.record("expected a second release")
            return
        }
        #expect(report.decision.outcome == .cancel)
    }

    @Test
    func pauseWithoutASampleReadsProgressAndVelocity() throws {
        var transition = InteractiveTransition(preset: Preset(.uikitPercent), screen: Self.screen)
        _ = transition.handle(Self.sample(0, .began, x: 0))
        _ = transition.handle(Self.sample(0.05, .changed, x: 100))
        _ = transition.handle(Self.sample(0.1, .ended, x: 100))
        guard case .paused(let progress, let velocity) = transition.pause(at: 0.12) else {
            Issue.record("expected a pause")
            return
        }
        // Cancel from 0.25 at speed 1 over D = 0.35: p' = −1/0.35.
        #expect(abs(progress - (0.25 - 0.02 / 0.35)) < 1e-12)
        #expect(abs(velocity + 1 / 0.35) < 1e-12)
    }

    @Test
    func releaseFrameCarriesTheDecisionOnlyOnce() throws {
        var transition = InteractiveTransition(preset: Preset(.swipeDismiss), screen: Self.screen, displayFrameRate: 120)
        _ = transition.handle(GestureInput(time: 0, phase: .began, translation: Vector2(x: 0, y: 5)))
        _ = transition.handle(GestureInput(time: 0.05, phase: .changed, translation: Vector2(x: 0, y: 204)))
        _ = transition.handle(GestureInput(time: 0.1, phase: .cancelled, translation: Vector2(x: 0, y: 204), velocity: Vector2(x: 0, y: 50)))
        let releaseFrame = transition.frameState(at: 0.105)
        let report = try #require(releaseFrame.release)
        #expect(report.decision.outcome == .finish)
        #expect(report.margin > 0)
        #expect(releaseFrame.gesture?.phase == .cancelled)
        #expect(transition.frameState(at: 0.1 + 1.0 / 120).release == nil)
        #expect(transition.frameState(at: 0.099).release == nil)
        #expect(releaseFrame.layers.count == 2)
    }

    @Test
    func staleSamplesAfterReleaseAreIgnored() {
        var transition = InteractiveTransition(preset: Preset(.zoom), screen: Self.screen)
        #expect(transition.handle(Self.sample(0, .ended, x: 0)) == .none)
        _ = transition.handle(Self.sample(0, .began, x: 0))
        _ = transition.handle(Self.sample(0.1, .ended, x: 300))
        #expect(transition.handle(Self.sample(0.11, .changed, x: 310)) == .none)
        _ = transition.advance(to: 10)
        #expect(transition.handle(Self.sample(11, .began, x: 0)) == .none)
    }

    @Test
    func lastMoveTimeIgnoresTheLiftAndRepeatedPositions() throws {
        var transition = InteractiveTransition(preset: Preset(.best), screen: Self.screen)
        _ = transition.handle(Self.sample(0, .began, x: 0))
        _ = transition.handle(Self.sample(0.1, .changed, x: 100))
        _ = transition.handle(Self.sample(0.2, .changed, x: 100))
        _ = transition.handle(Self.sample(0.25, .ended, x: 100, vx: 900))
        let decision = try #require(transition.decision)
        // Stopped for 150 ms > 40 ms: the stale 900 pt/s is gated to 0 and p0 = 0.25 cancels.
        #expect(decision.axisVelocity == 0)
        #expect(decision.outcome == .cancel)
    }

    @Test
    func frameStateRoundTripsThroughJSON() throws {
        var transition = InteractiveTransition(preset: Preset(.circleReveal), screen: Self.screen)
        _ = transition.handle(Self.sample(0, .began, x: -100))
        _ = transition.handle(Self.sample(0.05, .ended, x: -300, vx: -500))
        let frame = transition.frameState(at: 0.06)
        #expect(frame.release != nil)
        let data = try JSONEncoder().encode(frame)
        let decoded = try JSONDecoder().decode(FrameState.self, from: data)
        #expect(decoded == frame)
        #expect(decoded.layers[1].mask != nil)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"reason\""))
        #expect(text.contains("\"margin\""))
    }

    static func replay(_ name: PresetName, displayFrameRate: Double) -> InteractiveTransition {
        var transition = InteractiveTransition(preset: Preset(name), screen: Self.screen, displayFrameRate: displayFrameRate)
        let mapping = transition.mapping
        func vector(_ along: Double) -> Vector2 {
            mapping.axis == .x ? Vector2(x: along, y: 0) : Vector2(x: 0, y: along)
        }
        _ = transition.handle(GestureInput(time: 0, phase: .began, translation: vector(0)))
        _ = transition.handle(GestureInput(time: 0.1, phase: .changed, translation: vector(mapping.sign * mapping.distance * 0.55)))
        _ = transition.handle(
            GestureInput(time: 0.12, phase: .ended, translation: vector(mapping.sign * mapping.distance * 0.6), velocity: vector(mapping.sign * 500)))
        return transition
    }

    @Test(arguments: PresetName.allCases)
    func framesAgreeAt60And120And240HzExceptForTheStepper(_ name: PresetName) {
        let replays = [60.0, 120.0, 240.0].map { Self.replay(name, displayFrameRate: $0) }
        var largestDifference = 0.0
        for frame in 0...120 {
            // The 60 Hz frame times, which the 120 and 240 Hz replays also draw.
            let time = 0.12 + Double(frame) / 60
            let values = replays.map { $0.snapshot(at: time).renderedProgress }
            largestDifference = max(largestDifference, values.max()! - values.min()!)
            let layers = replays.map { $0.snapshot(at: time).layers }
            if name != .drawer {
                #expect(layers[0] == layers[1] && layers[1] == layers[2])
            }
        }
        if name == .drawer {
            #expect(largestDifference > 0.01)
        } else {
            #expect(largestDifference <= 1e-9)
        }
    }
}
