import Foundation
import PanCapture
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

/// The golden fixtures in Fixtures/protocol are shared with the viewer's tests
/// (web/tests/protocol.test.mjs). Re-record the server ones with PANTRACE_RECORD_FIXTURES=1.
struct WireMessageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/protocol")

    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    static var clientFixtures: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("client").path).sorted()) ?? []
    }

    @Test func everyClientMessageTypeHasAFixture() {
        #expect(Self.clientFixtures.count == 14)
    }

    @Test(arguments: clientFixtures)
    func clientFixturesDecodeAndEncodeBackToTheSameJSON(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("client/\(name)"))
        let message = try JSONDecoder().decode(ClientMessage.self, from: data)
        #expect(message.type + ".json" == name)
        #expect(try Self.object(JSONEncoder().encode(message)) == Self.object(data))
    }

    /// Server messages built from a fixed synthetic gesture.
    static func serverMessages() throws -> [String: ServerMessage] {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = .swipeDown
        configuration.scenarios = [.quickFlick]
        var trace = GestureSynthesizer(configuration: configuration, seed: 99).trace(at: 0)
        trace.metadata.id = "fixture"
        let parameters = try ReplayParameters(presetNamed: "swipe-dismiss")
        var replayer = try Replayer(trace: trace, configuration: .init(parameters: parameters, frameRate: 60))
        let frames = replayer.remainingFrames()
        let release = try #require(frames.first { $0.release != nil })
        let info = RecordingInfo(
            id: "synthetic/fixture.pantrace", name: "fixture", intent: .finish, source: "synthetic", samples: trace.samples.count,
            durationSeconds: trace.duration, tags: ["swipe-down", "quick-flick"], screen: trace.metadata.screen, edge: nil, complete: true)
        let playback = PlaybackState(
            load: 1, recording: info.id, preset: "swipe-dismiss", parameters: ["threshold": .number(0.5)], playing: true, speed: 1, loop: true,
            time: frames[3].time, start: frames[0].time, end: frames.last!.time, release: replayer.summary.releaseTime, fps: 60)
        return [
            "hello": .hello(
                Hello(
                    v: wireProtocolVersion, server: "pantrace 0.1.0", canControl: true,
                    state: Snapshot(
                        library: [info], presets: [PresetCatalog.entry(for: .swipeDismiss)], playback: playback,
                        summary: replayer.summary, recording: nil, tune: nil))),
            "library": .library([info]),
            "playback": .playback(playback),
            "frame": .frame(FrameMessage(seq: 42, load: 1, emittedMicroseconds: 1_763_700_000_000_000, recording: info.id, frame: frames[3])),
            "frame-release": .frame(FrameMessage(seq: 43, load: 1, emittedMicroseconds: 1_763_700_000_016_666, recording: info.id, frame: release)),
            "summary": .summary(replayer.summary),
            "series": .series(
                SeriesMessage(
                    role: "playing", load: 1, recording: info.id, preset: "swipe-dismiss", parameters: ["threshold": .number(0.5)], fps: 60,
                    summary: replayer.summary, series: ReplaySeries(of: try Replayer(trace: trace, configuration: .init(parameters: parameters))))),
            "recording": .recording(
                RecordingStatus(
                    state: "capturing", samples: 31, durationSeconds: 0.25, intent: .unknown, file: "live/20261121-101500.pantrace", id: nil,
                    message: nil)),
            "error": .error(
                ErrorMessage(
                    code: .forbidden, message: "pause changes state: connect with the ?token= that pantrace serve printed", inReplyTo: "pause"))
        ]
    }

    @Test func serverMessagesMatchTheirGoldenFixtures() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let record = ProcessInfo.processInfo.environment["PANTRACE_RECORD_FIXTURES"] == "1"
        for (name, message) in try Self.serverMessages() {
            let url = Self.folder.appendingPathComponent("server/\(name).json")
            let encoded = try encoder.encode(message)
            if record {
                try encoded.write(to: url)
                continue
            }
            let golden = try Data(contentsOf: url)
            #expect(try Self.object(encoded) == Self.object(golden), "\(name) differs from its fixture")
            // And the fixture decodes back to a message of the same type.
            #expect(try JSONDecoder().decode(ServerMessage.self, from: golden).type == message.type)
        }
    }
}
