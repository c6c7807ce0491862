import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay

/// What a replay refuses to compute, and what seeking costs (docs/REPLAY.md, "Limits").
struct ReplayerBoundsTests {
    /// A trace whose release comes `span` seconds after its first sample.
    static func trace(spanning span: Double) -> Trace {
        var samples = Fixtures.swipes(1, seed: 5)[0].samples
        let release = samples.firstIndex { $0.phase.isTerminal }!
        let stretch = span / (samples[release].time - samples[0].time)
        let origin = samples[0].time
        for i in samples.indices { samples[i].time = origin + (samples[i].time - origin) * stretch }
        return Trace(metadata: TraceMetadata(id: "long"), samples: samples)
    }

    /// The hour is the bound: a gesture just inside it replays, one just past it is refused
    /// before any velocity is estimated or any frame counted.
    @Test(arguments: [(3000.0, true), (3601.0, false), (1e11, false)])
    func aGestureLongerThanAnHourIsRefused(span: Double, accepted: Bool) throws {
        let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: ["velocity": .choice("lsq2")])
        let make = { try Replayer(trace: Self.trace(spanning: span), configuration: .init(parameters: parameters, frameRate: 240)) }
        if accepted {
            #expect(try make().frameCount > 0)
        } else {
            let error = #expect(throws: ReplayError.self) { try make() }
            #expect(error?.description.contains("at most 3600 s") == true)
        }
    }

    @Test(arguments: [0.0, -1, Double.leastNonzeroMagnitude, .nan, .infinity])
    func aScreenOutsideTheLimitsIsRefused(width: Double) throws {
        var trace = Fixtures.swipes(1, seed: 5)[0]
        trace.metadata.screen.width = width
        let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: [:])
        #expect(throws: ReplayError.self) { try Replayer(trace: trace, configuration: .init(parameters: parameters)) }
    }

    /// Seeking to any frame, forwards or back, gives exactly the frame that drawing every
    /// frame up to it gives.
    @Test(arguments: [60.0, 240.0])
    func seekingGivesTheFrameThatPlayingGives(fps: Double) throws {
        for trace in Fixtures.swipes(3, seed: 9) {
            let parameters = try ReplayParameters(presetNamed: "swipe-back", overrides: [:])
            var sequential = try Replayer(trace: trace, configuration: .init(parameters: parameters, frameRate: fps))
            let frames = sequential.remainingFrames()
            var seeker = try Replayer(trace: trace, configuration: .init(parameters: parameters, frameRate: fps))
            var generator = SeededGenerator(seed: 17)
            for _ in 0..<60 {
                let index = Int(generator.next() % UInt64(frames.count))
                seeker.seek(toFrame: index)
                #expect(seeker.nextFrame() == frames[index])
            }
            seeker.seek(toFrame: frames.count + 10)
            #expect(seeker.isFinished)
        }
    }
}
