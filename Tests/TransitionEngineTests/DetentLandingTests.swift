import Testing
import TransitionEngine

/// A landing against the detent meant, on both sides of the target and of the start, on a
/// sheet of three detents (0 most expanded) and its closed position (rank 3).
struct DetentLandingTests {
    @Test(arguments: [
        // (landed, meant, start, expected)
        (DetentOutcome.detent(1), DetentOutcome.detent(1), 2, DetentLanding.hit),
        (.detent(0), .detent(1), 2, .skip),  // up from 2, past 1
        (.detent(2), .detent(1), 2, .stuck),  // stayed at the start
        (.dismissed, .detent(1), 2, .wrong),  // the other way
        (.detent(2), .detent(0), 2, .stuck),
        (.detent(1), .detent(0), 2, .stuck),  // between the start and the target
        (.dismissed, .detent(2), 0, .skip),  // down from 0, past 2
        (.dismissed, .dismissed, 0, .hit),
        (.detent(2), .dismissed, 0, .stuck),
        (.detent(1), .detent(1), 1, .hit),  // meant to stay, stayed
        (.detent(0), .detent(1), 1, .wrong),  // meant to stay, moved up
        (.detent(2), .detent(1), 1, .wrong)  // meant to stay, moved down
    ])
    func landings(landed: DetentOutcome, meant: DetentOutcome, start: Int, expected: DetentLanding) {
        #expect(DetentLanding(outcome: landed, meant: meant, start: start, detentCount: 3) == expected)
    }
}
