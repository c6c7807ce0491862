import PanTrace
import Testing

@testable import PanCapture

/// Android's own `VelocityTracker_test.cpp` checks, replayed through ``VelocityFeeder``, plus
/// the feeder's lift and cancel rules.
struct VelocityFeederTests {
    /// Checks of other pointers than the one PanTrace tracks, with why they do not apply.
    /// `checksOfUntrackedPointersAreExactlyTheNotApplicableList` keeps this list honest.
    static let notApplicable: [String: String] = [
        "MultiPointerResampledData/pointer1":
            "pointer 1 lands second; PanTrace tracks only the first pointer, like "
            + "UIScreenEdgePanGestureRecognizer ignoring extra touches",
        "ActionPointerCancelResultsInZeroVelocityForThatPointer/pointer1":
            "the cancelled pointer is the second one; PanTrace never tracks it",
        "LongDelayBeforeActionPointerUp/pointer1":
            "pointer 1 lands second; PanTrace tracks only the first pointer"
    ]

    // MARK: - Android vectors

    @Test(.needsVelocityVectors, arguments: try AndroidVectorCheck.applicable())
    func androidCheckPassesWithinItsOwnTolerance(_ check: AndroidVectorCheck) throws {
        let releases = VelocityFeeder.releases(of: check.samples, strategy: check.strategy)
        let release = try #require(
            releases.last, "\(check): the converted stream has no lift or cancel")
        #expect(release.nanoseconds == check.queryNanoseconds, "\(check): lift is not the query")

        var actual = release.velocity.map { check.axis == "X" ? $0.x : $0.y }
        if let api = check.api, let velocity = release.velocity {
            let (units, maxVelocity) = try AndroidVectorCheck.computedVelocityArguments(api)
            let computed = velocity.androidComputed(units: units, maxVelocity: maxVelocity)
            actual = check.axis == "X" ? computed.x : computed.y
        }

