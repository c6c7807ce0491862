import PanTrace
import Testing

@testable import PanCapture

struct PanRecognizerTests {
    static func event(_ ms: Double, _ x: Double, _ y: Double, _ phase: PointerEvent.Phase, _ pointer: Int = 0) -> PointerEvent {
        PointerEvent(nanoseconds: Int64((ms * 1e6).rounded()), x: x, y: y, phase: phase, pointer: pointer)
    }

    static func run(_ events: [PointerEvent], _ configuration: PanRecognizer.Configuration = .init()) -> [PanRecognizer.Action] {
        var recognizer = PanRecognizer(configuration: configuration)
        return events.map { recognizer.handle($0) }
    }

    @Test(arguments: [
        (PanVector(x: 10, y: 0), false),
        (PanVector(x: 10.001, y: 0), true),
        (PanVector(x: 6, y: 8), false),
        (PanVector(x: -6, y: -8.001), true)
    ])
    func beginsOnlyOnceTheMoveIsStrictlyBeyondTheSlop(offset: PanVector, begins: Bool) {
        let actions = Self.run([Self.event(0, 100, 100, .down), Self.event(10, 100 + offset.x, 100 + offset.y, .move)])
        if case .began = actions[1] { #expect(begins) } else { #expect(!begins, "\(actions[1])") }
    }

    @Test(arguments: [(8.0, false), (8.01, true)])
    func slopIsConfigurable(distance: Double, begins: Bool) {
        let actions = Self.run([Self.event(0, 0, 0, .down), Self.event(10, 0, distance, .move)], .init(slop: 8))
        if case .began = actions[1] { #expect(begins) } else { #expect(!begins) }
    }

    @Test func liftWithinTheSlopFails() {
        let actions = Self.run([Self.event(0, 50, 50, .down), Self.event(10, 55, 50, .move), Self.event(20, 55, 50, .up)])
        #expect(actions == [.none, .none, .failed(.liftedWithinSlop)])
    }

    @Test func cancelWithinTheSlopFailsAndCancelAfterBeganIsACancelledSample() throws {
        let early = Self.run([Self.event(0, 50, 50, .down), Self.event(10, 50, 50, .cancel)])
        #expect(early.last == .failed(.cancelledWithinSlop))
        let late = Self.run([Self.event(0, 50, 50, .down), Self.event(10, 80, 50, .move), Self.event(20, 90, 50, .cancel)])
        guard case .cancelled(let sample, let hasVelocity) = late.last else {
            Issue.record("expected a cancelled sample, got \(String(describing: late.last))")
            return
        }
        #expect(sample.phase == .cancelled)
        #expect(sample.translation == PanVector(x: 40, y: 0))
        #expect(!hasVelocity, "Android clears its tracker on cancel")
        #expect(sample.velocity == .zero)
    }

    @Test(arguments: [
        (ScreenEdge.left, PanVector(x: 20, y: 400), true), (.left, PanVector(x: 20.01, y: 400), false),
        (.right, PanVector(x: 370, y: 400), true), (.right, PanVector(x: 369.99, y: 400), false),
        (.top, PanVector(x: 100, y: 20), true), (.top, PanVector(x: 100, y: 20.5), false),
        (.bottom, PanVector(x: 100, y: 824), true), (.bottom, PanVector(x: 100, y: 823.9), false)
    ])
    func edgeModeBeginsOnlyForTouchesDownWithinTheZone(edge: ScreenEdge, down: PanVector, begins: Bool) {
        let configuration = PanRecognizer.Configuration(edge: edge, screen: .phone)
        let actions = Self.run(
            [Self.event(0, down.x, down.y, .down), Self.event(10, 195, 422, .move), Self.event(20, 195, 422, .up)], configuration)
        if begins {
            #expect(actions[0] == .none)
            if case .began = actions[1] {} else { Issue.record("expected began, got \(actions[1])") }
        } else {
            #expect(actions == [.failed(.outsideEdgeZone), .ignored(.afterGesture), .ignored(.afterGesture)])
        }
    }

    @Test func translationIsRelativeToTouchDownAndTimeToTheBeganEvent() throws {
        let actions = Self.run([
            Self.event(1000, 30, 40, .down), Self.event(1010, 31, 40, .move), Self.event(1020, 45, 38, .move),
            Self.event(1030, 60, 35, .move), Self.event(1040, 60, 35, .up)
        ])
        guard case .began(let began) = actions[2], case .changed(let changed) = actions[3], case .ended(let ended, _) = actions[4] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(began.time == 0)
        #expect(began.translation == PanVector(x: 15, y: -2))
        #expect(began.location == PanVector(x: 45, y: 38))
        #expect(changed.time == 0.01)
        #expect(changed.translation == PanVector(x: 30, y: -5))
        #expect(ended.time == 0.02)
        #expect(ended.phase == .ended)
    }

    @Test func aSecondPointerIsIgnoredAndDoesNotEndTheGesture() {
        let actions = Self.run([
            Self.event(0, 0, 0, .down), Self.event(10, 20, 0, .move), Self.event(15, 200, 200, .down, 7),
            Self.event(20, 300, 300, .move, 7), Self.event(25, 300, 300, .up, 7), Self.event(30, 40, 0, .move), Self.event(40, 40, 0, .up)
        ])
        #expect(actions[2] == .ignored(.extraPointer))
        #expect(actions[3] == .ignored(.extraPointer))
        #expect(actions[4] == .ignored(.extraPointer))
        guard case .changed(let sample) = actions[5] else {
            Issue.record("expected changed, got \(actions[5])")
            return
        }
        #expect(sample.translation == PanVector(x: 40, y: 0))
        if case .ended = actions[6] {} else { Issue.record("expected ended, got \(actions[6])") }
    }

    @Test func aNewGestureStartsOnlyAfterEveryPointerLifted() {
        var recognizer = PanRecognizer()
        _ = recognizer.handle(Self.event(0, 0, 0, .down))
        _ = recognizer.handle(Self.event(5, 0, 0, .down, 1))
        _ = recognizer.handle(Self.event(10, 50, 0, .move))
        _ = recognizer.handle(Self.event(20, 50, 0, .up))
        #expect(recognizer.state == .waitingForLift)
        let move = recognizer.handle(Self.event(30, 90, 0, .move, 1))
        let lift = recognizer.handle(Self.event(40, 90, 0, .up, 1))
        #expect(move == .ignored(.afterGesture))
        #expect(lift == .ignored(.afterGesture))
        #expect(recognizer.state == .idle)
        let down = recognizer.handle(Self.event(50, 0, 0, .down, 2))
        #expect(down == .none)
        #expect(recognizer.state == .possible)
    }

    @Test(arguments: [
        ([event(0, 0, 0, .move)], PanRecognizer.Rejection.notDown(.move, pointer: 0)),
        ([event(0, 0, 0, .up)], .notDown(.up, pointer: 0)),
        ([event(0, 0, 0, .down), event(1, 0, 0, .cancel, 3)], .notDown(.cancel, pointer: 3)),
        ([event(0, 0, 0, .down), event(1, 0, 0, .down)], .alreadyDown(pointer: 0)),
        ([event(10, 0, 0, .down), event(9.999999, 0, 0, .move)], .timeGoesBackwards(nanoseconds: 9_999_999, previous: 10_000_000)),
        ([event(0, 0, 0, .down), event(1, .nan, 0, .move)], .nonFiniteLocation(.move, pointer: 0)),
        ([event(0, .infinity, 0, .down)], .nonFiniteLocation(.down, pointer: 0))
    ])
    func streamsThatCannotHappenAreRejectedWithoutChangingState(events: [PointerEvent], rejection: PanRecognizer.Rejection) {
        var recognizer = PanRecognizer()
        for event in events.dropLast() { _ = recognizer.handle(event) }
        let before = recognizer.state
        let action = recognizer.handle(events.last!)
        #expect(action == .rejected(rejection))
        #expect(recognizer.state == before)
    }

    @Test func equalTimestampsAreAccepted() {
        let actions = Self.run([Self.event(0, 0, 0, .down), Self.event(0, 20, 0, .move), Self.event(0, 30, 0, .move)])
        #expect(!actions.contains { if case .rejected = $0 { true } else { false } })
    }

    @Test(arguments: [
        (VelocityStrategy.lsq2, 40.0, true), (.lsq2, 40.001, false),
        (.impulse, 40.0, true), (.impulse, 40.001, false),
        (.flutter, 40.999, true), (.flutter, 41.0, true)
    ])
    func releaseVelocityFollowsThePlatformsStoppedPointerRule(strategy: VelocityStrategy, liftDelay: Double, hasVelocity: Bool) {
        let actions = Self.run(
            [Self.event(0, 0, 0, .down), Self.event(10, 15, 0, .move), Self.event(20, 30, 0, .move), Self.event(20 + liftDelay, 30, 0, .up)],
            .init(velocity: strategy))
        guard case .ended(let sample, let reported) = actions[3] else {
            Issue.record("expected ended, got \(actions[3])")
            return
        }
        #expect(reported == hasVelocity)
        let isMoving = abs(sample.velocity.x - 1500) < 0.01
        // Flutter reports zero (a velocity, not none) once more than 40 whole milliseconds passed.
        #expect(isMoving == (strategy == .flutter ? liftDelay < 41 : hasVelocity))
    }

    @Test func sampleVelocityIsTheEstimateAfterEachMoveWithoutTheLiftPosition() {
        let actions = Self.run([
            Self.event(0, 0, 0, .down), Self.event(10, 15, 0, .move), Self.event(20, 30, 0, .move), Self.event(25, 500, 0, .up)
        ])
        guard case .changed(let changed) = actions[2], case .ended(let ended, true) = actions[3] else {
            Issue.record("unexpected \(actions)")
            return
        }
        #expect(abs(changed.velocity.x - 1500) < 0.01)
        #expect(ended.velocity == changed.velocity)
        #expect(ended.translation.x == 500)
    }
}
