import PanCapture
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay

struct GestureTrackTests {
    @Test(arguments: VelocitySource.allCases)
    func theReleaseStateIsTheOneTheEngineComputes(source: VelocitySource) throws {
        for trace in Fixtures.swipes(10, seed: 12) {
            let track = try GestureTrack(trace: trace, velocity: source)
            let preset = Preset(.best)
            var transition = InteractiveTransition(preset: preset, screen: track.screen)
            for input in track.inputs { _ = transition.handle(input) }
            #expect(track.releaseState(preset: preset) == transition.release)
        }
    }

    @Test
    func recordedVelocityIsTheTracesOwn() throws {
        let trace = Fixtures.swipes(1)[0]
        let track = try GestureTrack(trace: trace, velocity: .recorded)
        #expect(track.release.velocity == Vector2(x: trace.samples.last!.velocity.x, y: trace.samples.last!.velocity.y))
    }

    @Test(arguments: [VelocitySource.lsq2, .impulse, .flutter])
    func recomputedVelocityIsWhatThePlatformReportsAtTheLift(source: VelocitySource) throws {
        let trace = Fixtures.swipes(1, seed: 21)[0]
        let track = try GestureTrack(trace: trace, velocity: source)
        let stream = trace.samples.map { sample -> VelocitySample in
            let phase: VelocitySample.Phase = sample.phase == .began ? .down : (sample.phase == .changed ? .move : .up)
            return VelocitySample(nanoseconds: Int64((sample.time * 1e9).rounded()), x: sample.translation.x, y: sample.translation.y, phase: phase)
        }
        let strategy = try #require(source.strategy)
        let release = try #require(VelocityFeeder.releases(of: stream, strategy: strategy).last)
        let expected = release.velocity.map { Vector2(x: $0.x, y: $0.y) } ?? .zero
        #expect(track.release.velocity == expected)
        #expect(track.release.velocity != Vector2(x: trace.samples.last!.velocity.x, y: trace.samples.last!.velocity.y))
    }

    @Test
    func samplesAfterTheReleaseAreNotReplayed() throws {
        var trace = Fixtures.handMade(times: [0, 0.01, 0.02])
        trace.samples.append(PanSample(time: 0.03, phase: .began, translation: .zero, velocity: .zero))
        let track = try GestureTrack(trace: trace, velocity: .recorded)
        #expect(track.inputs.count == 3)
        #expect(track.release.phase == .ended)
    }

    @Test
    func aCancelledSampleIsARelease() throws {
        let track = try GestureTrack(trace: Fixtures.handMade(times: [0, 0.01, 0.02], endPhase: .cancelled), velocity: .recorded)
        #expect(track.release.phase == .cancelled)
    }

    @Test
    func aGestureThatEndsBeforeItBeginsIsRejected() {
        let trace = Trace(
            metadata: TraceMetadata(id: "lift-only"),
            samples: [
                PanSample(time: 0, phase: .ended, translation: .zero, velocity: .zero)
            ])
        #expect(throws: ReplayError.self) { try GestureTrack(trace: trace, velocity: .recorded) }
    }
}
