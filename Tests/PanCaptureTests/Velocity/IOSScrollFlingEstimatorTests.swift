import PanTrace
import Testing

@testable import PanCapture

/// Flutter's `IOSScrollViewFlingVelocityTracker` test "Makes consistent velocity estimates
/// with consistent velocity", read from the vectors.
struct IOSScrollFlingEstimatorTests {
    @Test(.needsVelocityVectors) func consistentMotionGivesExactlyThatVelocityFromTheFourthSampleOn() throws {
        let vectors = try FlutterVelocityVectors.load()
        let loop = try #require(
            vectors.syntheticLoopCases.first { $0.test.hasPrefix("Makes consistent velocity") })
        let queries = Set(try #require(loop.queryAfterIndices))
        #expect(loop.tolerance.type == "exact")
        let expected = PanVector(x: loop.expected.vx, y: loop.expected.vy)

        var tracker = VelocityTracker(strategy: .flutter)
        for (index, sample) in loop.samples.enumerated() {
            tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
            if queries.contains(index) {
                let velocity = tracker.iOSScrollFlingVelocity()
                #expect(velocity == expected, "after sample \(index): \(velocity)")
            }
        }
    }

    @Test func missingSamplesAndZeroTimeStepsContributeNothing() {
        var tracker = VelocityTracker(strategy: .flutter)
        #expect(tracker.iOSScrollFlingVelocity() == .zero)
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 10, y: 0, atNanoseconds: 10_000_000)
        // Only v(0) exists: 1000 px/s weighted 0.05.
        #expect(tracker.iOSScrollFlingVelocity() == PanVector(x: 1000 * 0.05, y: 0))
        tracker.add(x: 20, y: 0, atNanoseconds: 10_000_000)
        // v(0) now has dt = 0; v(−1) is 1000 px/s weighted 0.35.
        #expect(tracker.iOSScrollFlingVelocity() == PanVector(x: 1000 * 0.35, y: 0))
    }
}
