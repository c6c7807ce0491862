import Testing
import TransitionEngine

/// Every preset against its article (docs/MODEL.md §1.4, §6) on both sides of each threshold,
/// for `ended` and `cancelled`, at 60, 120 and 240 Hz, through the state machine itself.
struct SourceFidelityTests {
    static let screen = Size(width: 390, height: 844)
    static let rates = [60.0, 120.0, 240.0]

    /// A release scenario: a `began` at `began` progress, `changed` callbacks ending at
    /// `changed` progress (none when nil), then the release at `lift` progress with velocity
    /// `velocity` (pt/s along the drag, positive toward finish).
    struct Scenario: Sendable, CustomTestStringConvertible {
        var preset: String
        var overrides: [String: PresetValue] = [:]
        var began = 0.02
        var changed: Double?
        var lift: Double
        var velocity = 0.0
        var phase: GesturePhase = .ended
        var expected: Decision.Outcome
        var testDescription: String {
            "\(preset)\(overrides.isEmpty ? "" : " \(overrides)") changed \(changed.map { "\($0)" } ?? "none") lift \(lift) v \(velocity) \(phase) → \(expected)"
        }
    }

    static func translation(_ preset: Preset, _ progress: Double) -> Vector2 {
        let distance = preset.travelDistance(screen: screen) * progress
        let direction = preset.dragDirection
        return direction.axis == .x ? Vector2(x: direction.sign * distance, y: 0) : Vector2(x: 0, y: direction.sign * distance)
    }

    static func velocity(_ preset: Preset, _ speed: Double) -> Vector2 {
        let direction = preset.dragDirection
        return direction.axis == .x ? Vector2(x: direction.sign * speed, y: 0) : Vector2(x: 0, y: direction.sign * speed)
    }

    /// Runs the scenario; returns the transition after the release.
    static func run(_ scenario: Scenario, fps: Double) throws -> (InteractiveTransition, Preset) {
        let preset = try Preset(named: scenario.preset, overrides: scenario.overrides)
        var transition = InteractiveTransition(preset: preset, screen: screen, displayFrameRate: fps)
        _ = transition.handle(GestureInput(time: 0, phase: .began, translation: translation(preset, scenario.began)))
        if let changed = scenario.changed {
            _ = transition.handle(GestureInput(time: 0.05, phase: .changed, translation: translation(preset, changed / 2)))
            _ = transition.handle(GestureInput(time: 0.1, phase: .changed, translation: translation(preset, changed)))
        }
        _ = transition.handle(
            GestureInput(
                time: 0.12, phase: scenario.phase, translation: translation(preset, scenario.lift), velocity: velocity(preset, scenario.velocity)))
        return (transition, preset)
    }

