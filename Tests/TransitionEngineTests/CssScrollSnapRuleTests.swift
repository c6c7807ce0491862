import Testing
@testable import TransitionEngine

/// Chromium's scroll snap after a fling: its own unit tests' numbers
/// (`cc/input/snap_fling_curve_unittest.cc`, `snap_fling_controller_unittest.cc`,
/// `scroll_snap_data_unittest.cc`), and the rule on both sides of its gates.
struct CssScrollSnapRuleTests {
    /// SnapFlingCurveTest, decay prediction enabled: current delta −8 after each previous delta.
    @Test(arguments: [
        (nil as Double?, nil as Double?), (-8, nil), (-6, nil), (-10, -40), (-8.1, nil)
    ])
    func theDisplacementIsEstimatedOnlyFromADecayingDelta(previous: Double?, expected: Double?) {
        let estimate = previous.flatMap { CssScrollSnapRule.estimate(-8, previous: $0, allowsSlowDecay: false) }
        if let expected {
            #expect(abs((estimate ?? .nan) - expected) < 1e-9)
        } else {
            #expect(estimate == nil)
        }
    }

    /// SnapFlingControllerTest: −10 then −12 does not snap (an acceleration), then −9 snaps with
    /// −36; −10, −9.7, −9.409 decay too slowly, and the third decaying update, −9.12673, snaps
    /// with about −304.2.
    @Test func slowDecayIsAllowedAfterThreeDecayingUpdates() throws {
        #expect(CssScrollSnapRule.estimate(-12, previous: -10, allowsSlowDecay: false) == nil)
        #expect(abs((CssScrollSnapRule.estimate(-9, previous: -12, allowsSlowDecay: false) ?? 0) + 36) < 1e-9)
        #expect(CssScrollSnapRule.estimate(-9.7, previous: -10, allowsSlowDecay: false) == nil)
        #expect(CssScrollSnapRule.estimate(-9.409, previous: -9.7, allowsSlowDecay: false) == nil)
        let slow = try #require(CssScrollSnapRule.estimate(-9.12673, previous: -9.409, allowsSlowDecay: true))
        #expect(abs(slow + 304.2) < 0.1)
    }

    /// ScrollSnapDataTest: snap-stop areas at 200 and 400 and a plain one at 600; a fling from 0
    /// by 600 stops at 200. Mandatory with nothing ahead snaps back to the nearest.
    @Test func snapStopAndNothingAheadFollowChromium() {
        var rule = CssScrollSnapRule()
        rule.stopsAlways = true
        #expect(rule.choose(from: 0, displacement: 600, snaps: [0, 200, 400, 600]) == 1)
        rule.stopsAlways = false
        #expect(rule.choose(from: 0, displacement: 600, snaps: [0, 200, 400, 600]) == 3)
        #expect(rule.choose(from: 650, displacement: 15, snaps: [0, 200, 400, 600]) == 3)
        // Strictly ahead: the point the scroller is at is not a candidate.
        #expect(rule.choose(from: 200, displacement: 10, snaps: [0, 200, 400, 600]) == 2)
    }

    @Test func aReleaseThatIsNoFlingSnapsToTheNearestPoint() throws {
        let sheet = try SheetLayout(detents: [0, 300, 600, 800], screenHeight: 900)
        let rule = CssScrollSnapRule()
        // At 420 pt, 30 px/s is no fling: nearest is 300. 31 px/s is a fling, but 0.2 px long:
        // it runs out before any update decays, and the scroll snaps where it stops.
        let still = rule.decide(DetentRelease(start: 1, position: 420, velocity: 30), on: sheet)
        #expect(still.outcome == .detent(1) && still.reason.hasPrefix("no fling"))
        let slow = rule.decide(DetentRelease(start: 1, position: 420, velocity: 31), on: sheet)
        #expect(slow.outcome == .detent(1) && slow.reason.contains("ran out"))
        // A real fling downward (−v in scroll terms) is predicted from its decaying frames.
        let fast = rule.decide(DetentRelease(start: 1, position: 420, velocity: 1500), on: sheet)
        #expect(fast.reason.contains("predicted"))
    }

    @Test func thePhysicsFlingCoversVSquaredOverTwiceItsDeceleration() {
        let fling = PhysicsFling(velocity: 1000, viewport: 800)
        #expect(abs(fling.distance - 1 / (2 * 96 * 2.7559e-5)) < 1e-9)
        #expect(abs(fling.duration - 1000.0 / 2300) < 1e-12)
        #expect(PhysicsFling(velocity: -20000, viewport: 800).distance == -2400)
        #expect(fling.offset(at: 10) == fling.distance)
    }

    /// The scroller stops at its ends while the finger goes on: a drag past an end and back moves
    /// it from that end (the Chromium loop's gesture that dragged 265 pt down from offset 200 and
    /// came back 100 pt stopped at offset 100, not 50). The slop is taken once, at the start.
    @Test func theScrollerStopsAtItsEndsWhileTheFingerGoesOn() throws {
        // Snap offsets 0, 200, 500, 800 as top-edge positions: detents 0, 300, 600, 800.
        let sheet = try SheetLayout(detents: [0, 300, 600, 800], screenHeight: 900)
        let rule = CssScrollSnapRule()
        // From offset 200 (top 600): down 265 (past offset 0, top 800), then back up 100.
        let path = [0.0, 17, 100, 200, 265, 240, 200, 165]
        let release = DetentRelease(start: 2, position: 600 + 165, velocity: 0, path: path)
        #expect(rule.scrolledTop(release, on: sheet) == 700)  // offset 100
        // Without a path, the net drag less the slop: offset 50.
        #expect(rule.scrolledTop(DetentRelease(start: 2, position: 765, velocity: 0), on: sheet) == 750)
        // Within the slop nothing scrolls; just past it the scroll is the excess.
        #expect(rule.scrolledTop(DetentRelease(start: 2, position: 615, velocity: 0, path: [0, 10, 15]), on: sheet) == 600)
        #expect(rule.scrolledTop(DetentRelease(start: 2, position: 616, velocity: 0, path: [0, 10, 16]), on: sheet) == 601)
        // Monotonic drags inside the range agree with the net rule.
        #expect(rule.scrolledTop(DetentRelease(start: 2, position: 500, velocity: 0, path: [0, -20, -60, -100]), on: sheet) == 515)
        // Released at offset 101 with no fling: the nearest snap point is 200 (detent 2), where
        // Chromium put it; read from the net drag (offset 51) it would be 0 (detent 3).
        let back = DetentRelease(start: 2, position: 764, velocity: 0, path: [0.0, 17, 100, 200, 265, 240, 200, 164])
        #expect(rule.decide(back, on: sheet).outcome == .detent(2))
        #expect(rule.decide(DetentRelease(start: 2, position: 764, velocity: 0), on: sheet).outcome == .detent(3))
    }
}
