import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine

@testable import PanReplay

struct ReplaySeriesTests {
    static func replayer(_ trace: Trace, preset: String, overrides: [String: PresetValue] = [:]) throws -> Replayer {
        try Replayer(trace: trace, configuration: .init(parameters: ReplayParameters(presetNamed: preset, overrides: overrides)))
    }

    @Test(arguments: ["swipe-dismiss", "best"])
    func everyFrameIsAPointExactlyAsPlayingGivesIt(preset: String) throws {
        let trace = preset == "best" ? Fixtures.edgeSwipes(1)[0] : Fixtures.swipes(1)[0]
        var played = try Self.replayer(trace, preset: preset)
        let series = ReplaySeries(of: played)
        let frames = played.remainingFrames()
        #expect(series.stride == 1)
        #expect(series.points.map(\.time) == frames.map(\.time))
        #expect(series.points.map(\.progress) == frames.map(\.progress))
        #expect(series.points.map(\.renderedProgress) == frames.map(\.renderedProgress))
        #expect(series.points.map(\.phase) == frames.map(\.phase))
        #expect(series.releaseReport == frames.first { $0.release != nil }?.release)
        #expect(series.keyframes.map(\.moment) == ["touch_down", "release", "mid_completion", "settle"])
        #expect(series.keyframes.first?.frame == frames.first)
        #expect(series.keyframes.last?.frame == frames.last)
        #expect(series.settle == frames.last?.time)
        // The finger is drawn only while it is down.
        #expect(series.points.allSatisfy { ($0.translation != nil) == ($0.time < series.release && $0.time >= series.touchDown) })
    }

    @Test func aLongReplayIsThinnedToTheMaximumWithItsLastFrameKept() throws {
        let trace = Fixtures.handMade(times: (0...400).map { Double($0) / 60 })
        var played = try Self.replayer(trace, preset: "swipe-dismiss")
        let series = ReplaySeries(of: played, maximumPoints: 100)
        let frames = played.remainingFrames()
        #expect(series.stride == (frames.count + 99) / 100)
        #expect(series.points.count <= 101)
        #expect(series.points.last?.time == frames.last?.time)
        #expect(series.points[1].time == frames[series.stride].time)
    }

    @Test func anEstimatorSaysZeroOnceTheFingerHasRestedLongerThanItsStopRule() throws {
        // Moves for 0.1 s, rests (no samples) until 0.5 s, then lifts.
        var trace = Fixtures.handMade(times: [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.5])
        trace.samples[6].translation = trace.samples[5].translation
        let series = ReplaySeries(of: try Self.replayer(trace, preset: "swipe-dismiss", overrides: ["velocity": .choice("lsq2")]))
        let moving = try #require(series.points.first { $0.time > 0.06 && $0.time <= 0.1 })
        let resting = try #require(series.points.first { $0.time > 0.1 + 0.041 && $0.time < 0.5 })
        #expect(try #require(moving.velocity).y > 100)
        #expect(resting.velocity == .zero, "Android's tracker reports nothing 40 ms after the last move")
        // Recorded velocity: joined between the samples, not held flat.
        let recorded = ReplaySeries(of: try Self.replayer(trace, preset: "swipe-dismiss"))
        let between = try #require(recorded.points.first { $0.time > 0.1 && $0.time < 0.5 })
        #expect(between.velocity?.y == 600)
    }
}