        let verdict = check.rule.judge(actual: actual, expected: check.expected)
        #expect(verdict.isPassing, "\(check): \(verdict.explanation)")
    }

    @Test(.needsVelocityVectors) func everyPlanarCheckIsEitherRunOrListedNotApplicable() throws {
        let vectors = try AndroidVelocityVectors.load()
        let total = vectors.cases.reduce(0) { $0 + $1.checks.count }
        let run = try AndroidVectorCheck.applicable().count
        let skipped = try AndroidVectorCheck.untrackedPointerChecks().count
        #expect(vectors.cases.count == 37, "README: 37 planar cases")
        #expect(total == 103, "README: 103 planar checks")
        #expect(run + skipped == total)
    }

    @Test(.needsVelocityVectors) func checksOfUntrackedPointersAreExactlyTheNotApplicableList() throws {
        let untracked = Set(try AndroidVectorCheck.untrackedPointerChecks().map(\.skipKey))
        #expect(untracked == Set(Self.notApplicable.keys))
        for (key, reason) in Self.notApplicable {
            #expect(!reason.isEmpty, "\(key) needs a reason")
        }
    }

    /// `TestDefaultStrategiesForPlanarAxes` has no number: it asserts DEFAULT == LSQ2.
    @Test(.needsVelocityVectors) func androidDefaultStrategyIsLeastSquaresOnTheDefaultStrategiesCase() throws {
        let vectors = try AndroidVelocityVectors.load()
        let testCase = try #require(
            vectors.cases.first { $0.name == "TestDefaultStrategiesForPlanarAxes" })
        #expect(testCase.checks.isEmpty)
        let samples = testCase.trackedPointerSamples()
        let byDefault = VelocityFeeder.releases(of: samples, strategy: .androidDefault)
        let byLSQ2 = VelocityFeeder.releases(of: samples, strategy: .lsq2)
        #expect(VelocityStrategy.androidDefault == .lsq2)
        #expect(byDefault == byLSQ2)
        #expect(byDefault.last?.velocity != nil)
    }

    // MARK: - Lift and cancel rules

    @Test(arguments: [
        (VelocityStrategy.lsq2, Int64(40_000_000), true),
        (.lsq2, 40_000_001, false),
        (.impulse, 40_000_000, true),
        (.impulse, 40_000_001, false)
    ])
    func androidReportsNoVelocityWhenTheLiftComesMoreThan40msAfterTheLastMove(
        strategy: VelocityStrategy, liftDelay: Int64, hasVelocity: Bool
    ) {
        let samples = Self.steadySwipe(liftDelay: liftDelay)
        let velocity = VelocityFeeder.releases(of: samples, strategy: strategy).last?.velocity
        #expect((velocity != nil) == hasVelocity)
        if let velocity {
            #expect(abs(velocity.x - 500) < 0.01)
        }
    }

    @Test(arguments: [
        (Int64(40_999_999), false),
        (41_000_000, true)
    ])
    func flutterReportsZeroWhenTheLiftComesMoreThan40WholeMillisecondsAfterTheLastMove(
        liftDelay: Int64, isZero: Bool
    ) throws {
        let samples = Self.steadySwipe(liftDelay: liftDelay)
        let release = try #require(VelocityFeeder.releases(of: samples, strategy: .flutter).last)
        let velocity = try #require(release.velocity)
        #expect((velocity == .zero) == isZero)
    }

    @Test func androidCancelReportsNoVelocityAndForgetsTheHistory() {
        var feeder = VelocityFeeder(strategy: .lsq2)
        for sample in Self.steadySwipe(liftDelay: 0).dropLast() {
            _ = feeder.feed(sample)
        }
        let output = feeder.feed(
            VelocitySample(nanoseconds: 20_000_000, x: 10, y: 0, phase: .cancel))
        #expect(output == .cancelled(nil))
        #expect(feeder.tracker.sampleCount == 0)
    }

    @Test func flutterCancelReportsTheEstimateLikeALift() throws {
        var feeder = VelocityFeeder(strategy: .flutter)
        for sample in Self.steadySwipe(liftDelay: 0).dropLast() {
            _ = feeder.feed(sample)
        }
        let output = feeder.feed(
            VelocitySample(nanoseconds: 20_000_000, x: 10, y: 0, phase: .cancel))
        guard case .cancelled(let velocity) = output else {
            Issue.record("expected a cancel, got \(output)")
            return
        }
        let x = try #require(velocity?.x)
        #expect(abs(x - 500) < 1e-9)
    }

    @Test func liftPositionIsNeverAdded() {
        // A lift far from the last move would change any fit that used it.
        var samples = Self.steadySwipe(liftDelay: 0)
        samples[samples.count - 1].x = 10_000
        for strategy in VelocityStrategy.allCases {
            let velocity = VelocityFeeder.releases(of: samples, strategy: strategy).last?.velocity
            #expect(velocity.map { abs($0.x - 500) < 0.01 } == true, "\(strategy)")
        }
    }

    @Test func downStartsANewGestureOnEveryStrategy() {
        let first = Self.steadySwipe(liftDelay: 0)
        // A second gesture 30 ms later moving the other way: the 40 ms rules alone would keep
        // the first gesture's samples, so only the down can separate them.
        let second = [
            VelocitySample(nanoseconds: 50_000_000, x: 10, y: 0, phase: .down),
            VelocitySample(nanoseconds: 60_000_000, x: 5, y: 0, phase: .move),
            VelocitySample(nanoseconds: 70_000_000, x: 0, y: 0, phase: .move),
            VelocitySample(nanoseconds: 70_000_000, x: 0, y: 0, phase: .up)
        ]
        for strategy in VelocityStrategy.allCases {
            let releases = VelocityFeeder.releases(of: first + second, strategy: strategy)
            #expect(releases.count == 2)
            let x = releases.last?.velocity?.x
            #expect(x.map { abs($0 + 500) < 0.01 } == true, "\(strategy): \(String(describing: x))")
        }
    }

    /// 0, 5, 10 px at 0, 10, 20 ms (500 px/s), lifted `liftDelay` after the last move.
    static func steadySwipe(liftDelay: Int64) -> [VelocitySample] {
        [
            VelocitySample(nanoseconds: 0, x: 0, y: 0, phase: .down),
            VelocitySample(nanoseconds: 10_000_000, x: 5, y: 0, phase: .move),
            VelocitySample(nanoseconds: 20_000_000, x: 10, y: 0, phase: .move),
            VelocitySample(nanoseconds: 20_000_000 + liftDelay, x: 10, y: 0, phase: .up)
        ]
    }
}