    static let thresholds: [Scenario] = {
        var cases: [Scenario] = []
        for phase in [GesturePhase.ended, .cancelled] {
            // zoom: `if progress > 0.5`, progress computed from the release callback (clamped).
            cases += [
                Scenario(preset: "zoom", changed: 0.7, lift: 0.5, phase: phase, expected: .cancel),
                Scenario(preset: "zoom", changed: 0.3, lift: 0.51, phase: phase, expected: .finish),
                // zoom-custom: `finishBy(progress < 0.5)`: 0.5 finishes.
                Scenario(preset: "zoom-custom", changed: 0.3, lift: 0.5, phase: phase, expected: .finish),
                Scenario(preset: "zoom-custom", changed: 0.7, lift: 0.49, phase: phase, expected: .cancel),
                // drawer: `case .cancelled, .ended: if progress > 0.4`, progress = tx / W.
                Scenario(preset: "drawer", changed: 0.6, lift: 0.4, phase: phase, expected: .cancel),
                Scenario(preset: "drawer", changed: 0.2, lift: 0.41, phase: phase, expected: .finish),
                // swipe: the flag `actionPoint > 0.5` from the last .changed, whatever the lift says.
                Scenario(preset: "swipe-dismiss", changed: 0.5, lift: 0.9, phase: phase, expected: .cancel),
                Scenario(preset: "swipe-dismiss", changed: 0.51, lift: 0.1, phase: phase, expected: .finish),
                Scenario(preset: "swipe-back", changed: 0.5, lift: 0.9, phase: phase, expected: .cancel),
                Scenario(preset: "swipe-back", changed: 0.51, lift: 0.1, phase: phase, expected: .finish),
                // No .changed: the flag is still false.
                Scenario(preset: "swipe-dismiss", began: 0.9, changed: nil, lift: 0.9, phase: phase, expected: .cancel),
                Scenario(preset: "swipe-back", began: 0.9, changed: nil, lift: 0.9, phase: phase, expected: .cancel),
                // parallax-push: `Ended || Cancelled: if (vx > 0) cancel else finish`; v = −vx.
                Scenario(preset: "parallax-push", changed: 0.9, lift: 0.9, velocity: -0.01, phase: phase, expected: .cancel),
                Scenario(preset: "parallax-push", changed: 0.1, lift: 0.1, velocity: 0, phase: phase, expected: .finish),
                Scenario(preset: "parallax-push", changed: 0.1, lift: 0.1, velocity: 0.01, phase: phase, expected: .finish)
            ]
        }
        // PanTrace's own drives: D1 p ≥ 0.5 on the last .changed value; cancelled cancels.
        for name in ["circle-reveal", "bounce-present", "semi-modal", "uikit-percent"] {
            cases += [
                Scenario(preset: name, changed: 0.5, lift: 0.1, expected: .finish),
                Scenario(preset: name, changed: 0.49, lift: 0.9, expected: .cancel),
                Scenario(preset: name, changed: 0.9, lift: 0.9, phase: .cancelled, expected: .cancel),
                Scenario(preset: name, overrides: ["releaseProgress": "lift"], changed: 0.1, lift: 0.5, expected: .finish),
                Scenario(preset: name, overrides: ["releaseProgress": "lift"], changed: 0.9, lift: 0.49, expected: .cancel)
            ]
        }
        return cases
    }()

    @Test(arguments: thresholds, rates)
    func eachPresetDecidesAsItsArticleOnBothSidesOfItsThreshold(_ scenario: Scenario, fps: Double) throws {
        let (transition, _) = try Self.run(scenario, fps: fps)
        let decision = try #require(transition.decision)
        #expect(decision.outcome == scenario.expected)
    }

    @Test(
        arguments: [
            "zoom", "zoom-custom", "drawer", "swipe-dismiss", "swipe-back", "parallax-push", "circle-reveal", "bounce-present", "semi-modal",
            "uikit-percent"
        ], rates)
    func beganDoesNotMoveTheTransition(_ name: String, fps: Double) throws {
        let preset = try Preset(named: name)
        var transition = InteractiveTransition(preset: preset, screen: Self.screen, displayFrameRate: fps)
        #expect(transition.handle(GestureInput(time: 0, phase: .began, translation: Self.translation(preset, 0.3))) == .began(progress: 0))
        #expect(transition.snapshot(at: 0).progress == 0)
        guard case .updated(let moved) = transition.handle(GestureInput(time: 0.05, phase: .changed, translation: Self.translation(preset, 0.4)))
        else {
            Issue.record("a changed sample updates the transition")
            return
        }
        #expect(abs(moved - 0.4) < 1e-12)
    }

    @Test(arguments: rates)
    func bestAndLiftReadingsLetTheBeganAndTheLiftMove(fps: Double) throws {
        let preset = Preset(.best)
        var transition = InteractiveTransition(preset: preset, screen: Self.screen, displayFrameRate: fps)
        guard case .began(let progress) = transition.handle(GestureInput(time: 0, phase: .began, translation: Self.translation(preset, 0.3))) else {
            Issue.record("a began sample begins the transition")
            return
        }
        #expect(abs(progress - 0.3) < 1e-12)
    }

