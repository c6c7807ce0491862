import Testing
import TransitionEngine

struct PresetTests {
    static let screen = Size(width: 390, height: 844)
    static var width: Double { screen.width }
    static var height: Double { screen.height }

    static func layers(_ name: PresetName, _ progress: Double) -> LayerStack {
        let preset = Preset(name)
        return preset.layers(renderedProgress: preset.renderedProgress(progress), screen: screen)
    }

    static func decide(_ name: PresetName, translation: Vector2, velocity: Vector2 = .zero, phase: GesturePhase = .ended) -> Decision {
        let preset = Preset(name)
        let sample = GestureInput(time: 1, phase: phase, translation: translation, velocity: velocity)
        return preset.policy.decide(ReleaseState(sample: sample, mapping: preset.mapping(screen: screen)))
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    // MARK: geometry at p = 0, 0.5, 1

    @Test(arguments: [(0.0, 1.0), (0.5, 0.55), (1.0, 0.1)])
    func zoomScalesTheOutgoingViewFromOneToATenth(_ p: Double, _ scale: Double) throws {
        let stack = Self.layers(.zoom, p)
        #expect(stack.count == 2)
        #expect(stack[0].role == .incoming && stack[0].scale == 1)
        let outgoing = try #require(stack.first(role: .outgoing))
        #expect(Self.close(outgoing.scale, scale))
    }

    @Test(arguments: [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)])
    func zoomCustomScalesByDistanceFromOne(_ p: Double, _ scale: Double) throws {
        #expect(Self.close(try #require(Self.layers(.zoomCustom, p).first(role: .outgoing)).scale, scale))
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func drawerRevealsItselfUnderTheSlidingScreen(_ p: Double) throws {
        // LVMinePresentAnimation.swift: toVC width → W − 50, fromVC.x → W − 50, mask alpha → 0.8.
        let stack = Self.layers(.drawer, p)
        #expect(stack.map(\.role) == [.drawer, .content, .dimming])
        #expect(Self.close(stack[0].frame.width, Self.width - 50 * p) && stack[0].translation == .zero)
        #expect(Self.close(stack[1].translation.x, (Self.width - 50) * p))
        #expect(Self.close(stack[2].translation.x, (Self.width - 50) * p))
        #expect(Self.close(stack[2].alpha, 0.8 * p))
    }

    @Test(arguments: [(0.0, -0.8), (0.5, -0.4), (1.0, 0.0)])
    func drawerOverlayStyleSlidesAPanelInFromTheLeft(_ p: Double, _ offset: Double) throws {
        let preset = try Preset(named: "drawer", overrides: ["drawerStyle": "overlay"])
        let drawer = try #require(preset.layers(renderedProgress: p, screen: Self.screen).first(role: .drawer))
        #expect(Self.close(drawer.translation.x, offset * Self.width))
        #expect(Self.close(drawer.frame.width, 0.8 * Self.width))
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func circleRevealGrowsAnOvalToTheButtonFrameOutsetByTheCornerDistance(_ p: Double) throws {
        let incoming = try #require(Self.layers(.circleReveal, p).first(role: .incoming))
        let mask = try #require(incoming.mask)
        let bx = 0.9 * Self.width
        let by = 0.07 * Self.height
        #expect(Self.close(mask.center.x, bx) && Self.close(mask.center.y, by))
        // CGRectInset(pushBtn.frame, −R, −R) with the demo's 79 × 48 pt button.
        let full = (bx * bx + (Self.height - by) * (Self.height - by)).squareRoot()
        #expect(Self.close(mask.radius, p * (79.0 / 2 + full)))
        #expect(Self.close(try #require(mask.radiusY), p * (48.0 / 2 + full)))
    }

    @Test
    func circleRevealWithAZeroSizedButtonIsACircle() throws {
        let preset = try Preset(named: "circle-reveal", overrides: ["buttonWidth": 0, "buttonHeight": 0])
        let mask = try #require(preset.layers(renderedProgress: 1, screen: Self.screen).first(role: .incoming)?.mask)
        #expect(Self.close(mask.radius, mask.verticalRadius))
    }

    @Test(arguments: [(0.0, 0.0), (0.5, 0.5), (1.0, 1.0)])
    func swipeDismissMovesThePresentedViewDownByH(_ p: Double, _ fraction: Double) throws {
        let presented = try #require(Self.layers(.swipeDismiss, p).first(role: .presented))
        #expect(Self.close(presented.translation.y, fraction * Self.height))
        // The article's pop fades the incoming view in above the outgoing one.
        let back = Self.layers(.swipeBack, p)
        #expect(back.map(\.role) == [.outgoing, .incoming])
        #expect(Self.close(back[1].alpha, fraction) && back[0].translation == .zero && back[1].translation == .zero)
    }

    @Test(arguments: [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)])
    func bouncePresentComesUpFromBelow(_ p: Double, _ fraction: Double) throws {
        let presented = try #require(Self.layers(.bouncePresent, p).first(role: .presented))
        #expect(Self.close(presented.translation.y, fraction * Self.height))
        #expect(presented.frame == Rect(size: Self.screen))
    }

    @Test(arguments: [(0.0, 1.0, 1.0), (0.5, 0.5, 0.925), (1.0, 0.0, 0.85)])
    func semiModalStopsAtAThirdOverAShrunkenSnapshot(_ p: Double, _ fraction: Double, _ scale: Double) throws {
        let stack = Self.layers(.semiModal, p)
        let presented = try #require(stack.first(role: .presented))
        // CGRectMake(0, H/3, W, H): a full screen tall, its lower third off screen.
        #expect(Self.close(presented.frame.y, Self.height / 3))
        #expect(Self.close(presented.frame.height, Self.height) && Self.close(presented.frame.width, Self.width))
        #expect(presented.cornerRadius == 15)
        #expect(Self.close(presented.translation.y, fraction * Self.height))
        #expect(Self.close(try #require(stack.first(role: .presenting)).scale, scale))
    }

    @Test(arguments: [(0.0, 0.0, 1.0), (0.5, -0.15, 0.5), (1.0, -0.3, 0.0)])
    func parallaxPushMovesTheOutgoingViewByAThirdOfTheIncoming(_ p: Double, _ outgoing: Double, _ incoming: Double) throws {
        let stack = Self.layers(.parallaxPush, p)
        #expect(Self.close(try #require(stack.first(role: .outgoing)).translation.x, outgoing * Self.width))
        #expect(Self.close(try #require(stack.first(role: .incoming)).translation.x, incoming * Self.width))
        #expect(stack[1].role == .incoming)
    }

    @Test(arguments: [PresetName.uikitPercent, .best])
    func popPresetsSlideTheTopViewOff(_ name: PresetName) throws {
        for (p, top, below) in [(0.0, 0.0, -0.3), (0.5, 0.5, -0.15), (1.0, 1.0, 0.0)] {
            let stack = Self.layers(name, p)
            #expect(Self.close(try #require(stack.first(role: .outgoing)).translation.x, top * Self.width))
            #expect(Self.close(try #require(stack.first(role: .incoming)).translation.x, below * Self.width))
        }
    }

    @Test(arguments: PresetName.allCases)
    func everyPresetDrawsAtMostTheStackCapacityInZOrder(_ name: PresetName) {
        let stack = Self.layers(name, 0.5)
        #expect(stack.count >= 2 && stack.count <= LayerStack.capacity)
    }

    // MARK: decisions on both sides of the threshold

    @Test
    func zoomFinishesOnlyStrictlyAboveHalfEvenWhenCancelled() {
        #expect(Self.decide(.zoom, translation: Vector2(x: 0.5 * Self.width, y: 0)).outcome == .cancel)
        #expect(Self.decide(.zoom, translation: Vector2(x: 0.51 * Self.width, y: 0)).outcome == .finish)
        #expect(Self.decide(.zoom, translation: Vector2(x: 0.51 * Self.width, y: 0), phase: .cancelled).outcome == .finish)
        // `finishBy(progress < 0.5)`: p = 0.5 finishes, just below cancels.
        #expect(Self.decide(.zoomCustom, translation: Vector2(x: 0.5 * Self.width, y: 0)).outcome == .finish)
        #expect(Self.decide(.zoomCustom, translation: Vector2(x: 0.49 * Self.width, y: 0)).outcome == .cancel)
    }

    @Test(arguments: [(0.3, 0.4), (0.9, 0.4)])
    func zoomCustomCompletesInAFixedTimeWhateverTheProgress(_ p0: Double, _ expected: Double) {
        let preset = Preset(.zoomCustom)
        let release = ReleaseState(
            progress: p0, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: Self.width, phase: .ended, time: 0, lastMoveTime: 0)
        let trajectory = preset.completion.trajectory(release: release, decision: preset.policy.decide(release))
        #expect(trajectory.duration == expected)
        #expect(trajectory.kind == .fixedDuration)
    }

    @Test
    func drawerFinishesAboveFortyPercent() {
        let drawer = Self.width  // progress = tx / W (LVTransitioningDelegateHelper.swift)
        #expect(Self.decide(.drawer, translation: Vector2(x: 0.4 * drawer, y: 0)).outcome == .cancel)
        #expect(Self.decide(.drawer, translation: Vector2(x: 0.41 * drawer, y: 0)).outcome == .finish)
    }

    @Test
    func drawerFinishesWithTheStepperAndCancelsPercentDriven() {
        let preset = Preset(.drawer)
        let release = ReleaseState(
            progress: 0.6, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: 312, phase: .ended, time: 0, lastMoveTime: 0)
        let finish = preset.completion.trajectory(release: release, decision: preset.policy.decide(release), displayFrameRate: 60)
        #expect(finish.kind == .displayLinkStepper)
        var cancelRelease = release
        cancelRelease.progress = 0.3
        cancelRelease.startProgress = 0.3
        let cancel = preset.completion.trajectory(release: cancelRelease, decision: preset.policy.decide(cancelRelease), displayFrameRate: 60)
        #expect(cancel.kind == .percentDrivenTimeline)
        #expect(abs(cancel.duration - 0.3 * 0.4) < 1e-12)
    }

    @Test
    func swipeDismissFinishesAboveHalfEvenIfCancelledAndCancelsAtHalf() {
        let half = Self.height / 2
        #expect(Self.decide(.swipeDismiss, translation: Vector2(x: 0, y: 0.51 * half), phase: .cancelled).outcome == .finish)
        #expect(Self.decide(.swipeDismiss, translation: Vector2(x: 0, y: 0.5 * half), phase: .cancelled).outcome == .cancel)
        #expect(Self.decide(.swipeDismiss, translation: Vector2(x: 0, y: 0.5 * half)).outcome == .cancel)
        #expect(Self.decide(.swipeBack, translation: Vector2(x: 0.51 * Self.width / 2, y: 0)).outcome == .finish)
        #expect(Self.decide(.swipeBack, translation: Vector2(x: 0.5 * Self.width / 2, y: 0)).outcome == .cancel)
    }

    @Test
    func swipeDismissTimesFollowOneMinusProgressSpeed() {
        let preset = Preset(.swipeDismiss)
        for (p0, outcome, expected) in [(0.51, Decision.Outcome.finish, 1.5), (0.5, .cancel, 0.5 * 1.5 / 0.5), (0.2, .cancel, 0.2 * 1.5 / 0.8)] {
            let release = ReleaseState(
                progress: p0, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: Self.height / 2, phase: .ended, time: 0, lastMoveTime: 0)
            let decision = preset.policy.decide(release)
            #expect(decision.outcome == outcome)
            #expect(abs(preset.completion.trajectory(release: release, decision: decision).duration - expected) < 1e-12)
        }
    }

    @Test
    func circleRevealFinishesFromHalfByDraggingLeft() {
        #expect(Self.decide(.circleReveal, translation: Vector2(x: -0.49 * Self.width, y: 0)).outcome == .cancel)
        #expect(Self.decide(.circleReveal, translation: Vector2(x: -0.5 * Self.width, y: 0)).outcome == .finish)
    }

    @Test(arguments: [PresetName.bouncePresent, .semiModal])
    func presentationsFinishFromHalfByDraggingUp(_ name: PresetName) {
        #expect(Self.decide(name, translation: Vector2(x: 0, y: -0.49 * Self.height)).outcome == .cancel)
        #expect(Self.decide(name, translation: Vector2(x: 0, y: -0.5 * Self.height)).outcome == .finish)
    }

    @Test
    func parallaxPushIsDecidedBySignOfVxAlone() {
        let far = Vector2(x: -0.9 * Self.width, y: 0)
        let near = Vector2(x: -0.1 * Self.width, y: 0)
        #expect(Self.decide(.parallaxPush, translation: far, velocity: Vector2(x: 1, y: 0)).outcome == .cancel)
        #expect(Self.decide(.parallaxPush, translation: near, velocity: Vector2(x: -1, y: 0)).outcome == .finish)
        #expect(Self.decide(.parallaxPush, translation: near, velocity: .zero).outcome == .finish)
        #expect(Self.decide(.parallaxPush, translation: far, velocity: Vector2(x: 0.001, y: -5000)).outcome == .cancel)
    }

    @Test
    func uikitPercentFinishesAtHalf() {
        #expect(Self.decide(.uikitPercent, translation: Vector2(x: 0.49 * Self.width, y: 0)).outcome == .cancel)
        #expect(Self.decide(.uikitPercent, translation: Vector2(x: 0.5 * Self.width, y: 0)).outcome == .finish)
        #expect(Self.decide(.uikitPercent, translation: Vector2(x: 0.9 * Self.width, y: 0), phase: .cancelled).outcome == .cancel)
    }

    @Test
    func bestProjectsTheReleaseVelocity() {
        // p0 = 0.3 on W = 390: finish needs v_p ≥ 0.2/0.499 ⇒ v ≥ 156.3 pt/s.
        let translation = Vector2(x: 0.3 * Self.width, y: 0)
        let slow = Self.decide(.best, translation: translation, velocity: Vector2(x: 155, y: 0))
        #expect(slow.outcome == .cancel)
        #expect(slow.basis == .projection)
        #expect(Self.decide(.best, translation: translation, velocity: Vector2(x: 158, y: 0)).outcome == .finish)
    }

    @Test
    func bestUsesEightyPercentDampingForFastReleases() {
        let preset = Preset(.best)
        guard case .spring(let spring) = preset.completion else {
            Issue.record("best should complete on a spring")
            return
        }
        #expect(abs(spring.effectiveSpring(axisVelocity: 1200).dampingRatio - 0.8) < 1e-12)
        #expect(abs(spring.effectiveSpring(axisVelocity: 1199).dampingRatio - 1) < 1e-12)
        #expect(abs(spring.spring.response - 0.4) < 1e-12)
    }
}
