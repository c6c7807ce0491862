import PanTrace
import Testing

@testable import PanCapture

/// Flutter's own `velocity_tracker_test.dart` gestures, and the history rules of each
/// strategy on both sides of every threshold.
struct VelocityTrackerTests {
    // MARK: - Flutter vectors

    @Test(.needsVelocityVectors, arguments: try FlutterVectorCase.all())
    func flutterGestureMatchesFlutterWithinATenthOfAPercent(_ vectorCase: FlutterVectorCase) throws {
        let tolerance = vectorCase.gesture.tolerance
        #expect(tolerance.type == "relative" && tolerance.strict == true)
        let rule = FlutterTolerance(fraction: try #require(tolerance.fraction))
        let expected = vectorCase.gesture.expected
        let actual = try vectorCase.replay()
        #expect(
            rule.accepts(actual: actual.x, expected: expected.vx),
            """
            \(vectorCase) flutter x: actual \(actual.x) vs expected \(expected.vx), \
            relative error \(rule.relativeError(actual: actual.x, expected: expected.vx))
            """)
        #expect(
            rule.accepts(actual: actual.y, expected: expected.vy),
            """
            \(vectorCase) flutter y: actual \(actual.y) vs expected \(expected.vy), \
            relative error \(rule.relativeError(actual: actual.y, expected: expected.vy))
            """)
    }

    /// The recorded expectations are Dart's shortest round-trip printing of the doubles
    /// Flutter computed, so an operation-for-operation port reproduces them exactly. (The
    /// interrupted case's `Offset(649.5, 3890.3)` was rounded by hand and is only checked
    /// within the tolerance above.)
    @Test(
        .needsVelocityVectors,
        arguments: try FlutterVectorCase.all().filter {
            $0.gesture.test == FlutterVectorCase.recordedTest
        })
    func flutterRecordedGestureIsReproducedBitForBit(_ vectorCase: FlutterVectorCase) throws {
        let actual = try vectorCase.replay()
        let expected = vectorCase.gesture.expected
        #expect(actual == PanVector(x: expected.vx, y: expected.vy), "\(vectorCase) flutter")
    }

    @Test(.needsVelocityVectors) func flutterVectorsHoldThirteenRecordedGesturesAndOneInterrupted() throws {
        let cases = try FlutterVectorCase.all()
        #expect(cases.filter { $0.gesture.test == FlutterVectorCase.recordedTest }.count == 13)
        #expect(cases.filter { $0.gesture.test == FlutterVectorCase.interruptedTest }.count == 1)
    }

    /// The feeder starts a fresh tracker at each down and gates the lift by 40 ms; on the
    /// recorded gestures (lifts 14–16 ms after the last move, gestures > 40 ms apart) that
    /// must give bit for bit what the Dart test's single, never-reset tracker gives.
    @Test(.needsVelocityVectors) func feederReportsWhatTheFlutterTestReadsForEveryRecordedGesture() throws {
        let cases = try FlutterVectorCase.all().filter {
            $0.gesture.test == FlutterVectorCase.recordedTest
        }
        let stream = cases.flatMap { $0.gesture.samples.map(\.velocitySample) }
        let releases = VelocityFeeder.releases(of: stream, strategy: .flutter)
        #expect(releases.count == cases.count)
        for (vectorCase, release) in zip(cases, releases) {
            #expect(release.velocity == (try vectorCase.replay()), "\(vectorCase)")
        }
    }

    @Test(.needsVelocityVectors) func flutterReportsExactlyZeroWhenThereAreNoRecentSamples() throws {
        let vectors = try FlutterVelocityVectors.load()
        let loop = try #require(
            vectors.syntheticLoopCases.first { $0.test.hasPrefix("Assume zero velocity") })
        var tracker = VelocityTracker(strategy: .flutter)
        for sample in loop.samples {
            tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
        }
        let expected = PanVector(x: loop.expected.vx, y: loop.expected.vy)
        // Samples 1 s apart: the walk back keeps one sample, fewer than 3.
        #expect(tracker.velocity() == expected)
        // `pumpAndSettle` lets the stopwatch run past 40 ms.
        let later = try #require(loop.samples.last).nanoseconds + 1_000_000_000
        #expect(tracker.velocity(atNanoseconds: later) == expected)
    }

    // MARK: - History rules

    @Test(arguments: [VelocityStrategy.lsq2, .impulse])
    func androidReplacesASampleWithTheSameTimestamp(strategy: VelocityStrategy) throws {
        var tracker = VelocityTracker(strategy: strategy)
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 5, y: 0, atNanoseconds: 10_000_000)
        tracker.add(x: 999, y: 0, atNanoseconds: 20_000_000)
        tracker.add(x: 10, y: 0, atNanoseconds: 20_000_000)
        #expect(tracker.sampleCount == 3)
        let velocity = try #require(tracker.velocity())
        #expect(abs(velocity.x - 500) < 0.01)
    }

    @Test func flutterKeepsSamplesWithTheSameTimestamp() {
        var tracker = VelocityTracker(strategy: .flutter)
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 5, y: 0, atNanoseconds: 10_000_000)
        tracker.add(x: 10, y: 0, atNanoseconds: 10_000_000)
        #expect(tracker.sampleCount == 3)
        #expect(tracker.flutterEstimate()?.durationMicroseconds == 10_000)
    }

    @Test(arguments: [
        (Int64(100_000_000), 5),
        (100_000_001, 4)
    ])
    func androidDropsSamplesMoreThan100msOlderThanTheNewest(newest: Int64, kept: Int) {
        for strategy in [VelocityStrategy.lsq2, .impulse] {
            var tracker = VelocityTracker(strategy: strategy)
            // 30 ms steps stay under the 40 ms pause rule; the first sample's age decides.
            for time: Int64 in [0, 30_000_000, 60_000_000, 90_000_000, newest] {
                tracker.add(x: 0, y: 0, atNanoseconds: time)
            }
            #expect(tracker.sampleCount == kept, "\(strategy)")
        }
    }

    @Test(arguments: [
        (VelocityStrategy.lsq2, Int64(40_000_000), 3),
        (.lsq2, 40_000_001, 1),
        (.impulse, 40_000_000, 3),
        (.impulse, 40_000_001, 1),
        (.flutter, 40_000_001, 3)
    ])
    func androidForgetsTheHistoryAfterAPauseLongerThan40ms(
        strategy: VelocityStrategy, pause: Int64, kept: Int
    ) {
        var tracker = VelocityTracker(strategy: strategy)
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 5, y: 0, atNanoseconds: 10_000_000)
        tracker.add(x: 10, y: 0, atNanoseconds: 10_000_000 + pause)
        #expect(tracker.sampleCount == kept)
    }

    @Test(arguments: [
        (Int64(40_000), true),
        (40_001, false)
    ])
    func flutterWalkBackStopsAtAGapLongerThan40ms(gapMicroseconds: Int64, isOldestUsed: Bool)
        throws
    {
        var tracker = VelocityTracker(strategy: .flutter)
        let gap = gapMicroseconds * 1000
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 1, y: 0, atNanoseconds: gap)
        tracker.add(x: 2, y: 0, atNanoseconds: gap + 8_000_000)
        tracker.add(x: 3, y: 0, atNanoseconds: gap + 16_000_000)
        let estimate = try #require(tracker.flutterEstimate())
        #expect(estimate.durationMicroseconds == (isOldestUsed ? 16_000 + gapMicroseconds : 16_000))
    }

    @Test(arguments: [
        (Int64(100_000), true),
        (100_001, false)
    ])
    func flutterWalkBackStopsAtSamplesOlderThan100ms(oldestAgeMicroseconds: Int64, isUsed: Bool)
        throws
    {
        var tracker = VelocityTracker(strategy: .flutter)
        let newest = oldestAgeMicroseconds * 1000
        // Steps of at most 40 ms from the oldest sample to the newest.
        var time: Int64 = 0
        while time < newest {
            tracker.add(x: Double(time) / 1e6, y: 0, atNanoseconds: time)
            time = min(time + 30_000_000, newest)
        }
        tracker.add(x: Double(newest) / 1e6, y: 0, atNanoseconds: newest)
        let estimate = try #require(tracker.flutterEstimate())
        #expect((estimate.durationMicroseconds == oldestAgeMicroseconds) == isUsed)
        #expect(abs(estimate.velocity.x - 1000) < 1e-6)
    }

    @Test(arguments: VelocityStrategy.allCases)
    func trackersKeepAtMost20Samples(strategy: VelocityStrategy) {
        var tracker = VelocityTracker(strategy: strategy)
        for step in 0..<25 {
            tracker.add(x: Double(step), y: 0, atNanoseconds: Int64(step) * 4_000_000)
        }
        #expect(tracker.sampleCount == 20)
    }

    @Test func flutterNeedsThreeSamplesElseReportsZero() {
        var tracker = VelocityTracker(strategy: .flutter)
        #expect(tracker.velocity() == .zero)
        tracker.add(x: 0, y: 0, atNanoseconds: 0)
        tracker.add(x: 5, y: 5, atNanoseconds: 10_000_000)
        #expect(tracker.velocity() == .zero)
        tracker.add(x: 10, y: 10, atNanoseconds: 20_000_000)
        #expect(tracker.velocity().map { abs($0.x - 500) < 1e-9 } == true)
    }

    @Test func leastSquaresNeedsTwoSamplesAndImpulseReportsZeroForOne() throws {
        var lsq2 = VelocityTracker(strategy: .lsq2)
        var impulse = VelocityTracker(strategy: .impulse)
        #expect(lsq2.velocity() == nil)
        #expect(impulse.velocity() == nil)
        lsq2.add(x: 3, y: 4, atNanoseconds: 0)
        impulse.add(x: 3, y: 4, atNanoseconds: 0)
        #expect(lsq2.velocity() == nil)
        #expect(impulse.velocity() == .zero)
        lsq2.add(x: 8, y: 4, atNanoseconds: 10_000_000)
        let line = try #require(lsq2.velocity())
        #expect(abs(line.x - 500) < 0.01 && line.y == 0)
    }

    @Test func clearForgetsEverySample() {
        for strategy in VelocityStrategy.allCases {
            var tracker = VelocityTracker(strategy: strategy)
            tracker.add(x: 0, y: 0, atNanoseconds: 0)
            tracker.add(x: 1, y: 0, atNanoseconds: 1_000_000)
            tracker.clear()
            #expect(tracker.sampleCount == 0)
        }
    }

    @Test func flutterConfidenceIsOneForAParabolaAndLowerForNoise() throws {
        var smooth = VelocityTracker(strategy: .flutter)
        var noisy = VelocityTracker(strategy: .flutter)
        for step in 0..<8 {
            let t = Double(step)
            let time = Int64(step) * 8_000_000
            smooth.add(x: 2 * t * t + 3 * t, y: -t, atNanoseconds: time)
            noisy.add(x: step.isMultiple(of: 2) ? 0 : 10, y: -t, atNanoseconds: time)
        }
        let perfect = try #require(smooth.flutterEstimate()).confidence
        let rough = try #require(noisy.flutterEstimate()).confidence
        #expect(abs(perfect - 1) < 1e-12)
        #expect(rough < 0.5)
        // Confidence never gates the velocity.
        #expect(noisy.velocity() != .zero)
    }

    @Test func flutterTurnsANegativeZeroEstimateIntoZero() {
        let estimate = FlutterEstimator.Estimate(
            velocity: PanVector(x: -0.0, y: 0), confidence: 1, durationMicroseconds: 0,
            offsetX: 0, offsetY: 0)
        let velocity = FlutterEstimator.velocity(of: estimate)
        #expect(velocity.x.sign == .plus)
    }

    // MARK: - Platform arithmetic

    @Test func androidFloatConstantsMatchTheCppLiterals() {
        // `static const float SECONDS_PER_NANO = 1E-9;` and the literal `0.000000001f`.
        #expect(AndroidVelocityTracking.secondsPerNanosecond.bitPattern == 0x3089_705F)
        // `static constexpr float sqrt2 = 1.41421356237;`
        #expect(ImpulseEstimator.sqrt2.bitPattern == 0x3FB5_04F3)
    }

    @Test func impulseOfASteadyMotionIsItsSpeed() throws {
        var tracker = VelocityTracker(strategy: .impulse)
        for step in 0..<6 {
            tracker.add(
                x: Double(step) * 5, y: Double(step) * -5, atNanoseconds: Int64(step) * 10_000_000)
        }
        let velocity = try #require(tracker.velocity())
        #expect(velocity == PanVector(x: 500, y: -500))
    }

    @Test(arguments: [
        (Int32(1000), Float.greatestFiniteMagnitude, 764.0, 764.0),
        (1_000_000, .greatestFiniteMagnitude, 764.0, 764_000.0),
        (1_000_000, 1000, 764.0, 1000.0),
        (1_000_000, 1000, -764.0, -1000.0),
        (1, 8000, 764.0, 0.764)
    ])
    func androidComputedVelocityScalesThenClampsEachAxis(
        units: Int32, maxVelocity: Float, velocity: Double, expected: Double
    ) {
        let computed = PanVector(x: velocity, y: 0).androidComputed(
            units: units, maxVelocity: maxVelocity)
        #expect(Float(computed.x) == Float(expected))
        #expect(computed.y == 0)
    }
}
