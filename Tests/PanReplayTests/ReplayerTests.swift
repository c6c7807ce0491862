import Foundation
import PanTrace
import GestureFixtures
import Testing
import TransitionEngine
@testable import PanReplay

struct ReplayerTests {
    static func replayer(_ trace: Trace, preset: String = "swipe-dismiss", _ overrides: [String: PresetValue] = [:], fps: Double = 60) throws
        -> Replayer
    {
        let parameters = try ReplayParameters(presetNamed: preset, overrides: overrides)
        return try Replayer(trace: trace, configuration: Replayer.Configuration(parameters: parameters, frameRate: fps))
    }

    static func jsonl(_ replayer: Replayer) throws -> Data {
        var replayer = replayer
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        while let frame = replayer.nextFrame() { data.append(try encoder.encode(frame)); data.append(0x0A) }
        data.append(try encoder.encode(replayer.summary))
        return data
    }

    @Test(arguments: [60.0, 120.0, 240.0])
    func theSameInputsGiveByteIdenticalOutput(fps: Double) throws {
        for trace in Fixtures.swipes(6) {
            let first = try Self.jsonl(try Self.replayer(trace, fps: fps))
            let second = try Self.jsonl(try Self.replayer(trace, fps: fps))
            #expect(first == second)
            #expect(!first.isEmpty)
        }
    }

    @Test(arguments: [60.0, 120.0, 240.0])
    func eachFrameShowsTheLatestSampleAtOrBeforeItsTime(fps: Double) throws {
        let trace = Fixtures.swipes(1, seed: 3)[0]
        var replayer = try Self.replayer(trace, fps: fps)
        let releaseTime = replayer.track.release.time
        var index = 0
        while let frame = replayer.nextFrame() {
            #expect(frame.time == replayer.time(ofFrame: index))
            let expected = replayer.track.inputs.last { $0.time <= frame.time }
            #expect(frame.gesture == expected)
            if frame.time < releaseTime {
                #expect(frame.phase == .interactive)
                // Only `changed` moves the transition (docs/MODEL.md §1.3): the frame shows the latest
                // `changed` sample at or before it, and 0 before the first.
                let mapping = replayer.configuration.parameters.preset.mapping(screen: replayer.track.screen)
                let changed = replayer.track.inputs.last { $0.time <= frame.time && $0.phase == .changed }
                #expect(frame.progress == (changed.map { mapping.progress(for: $0.translation) } ?? 0))
            }
            index += 1
        }
        #expect(index == replayer.frameCount)
    }

    @Test
    func aSampleExactlyOnAFrameTimeIsUsedByThatFrame() throws {
        // Samples at 0, 1/60 (a frame time), and between frames.
        let trace = Fixtures.handMade(times: [0, 1.0 / 60, 0.025, 0.04])
        var replayer = try Self.replayer(trace)
        let frame0 = replayer.nextFrame()
        let frame1 = replayer.nextFrame()
        let frame2 = replayer.nextFrame()
        #expect(frame0?.gesture?.time == 0)
        #expect(frame1?.gesture?.time == 1.0 / 60)
        #expect(frame2?.gesture?.time == 0.025)
    }

    @Test
    func framesRunFromTheFirstSampleToTheFirstFrameAtOrAfterTheCompletion() throws {
        let trace = Fixtures.swipes(3, seed: 5)[2]
        var replayer = try Self.replayer(trace, fps: 120)
        let end = replayer.summary.releaseTime + replayer.summary.completionTime
        let frames = replayer.remainingFrames()
        #expect(frames.count == replayer.summary.frames)
        #expect(frames.first?.time == trace.samples[0].time)
        #expect(frames.last!.time >= end)
        #expect(frames.dropLast().last!.time < end)
        #expect([.finished, .cancelled].contains(frames.last!.phase))
        #expect(replayer.nextFrame() == nil)
    }

    @Test
    func theReleaseFrameCarriesTheDecisionAndNoOtherFrameDoes() throws {
        let trace = Fixtures.swipes(2, seed: 9)[1]
        var replayer = try Self.replayer(trace)
        let frames = replayer.remainingFrames()
        let reports = frames.filter { $0.release != nil }
        #expect(reports.count == 1)
        let report = try #require(reports.first?.release)
        #expect(report.decision.outcome == replayer.summary.decision)
        #expect(report.reason == replayer.summary.reason)
        #expect(reports[0].time >= replayer.summary.releaseTime)
    }