    /// The completion continues from `percentComplete`, the last `.changed` value, not from the
    /// lift: (1 − 0.6)·D for a finish at speed 1, 0.6·D for a cancel.
    @Test(arguments: [("zoom", 0.4), ("parallax-push", 0.3), ("uikit-percent", 0.35)], rates)
    func theCompletionStartsFromTheLastChangedValue(_ preset: (String, Double), fps: Double) throws {
        let (name, duration) = preset
        let finishing = try Self.run(Scenario(preset: name, changed: 0.6, lift: 0.8, velocity: 100, expected: .finish), fps: fps).0
        let finish = try #require(finishing.trajectory)
        #expect(abs(finish.startProgress - 0.6) < 1e-12)
        #expect(abs(finish.duration - (1 - finish.startProgress) * duration) < 1e-12)
        #expect(abs(finishing.snapshot(at: 0.12).progress - 0.6) < 1e-12)
    }

    @Test(arguments: rates)
    func swipeCompletionSpeedReadsTheLastChangedValue(fps: Double) throws {
        // s = 1 − percentComplete: a finish takes D = 1.5 s, a cancel from 0.4 takes 0.4·1.5/0.6 = 1 s.
        let finish = try #require(try Self.run(Scenario(preset: "swipe-dismiss", changed: 0.8, lift: 0.2, expected: .finish), fps: fps).0.trajectory)
        #expect(abs(finish.startProgress - 0.8) < 1e-12 && abs(finish.duration - 1.5) < 1e-12)
        let cancel = try #require(try Self.run(Scenario(preset: "swipe-dismiss", changed: 0.4, lift: 0.9, expected: .cancel), fps: fps).0.trajectory)
        #expect(abs(cancel.startProgress - 0.4) < 1e-12 && abs(cancel.duration - 1) < 1e-9)
    }

