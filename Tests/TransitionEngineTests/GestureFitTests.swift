import Testing
import TransitionEngine

/// docs/MODEL.md §2.6 (fit), §3.10 (unreachable outcomes), §4.12 (the completion bound).
struct GestureFitTests {
    static let screen = Size(width: 390, height: 844)

    static func pan(_ points: [(Double, Double)]) -> [GestureInput] {
        points.enumerated().map { index, point in
            GestureInput(
                time: Double(index) * 0.01, phase: index == 0 ? .began : index == points.count - 1 ? .ended : .changed,
                translation: Vector2(x: point.0, y: point.1))
        }
    }

    static let swipeDown = pan([(0, 11), (1, 100), (2, 300), (1, 400)])

    @Test
    func aSwipeDownDoesNotDriveCircleRevealUntilItsDirectionIsDown() throws {
        let fit = GestureFit(inputs: Self.swipeDown, mapping: Preset(.circleReveal).mapping(screen: Self.screen))
        #expect(fit.verdict == .offAxis)
        #expect(fit.along == 2 && fit.across == 400)
        #expect(fit.suggestedDirection == .down)
        #expect(fit.explanation.contains("2 pt along x and 400 pt across"))
        let down = try Preset(named: "circle-reveal", overrides: ["direction": "down"])
        let driven = GestureFit(inputs: Self.swipeDown, mapping: down.mapping(screen: Self.screen))
        #expect(driven.fits)
        #expect(abs(driven.peakProgress - 400.0 / 390) < 1e-12 || driven.peakProgress == 1)
    }

    @Test(arguments: [(19.0, GestureFit.Verdict.noProgress), (20.0, .fits)])
    func progressMustReachFivePercent(_ reach: Double, _ verdict: GestureFit.Verdict) {
        // 0.05 × 390 = 19.5 pt along +x.
        let fit = GestureFit(inputs: Self.pan([(0, 0), (reach / 2, 0), (reach, 0)]), mapping: Preset(.zoom).mapping(screen: Self.screen))
        #expect(fit.verdict == verdict)
    }

    @Test
    func aDragTheOtherWayNeverReachesProgress() {
        let fit = GestureFit(inputs: Self.pan([(0, 0), (-100, 0), (-300, 0)]), mapping: Preset(.zoom).mapping(screen: Self.screen))
        #expect(fit.verdict == .noProgress)
        #expect(fit.suggestedDirection == .left)
        #expect(fit.explanation.contains("peak 0"))
    }

    @Test(arguments: [(-300.0, GestureFit.Verdict.fits), (300.0, .wrongWay)])
    func parallaxFollowsTheMagnitudeButNotAgainstItsDirection(_ x: Double, _ verdict: GestureFit.Verdict) {
        let fit = GestureFit(inputs: Self.pan([(0, 0), (x / 2, 0), (x, 0)]), mapping: Preset(.parallaxPush).mapping(screen: Self.screen))
        #expect(fit.verdict == verdict)
    }

    @Test(arguments: [(100.0, 100.0, GestureFit.Verdict.fits), (100.0, 101.0, .offAxis)])
    func alongMustBeAtLeastAcross(_ along: Double, _ across: Double, _ verdict: GestureFit.Verdict) {
        let fit = GestureFit(inputs: Self.pan([(0, 0), (along, across)]), mapping: Preset(.zoom).mapping(screen: Self.screen))
        #expect(fit.verdict == verdict)
    }

    @Test(arguments: [("right", ProgressMapping.Axis.x, 1.0), ("left", .x, -1.0), ("down", .y, 1.0), ("up", .y, -1.0)])
    func everyPresetTakesAnyDirectionAndTravel(_ direction: String, _ axis: ProgressMapping.Axis, _ sign: Double) throws {
        for name in PresetName.allCases {
            let preset = try Preset(name, overrides: ["direction": .choice(direction), "travel": 200, "travelUnit": "points"])
            let mapping = preset.mapping(screen: Self.screen)
            #expect(mapping.axis == axis && mapping.sign == sign && mapping.distance == 200)
        }
    }

    @Test(arguments: [
        ("zoom", "right", 1.0, "width"), ("zoom-custom", "right", 1.0, "width"), ("drawer", "right", 1.0, "width"),
        ("circle-reveal", "left", 1.0, "width"), ("swipe-dismiss", "down", 0.5, "height"), ("swipe-back", "right", 0.5, "width"),
        ("bounce-present", "up", 1.0, "height"), ("semi-modal", "up", 1.0, "height"), ("parallax-push", "left", 1.0, "width"),
        ("uikit-percent", "right", 1.0, "width"), ("best", "right", 1.0, "width")
    ])
    func defaultsAreTheSourcesMappings(_ name: String, _ direction: String, _ travel: Double, _ unit: String) throws {
        let preset = try Preset(named: name)
        #expect(preset.dragDirection.rawValue == direction && preset.travel == travel && preset.travelUnit == unit)
    }

    @Test(
        arguments: [
            (1.0, "greaterThan", "finish is unreachable"), (0.999, "greaterThan", nil), (1.0, "atLeast", nil),
            (0.0, "atLeast", "never cancels"), (0.0, "greaterThan", nil), (0.001, "atLeast", nil)
        ] as [(Double, String, String?)])
    func aThresholdThatMakesAnOutcomeUnreachableIsReported(_ threshold: Double, _ comparison: String, _ note: String?) throws {
        let preset = try Preset(named: "uikit-percent", overrides: ["threshold": .number(threshold), "comparison": .choice(comparison)])
        if let note {
            #expect(preset.unreachableOutcomes.count == 1 && preset.unreachableOutcomes[0].contains(note))
        } else {
            #expect(preset.unreachableOutcomes.isEmpty)
        }
        // A rubber band lets progress past the ends: both outcomes stay reachable.
        let banded = try Preset(
            named: "uikit-percent", overrides: ["threshold": .number(threshold), "comparison": .choice(comparison), "rubberBand": 0.55])
        #expect(banded.unreachableOutcomes.isEmpty)
    }

    /// `threshold = 1` on swipe-dismiss: every release cancels from wherever it is, with
    /// s = 1 − p0; from p0 = 1 that is D/0.001 = 1500 s, bounded to 10 s.
    @Test(arguments: [(1.0, true), (0.85, false)])
    func completionsAreBoundedToTenSeconds(_ p0: Double, _ bounded: Bool) throws {
        let preset = try Preset(named: "swipe-dismiss", overrides: ["threshold": 1])
        let release = ReleaseState(
            progress: p0, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: 422, phase: .ended, time: 0, lastMoveTime: 0)
        let decision = preset.policy.decide(release)
        #expect(decision.outcome == .cancel)
        let trajectory = preset.completion.trajectory(release: release, decision: decision)
        #expect(trajectory.isBounded == bounded)
        #expect(trajectory.duration <= CompletionTrajectory.maximumDuration)
        #expect(abs(trajectory.plannedDuration - p0 * 1.5 / max(1 - p0, 0.001)) < 1e-9)
        #expect(trajectory.progress(at: trajectory.duration) == 0)
        #expect(abs(trajectory.progress(at: trajectory.duration / 2) - p0 / 2) < 1e-9)
    }
}