    @Test
    func theSummaryMatchesTheEngineMetrics() throws {
        for trace in Fixtures.swipes(8, seed: 2) {
            let replayer = try Self.replayer(trace)
            let track = replayer.track
            let preset = Preset(.swipeDismiss)
            let release = track.releaseState(preset: preset)
            let metrics = TransitionMetrics(release: release, preset: preset, displayFrameRate: 60)
            let summary = replayer.summary
            #expect(summary.type == "summary")
            #expect(summary.decision == metrics.outcome)
            #expect(summary.reason == metrics.reason)
            #expect(summary.margin == metrics.margin)
            #expect(summary.completionTime == metrics.completionTime)
            #expect(summary.overshoot == metrics.overshoot)
            #expect(summary.discontinuity == metrics.velocityDiscontinuity)
            #expect(summary.isFlipProne == metrics.isFlipProne)
            #expect(summary.releaseTime == trace.samples.last!.time)
            #expect(summary.isCorrect == (trace.metadata.intent.outcome == metrics.outcome))
        }
    }

    @Test
    func theSummaryEncodesTheDocumentedKeys() throws {
        let replayer = try Self.replayer(Fixtures.swipes(1)[0])
        let data = try JSONEncoder().encode(replayer.summary)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in [
            "type", "decision", "reason", "margin", "release_s", "completion_s", "overshoot", "discontinuity_pt_s", "flip_prone", "rule",
            "completion_model", "frames", "intent", "correct"
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["type"] as? String == "summary")
        #expect(object["pacing"] == nil)
    }

    @Test(arguments: [(0.49, "cancel"), (0.51, "finish")])
    func thresholdDecidesOnBothSides(progressAtRelease: Double, expected: String) throws {
        // swipe-dismiss: p = ty / (H/2); finish iff p > 0.5.
        let height = ScreenGeometry.phone.height
        let ty = progressAtRelease * height / 2
        let samples = [
            PanSample(time: 0, phase: .began, translation: PanVector(x: 0, y: 10), velocity: .zero),
            PanSample(time: 0.1, phase: .changed, translation: PanVector(x: 0, y: ty), velocity: .zero),
            PanSample(time: 0.2, phase: .ended, translation: PanVector(x: 0, y: ty), velocity: .zero)
        ]
        let trace = Trace(metadata: TraceMetadata(id: "edge"), samples: samples)
        #expect(try Self.replayer(trace).summary.decision.rawValue == expected)
    }

    @Test
    func analyticPresetsEndInTheSameStateAt60120And240Hz() throws {
        let trace = Fixtures.swipes(1, seed: 4)[0]
        let summaries = try [60.0, 120.0, 240.0].map { try Self.replayer(trace, fps: $0).summary }
        #expect(Set(summaries.map(\.decision)).count == 1)
        #expect(Set(summaries.map(\.completionTime)).count == 1)
    }

    @Test
    func aTraceWithoutAReleaseIsRejectedWithTheReason() throws {
        var trace = Fixtures.swipes(1)[0]
        trace.samples.removeLast()
        let error = #expect(throws: ReplayError.self) { try Self.replayer(trace) }
        #expect(error?.description.contains("no ended or cancelled sample") == true)
    }

    @Test
    func pacedReplayOnAVirtualClockGivesTheSameFramesWithoutLateness() async throws {
        let trace = Fixtures.swipes(1, seed: 6)[0]
        let virtual = try Self.replayer(trace, fps: 120)
        var expected = virtual
        let frames = expected.remainingFrames()
        var paced = virtual
        let clock = VirtualClock()
        var emitted: [FrameState] = []
        let report = try await paced.run(clock: clock, speed: 2) { emitted.append($0) }
        #expect(emitted == frames)
        #expect(report.frames == frames.count)
        #expect(report.maximumError == 0)
        // At speed 2 the last frame is due half its gesture time after the start.
        let lastOffset = frames.last!.time - frames.first!.time
        #expect(abs(Double(clock.now.offset.components.seconds) + Double(clock.now.offset.components.attoseconds) * 1e-18 - lastOffset / 2) < 1e-6)
    }

    @Test
    func snapshotsAgreeWithFrameStates() throws {
        let trace = Fixtures.swipes(1, seed: 8)[0]
        var a = try Self.replayer(trace, preset: "best")
        var b = a
        while let snapshot = a.nextSnapshot() {
            let frame = b.nextFrame()
            #expect(snapshot.progress == frame?.progress)
            #expect(Array(snapshot.layers) == frame?.layers)
        }
        #expect(b.nextFrame() == nil)
    }
}