    @Test(arguments: rates)
    func zoomCustomAnimatesAFixedPointFourSecondsFromTheLastChangedValue(fps: Double) throws {
        for (changed, lift) in [(0.2, 0.7), (0.9, 0.3)] {
            let trajectory = try #require(
                try Self.run(Scenario(preset: "zoom-custom", changed: changed, lift: lift, expected: .finish), fps: fps).0.trajectory)
            #expect(abs(trajectory.startProgress - changed) < 1e-12 && trajectory.duration == 0.4)
        }
    }

    /// The drawer's stepper counts from the release callback's progress at 1/60 per display
    /// frame; on the frame it reaches 0.98 `finish()` jumps straight to the end state, as the
    /// drawer article says `finish()` does on present and dismiss: no frame in between.
    @Test(arguments: [(0.5, 29), (0.41, 35), (0.97, 1)], rates)
    func drawerStepsFromTheReleaseProgressThenJumpsToTheEnd(_ start: (Double, Int), fps: Double) throws {
        let (lift, frames) = start
        let (transition, _) = try Self.run(Scenario(preset: "drawer", changed: 0.3, lift: lift, expected: .finish), fps: fps)
        let trajectory = try #require(transition.trajectory)
        #expect(trajectory.kind == .displayLinkStepper)
        var p = lift
        var k = 0
        repeat { p += 1.0 / 60; k += 1 } while p < 0.98
        #expect(k == frames)
        let snap = Double(frames) / fps
        #expect(trajectory.duration == snap)
        // Before the first frame the drawer shows the last .changed value; then the steps.
        #expect(abs(trajectory.progress(at: 0.5 / fps) - 0.3) < 1e-12)
        if frames > 1 { #expect(abs(trajectory.progress(at: 1.5 / fps) - (lift + 1.0 / 60)) < 1e-12) }
        // The last step shown holds until the snap frame, which shows the end state.
        let last = frames > 1 ? lift + Double(frames - 1) / 60 : 0.3
        #expect(abs(trajectory.progress(at: snap - 0.5 / fps) - last) < 1e-12)
        #expect(trajectory.progress(at: snap) == 1)
        #expect(transition.snapshot(at: 0.12 + snap).progress == 1)
        #expect(transition.snapshot(at: 0.12 + snap - 0.5 / fps).progress < 1)
    }

    /// The percent-driven tail (`finish()` as on a push or pop) stays an option: from the last
    /// stepped value it completes in (1 − p)·0.4 s, 8–15 ms at these starts.
    @Test(arguments: [(0.5, 29), (0.41, 35), (0.97, 1)], rates)
    func drawerCanStillFinishPercentDrivenAfterTheSnapFrame(_ start: (Double, Int), fps: Double) throws {
        let (lift, frames) = start
        let scenario = Scenario(
            preset: "drawer", overrides: ["stepperFinish": .choice("percentDriven")], changed: 0.3, lift: lift, expected: .finish)
        let trajectory = try #require(try Self.run(scenario, fps: fps).0.trajectory)
        let last = frames > 1 ? lift + Double(frames - 1) / 60 : 0.3
        let tail = (1 - last) * 0.4
        #expect(abs(trajectory.duration - (Double(frames) / fps + tail)) < 1e-9)
        if frames > 1 { #expect(tail > 0.008 && tail < 0.015) }
        #expect(trajectory.progress(at: Double(frames) / fps + tail / 2) < 1)
    }

    @Test(arguments: rates)
    func drawerCancelsPercentDrivenFromTheLastChangedValue(fps: Double) throws {
        let trajectory = try #require(
            try Self.run(Scenario(preset: "drawer", changed: 0.3, lift: 0.35, phase: .cancelled, expected: .cancel), fps: fps).0.trajectory)
        #expect(abs(trajectory.startProgress - 0.3) < 1e-12 && abs(trajectory.duration - 0.3 * 0.4) < 1e-9)
    }

    /// `animateWithDuration:0.8 … usingSpringWithDamping:0.6`: the animation lasts 0.8 s
    /// whatever the distance, with the spring's envelope at 0.1 % by then.
    @Test(arguments: ["bounce-present", "semi-modal"], rates)
    func uiViewSpringsLastTheirTotalDuration(_ name: String, fps: Double) throws {
        for (changed, expected) in [(0.5, Decision.Outcome.finish), (0.49, .cancel), (0.0, .cancel), (0.99, .finish)] {
            let (transition, _) = try Self.run(Scenario(preset: name, changed: changed, lift: changed, expected: expected), fps: fps)
            let trajectory = try #require(transition.trajectory)
            #expect(transition.decision?.outcome == expected)
            #expect(trajectory.duration == 0.8)
            #expect(transition.snapshot(at: 0.12 + 0.8).progress == expected.target)
        }
        let preset = try Preset(named: name)
        guard case .spring(let spring) = preset.completion else { Issue.record("a spring"); return }
        #expect(abs(spring.spring.naturalFrequency * 0.6 * 0.8 - 6.907755278982137) < 1e-9)
    }

    @Test
    func theOlderSpringReadingsRemainReachable() throws {
        let response = try Preset(named: "bounce-present", overrides: ["springDuration": "response"])
        let release = ReleaseState(
            progress: 0, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: 844, phase: .ended, time: 0, lastMoveTime: 0)
        let decision = Decision(
            outcome: .finish, basis: .progress, statistic: 0, threshold: 0.5, comparison: .atLeast, axisVelocity: 0, progressVelocity: 0)
        #expect(response.completion.trajectory(release: release, decision: decision).duration > 1.5)
    }

    @Test(arguments: ["zoom", "drawer", "parallax-push", "swipe-dismiss", "circle-reveal"])
    func durationsAreTheArticles(_ name: String) throws {
        let expected = ["zoom": 0.4, "drawer": 0.4, "parallax-push": 0.3, "swipe-dismiss": 1.5, "circle-reveal": 1.0][name]!
        #expect(try Preset(named: name).duration == expected)
    }

    @Test
    func theDrawersFormerValuesStayReachable() throws {
        let former = try Preset(
            named: "drawer",
            overrides: [
                "stepRate": 0.02, "duration": 0.3, "travel": 0.8, "drawerStyle": "overlay", "cancelledPhase": "cancel"
            ])
        #expect(abs(former.mapping(screen: Self.screen).distance - 0.8 * 390) < 1e-9)
        #expect(former.layers(renderedProgress: 0.5, screen: Self.screen).map(\.role) == [.content, .drawer])
        let release = ReleaseState(
            progress: 0.9, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: 312, phase: .cancelled, time: 0, lastMoveTime: 0)
        #expect(former.policy.decide(release).outcome == .cancel)
    }
}
