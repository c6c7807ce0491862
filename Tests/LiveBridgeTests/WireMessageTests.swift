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
        #expect(Self.clientFixtures.count == 22)
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
                    v: wireProtocolVersion, server: "pantrace 0.1.0", canControl: true, page: 1,
                    state: Snapshot(
                        library: [info], libraryTotal: 1, presets: [PresetCatalog.entry(for: .swipeDismiss)], playback: playback,
                        summary: replayer.summary, recording: nil,
                        pages: [PageInfo(page: 1, recording: info.id, preset: "swipe-dismiss")]))),
            "library": .library(LibraryPage(recordings: [info], offset: 0, total: 1)),
            "library-notices": .library(
                LibraryPage(
                    recordings: [info], offset: 0, total: 1,
                    notices: [
                        "sets/c.pantraces: a corpus of more than 3 gestures; only its first 3 are listed "
                            + "(serve --max-corpus-gestures raises the limit)"
                    ])),
            "pages": .pages(
                PagesMessage(
                    pages: [PageInfo(page: 1, recording: info.id, preset: "swipe-dismiss"), PageInfo(page: 4, recording: nil, preset: nil)], total: 7)
            ),
            "following": .following(FollowingMessage(page: 4, reason: nil)),
            "playback": .playback(playback),
            "frame": .frame(FrameMessage(seq: 42, load: 1, emittedMicroseconds: 1_763_700_000_000_000, recording: info.id, frame: frames[3])),
            "frame-release": .frame(FrameMessage(seq: 43, load: 1, emittedMicroseconds: 1_763_700_000_016_666, recording: info.id, frame: release)),
            "summary": .summary(replayer.summary),
            "sheet": .sheet(
                try SheetMessage(
                    recording: info.id, trace: trace, sheet: SheetLabel(detents: [101, 422, 692], start: 0, target: .detent(1)),
                    preset: DetentPreset(.gorhom), parameters: [:], fps: 60)),
            "series": .series(
                SeriesMessage(
                    role: "playing", load: 1, recording: info.id, preset: "swipe-dismiss", parameters: ["threshold": .number(0.5)], fps: 60,
                    summary: replayer.summary, series: ReplaySeries(of: try Replayer(trace: trace, configuration: .init(parameters: parameters))))),
            "recording": .recording(
                RecordingStatus(
                    state: "capturing", samples: 31, durationSeconds: 0.25, intent: .unknown, file: "live/20261121-101500.pantrace", id: nil,
                    message: nil, ifReleased: .init(decision: "cancel", reason: "progress 0.38 ≤ threshold 0.5", margin: -0.12), page: 2,
                    heldSeconds: 1.5, preset: "swipe-dismiss", parameters: ["threshold": .number(0.27)])),
            "error": .error(
                ErrorMessage(
                    code: .forbidden, message: "pause needs control: open the address with the ?token= that pantrace serve printed",
                    inReplyTo: "pause")),
            "frame-live": .frame(
                FrameMessage(
                    seq: 7, load: -1, emittedMicroseconds: 1_763_700_000_033_333, recording: "live/unsaved-ios-2-20261127101500-3.pantrace",
                    frame: frames[2], source: 2,
                    ifReleased: .init(decision: "cancel", reason: "progress 0.14 ≤ threshold 0.5", margin: -0.36))),
            "source-ready": .sourceReady(
                SourceReady(source: 2, session: "6F1C2B7A-0D4E-4C55-9C1E-2F9B5C3A7D10", received: 118, maxBatch: 64, rate: 1000, burst: 2000)),
            "ack": .ack(SampleAck(received: 119)),
            "sources": .sources(
                SourcesMessage(sources: [
                    SourceInfo(
                        source: 2, name: "iPhone 15", platform: "ios", screen: SourceScreen(width: 390, height: 844), scale: 3, connected: true,
                        live: true, gestures: 4, dropped: 0)
                ])),
            "device-gesture": .deviceGesture(
                DeviceGestureStatus(
                    source: 2, file: "live/unsaved-ios-2-20261127101500-3.pantrace", state: "capturing", samples: 41, durationSeconds: 0.34,
                    intent: .unknown)),
            "kept": .kept(
                KeptMessage(files: [.init(from: "live/unsaved-ios-2-20261127101500-3.pantrace", to: "live/edge-back-1.pantrace")])),
            "dropped": .dropped(DroppedMessage(files: ["live/unsaved-ios-2-20261127101500-5.pantrace"])),
            "error-busy": .error(
                ErrorMessage(
                    code: .busy, message: "the server is answering other pages' comparisons; this one is queued for you to ask again",
                    inReplyTo: "compare", retryAfterMilliseconds: 250))
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

    /// A hello written from the template is, byte for byte, the hello encoded for that page.
    @Test(arguments: [0, 7, 1234, Int.max])
    func aHelloFromTheTemplateIsTheHelloEncodedForThatPage(page: Int) throws {
        guard case .hello(var hello) = try #require(try Self.serverMessages()["hello"]) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let template = try #require(HelloTemplate(hello, encoder: encoder))
        hello.page = page
        #expect(template.bytes(forPage: page) == Array(try encoder.encode(ServerMessage.hello(hello))))
    }
}
