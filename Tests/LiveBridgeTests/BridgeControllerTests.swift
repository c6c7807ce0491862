import TestSupport
import Foundation
import PanCapture
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

struct BridgeControllerTests {
    /// A recordings folder with two synthetic gestures of each kind.
    static func makeLibrary() throws -> String {
        let folder = try TemporaryFolder.path("library")
        try FileManager.default.createDirectory(atPath: folder + "/synthetic", withIntermediateDirectories: true)
        for kind in GestureKind.allCases {
            var configuration = GestureSynthesizer.Configuration()
            configuration.kind = kind
            configuration.scenarios = [.slowComplete]
            let synthesizer = GestureSynthesizer(configuration: configuration, seed: 4)
            for i in 0..<2 {
                var trace = synthesizer.trace(at: i)
                trace.metadata.id = "\(kind.rawValue)-\(i)"
                try TraceEncoder.write(trace, to: "\(folder)/synthetic/\(kind.rawValue)-\(i).pantrace")
            }
        }
        return folder
    }

    static func controller() throws -> BridgeController {
        var controller = BridgeController(configuration: .init(recordingsFolder: try makeLibrary()))
        #expect(controller.loadDefault() == nil)
        return controller
    }

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Handles `text` from `id` and runs the comparisons it started as the runtime would (off
    /// the controller thread), returning everything sent.
    static func send(_ text: String, from id: ConnectionID, to controller: inout BridgeController, now: Double) -> [Outgoing] {
        var out = controller.handle(.message(id, json(text)), now: now)
        for job in controller.takePendingCompares() { out += controller.handle(.compared(job.request, job.run()), now: now) }
        return out
    }

    /// The `series` in an outgoing message, decoding one sent as bytes.
    static func series(_ outgoing: Outgoing) -> SeriesMessage? {
        switch outgoing.message {
        case .series(let s): return s
        case .encoded("series", let bytes):
            if case .series(let s) = try? JSONDecoder().decode(ServerMessage.self, from: Data(bytes)) { return s }
            return nil
        default: return nil
        }
    }

    func frames(_ out: [Outgoing]) -> [FrameMessage] {
        out.compactMap { if case .frame(let f) = $0.message { return f } else { return nil } }
    }

    func errors(_ out: [Outgoing]) -> [ErrorMessage] {
        out.compactMap { if case .error(let e) = $0.message { return e } else { return nil } }
    }

    @Test func aNewClientGetsTheWholeStateThenTheCurrentFrame() throws {
        var controller = try Self.controller()
        let out = controller.handle(.opened(1, canControl: false), now: 0)
        guard case .hello(let hello) = out.first?.message else {
            Issue.record("first message is not hello")
            return
        }
        #expect(out.first?.target == .client(1))
        #expect(hello.state.library.count == 4)
        #expect(hello.state.playback?.playing == true)
        #expect(hello.state.presets.count == 11)
        #expect(!hello.canControl)
        #expect(frames(out).count == 1)
    }

    @Test func ticksAtTheFrameRateProduceEveryFrameInOrder() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        var times: [Double] = []
        for k in 1...30 {
            times += frames(controller.tick(now: Double(k) / 60)).map(\.frame.time)
        }
        #expect(times.count == 30)
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - 1.0 / 60) < 1e-9) }
    }

    @Test func aLateTickCatchesUpWithAtMostEightFrames() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        #expect(frames(controller.tick(now: 3.0 / 60)).count == 3)
        #expect(frames(controller.tick(now: 3.0 / 60 + 0.5)).count == Player.catchUpLimit)
    }

    @Test func nobodyWatchingMeansNoTicks() throws {
        var controller = try Self.controller()
        #expect(!controller.wantsTicks)
        _ = controller.handle(.opened(7, canControl: false), now: 0)
        #expect(controller.wantsTicks)
        _ = controller.handle(.closed(7), now: 1)
        #expect(!controller.wantsTicks)
        #expect(controller.tick(now: 2).isEmpty)
    }

    @Test func changingStateNeedsTheToken() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: false), now: 0)
        let out = controller.handle(.message(1, Self.json(#"{"type":"pause"}"#)), now: 0.1)
        #expect(errors(out).map(\.code.rawValue) == ["forbidden"])
        #expect(controller.shownView(of: 1)?.isPlaying == true)
    }

    @Test(arguments: [
        ("{oops", "bad_json"), (#"{"type":"warp"}"#, "bad_message"), (#"{"type":"seek","time":"soon"}"#, "bad_message"),
        (#"{"type":"speed","value":0.05}"#, "invalid"), (#"{"type":"speed","value":4.5}"#, "invalid"),
        (#"{"type":"load","recording":"../../../etc/passwd","preset":"zoom"}"#, "not_found"),
        (#"{"type":"load","recording":"synthetic/edge-back-0.pantrace","preset":"spin"}"#, "invalid"),
        (#"{"type":"load","recording":"synthetic/edge-back-0.pantrace","preset":"zoom","parameters":{"treshold":0.4}}"#, "invalid")
    ])
    func badRequestsGetOneErrorAndChangeNothing(text: String, code: String) throws {
        try Self.refused(text, code: code)
    }

    /// Hostile numbers at every wire field that takes a number: each is one error naming the
    /// field, and the controller answers the next viewer as before. (JSON has no NaN or
    /// infinity; 1e309 parses as infinity in some decoders and is refused either way.)
    @Test(arguments: [
        (#"{"type":"step","frames":-9223372036854775808}"#, "invalid"), (#"{"type":"step","frames":9223372036854775807}"#, "invalid"),
        (#"{"type":"step","frames":9223372036854775808}"#, "bad_json"), (#"{"type":"step","frames":100001}"#, "invalid"),
        (#"{"type":"seek","time":1e309}"#, "bad_json"), (#"{"type":"speed","value":-0.0}"#, "invalid"),
        (#"{"type":"speed","value":5e-324}"#, "invalid"), (#"{"type":"seek","time":"NaN"}"#, "bad_message"),
        (#"{"type":"pointer","t_ms":1e13,"x":1,"y":1,"phase":"down"}"#, "bad_message"),
        (#"{"type":"pointer","t_ms":-9.3e12,"x":1,"y":1,"phase":"down"}"#, "bad_message"),
        (#"{"type":"pointer","t_ms":1,"x":1e308,"y":1,"phase":"down"}"#, "bad_message"),
        (#"{"type":"pointer","t_ms":1,"x":1,"y":-1e10,"phase":"down"}"#, "bad_message"),
        (#"{"type":"pointer","t_ms":9007199254740993,"x":1,"y":1,"phase":"down"}"#, "bad_message"),
        (#"{"type":"record","screen":{"width":5e-324,"height":5e-324,"scale":3}}"#, "bad_message"),
        (#"{"type":"tune","recordings":[],"preset":"swipe-back","grid":["threshold=0:1:1e-12"]}"#, "invalid")
    ])
    func hostileNumbersAreRefusedAndTheControllerGoesOn(text: String, code: String) throws {
        try Self.refused(text, code: code)
    }

    static func refused(_ text: String, code: String) throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let before = controller.shownView(of: 1)?.state
        var out = controller.handle(.message(1, Self.json(text)), now: 0.1)
        // A tune is run off the controller thread: run it here as the runtime would.
        if let (id, job) = controller.takePendingTune() { out += controller.handle(.tuned(id, job.run()), now: 0.2) }
        let errors = out.compactMap { if case .error(let e) = $0.message { e } else { nil } }
        #expect(errors.map(\.code.rawValue) == [code], "\(text)")
        #expect(controller.shownView(of: 1)?.state == before)
        let hello = controller.handle(.opened(2, canControl: false), now: 0.3)
        #expect(hello.contains { if case .hello = $0.message { true } else { false } })
    }

    @Test func speedAcceptsBothEndsOfItsRange() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        for value in [0.1, 4.0] {
            let out = controller.handle(.message(1, Self.json(#"{"type":"speed","value":\#(value)}"#)), now: 0.1)
            #expect(errors(out).isEmpty)
            #expect(controller.shownView(of: 1)?.speed == value)
        }
    }

    @Test func loadingBroadcastsTheSummaryPlaybackAndAFrame() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let out = controller.handle(
            .message(
                1,
                Self.json(
                    #"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss","parameters":{"threshold":0.3}}"#)),
            now: 0.1)
        // The view to the page; to every page, what it now shows (their follow menus).
        #expect(out.map(\.message.type) == ["summary", "playback", "frame", "series", "pages"])
        #expect(out.map(\.target) == [.clients([1]), .clients([1]), .framesFor([1]), .clients([1]), .everyone])
        #expect(controller.shownView(of: 1)?.state.parameters == ["threshold": .number(0.3)])
    }

    @Test func withoutLoopThePlayerStopsAtTheEndAndSaysSo() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.json(#"{"type":"loop","enabled":false}"#)), now: 0)
        var sawStop = false
        var t = 0.0
        while t < 10 && !sawStop {
            t += 1.0 / 60
            sawStop = controller.tick(now: t).contains { if case .playback(let p) = $0.message { return !p.playing } else { return false } }
        }
        #expect(sawStop)
        #expect(!controller.wantsTicks)
    }

    @Test func benchmarkTicksYieldOneFrameEachCyclingWithoutTheLoopPause() throws {
        var controller = try Self.controller()
        #expect(controller.benchmarkTick(now: 0).isEmpty)  // nobody watching
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let player = try #require(controller.shownView(of: 1))
        let count = Int((player.duration * player.frameRate).rounded()) + 1
        // Same instant every call: the rate is the caller's, not the replay's.
        let ticks = (0..<(2 * count + 3)).map { _ in frames(controller.benchmarkTick(now: 1)) }
        #expect(ticks.allSatisfy { $0.count == 1 })
        let times = ticks.map { $0[0].frame.time }
        let start = try #require(controller.shownView(of: 1)?.state.start)
        #expect(times[count - 1] == start)  // frames 1…count-1, then frame 0 again: no pause
        #expect(times.filter { $0 == start }.count == 2)
        for (a, b) in zip(times, times.dropFirst()) where b != start { #expect(abs(b - a - 1.0 / 60) < 1e-9) }
        let seqs = ticks.map { $0[0].seq }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 })
        _ = controller.handle(.message(1, Self.json(#"{"type":"pause"}"#)), now: 1)
        #expect(controller.benchmarkTick(now: 2).isEmpty)
    }

    @Test func pointerEventsBeyondTheRateAreRefusedOncePerSecond() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        var limited = 0
        for i in 0..<700 {
            let out = controller.handle(.message(1, Self.json(#"{"type":"pointer","t_ms":\#(i),"x":1,"y":1,"phase":"move"}"#)), now: 0)
            limited += errors(out).filter { $0.code == .rateLimited }.count
        }
        #expect(limited == 1)
    }

    @Test func onlyOneViewerRecordsAtATime() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        let arm = Self.json(#"{"type":"record","screen":{"width":390,"height":844,"scale":3}}"#)
        #expect(errors(controller.handle(.message(1, arm), now: 0.1)).isEmpty)
        #expect(errors(controller.handle(.message(2, arm), now: 0.2)).map(\.code.rawValue) == ["busy"])
        // Once the first recorder leaves, the other may record.
        _ = controller.handle(.closed(1), now: 0.3)
        #expect(errors(controller.handle(.message(2, arm), now: 0.4)).isEmpty)
    }

    /// A pad outside 1…100,000 points or a scale outside 0.1…100 is refused where the message
    /// is decoded, naming the field; the largest and smallest accepted sizes arm.
    @Test(arguments: [
        ("0", "844", "3", false), ("-0.0", "844", "3", false), ("5e-324", "5e-324", "3", false), ("390", "1e308", "3", false),
        ("390", "844", "0", false), ("390", "844", "1e-300", false), ("390", "844", "101", false), ("0.999", "844", "3", false),
        ("1", "1", "0.1", true), ("100000", "100000", "100", true)
    ])
    func aPadOutsideTheScreenLimitsIsRefused(width: String, height: String, scale: String, accepted: Bool) throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let text = #"{"type":"record","screen":{"width":\#(width),"height":\#(height),"scale":\#(scale)}}"#
        let out = errors(controller.handle(.message(1, Self.json(text)), now: 0.1))
        if accepted {
            #expect(out.isEmpty)
        } else {
            #expect(out.map(\.code.rawValue) == ["bad_message"])
            #expect(out.first?.message.contains("screen") == true)
        }
    }

    @Test func aDefaultRecordingThatCannotBeReplayedIsReportedNotSwallowed() throws {
        let scratch = try TemporaryFolder("library")
        let folder = scratch.path
        var trace = GestureSynthesizer(seed: 3).trace(at: 0)
        trace.samples.removeLast()  // no ended sample: nothing to decide
        try TraceEncoder.write(trace, to: folder + "/unfinished.pantrace")
        var controller = BridgeController(configuration: .init(recordingsFolder: folder))
        let problem = controller.loadDefault()
        #expect(problem?.hasPrefix("cannot open unfinished.pantrace with best:") == true, "\(problem ?? "no problem reported")")
        #expect(controller.firstView == nil)
    }

    static func info(_ id: String, tags: [String], intent: Intent = .finish, duration: Double = 0.5) -> RecordingInfo {
        RecordingInfo(
            id: id, name: id, intent: intent, source: "synthetic", samples: 30, durationSeconds: duration, tags: tags,
            screen: ScreenGeometry(width: 390, height: 844, scale: 3), edge: nil, complete: true)
    }

    @Test func theFirstViewIsALabelledEdgeSwipeOfAtLeastAThirdOfASecondUnderBest() {
        let library = [
            Self.info("a/fling.pantrace", tags: ["swipe-down"], duration: 0.036),
            Self.info("b/edge-short.pantrace", tags: ["edge-back"], duration: 0.29),
            Self.info("c/edge-unlabelled.pantrace", tags: ["edge-back"], intent: .unknown),
            Self.info("c/edge-cancel.pantrace", tags: ["edge-back"], intent: .cancel),
            Self.info("d/edge.pantrace", tags: ["edge-back"], duration: 0.3),
            Self.info("e/down.pantrace", tags: ["swipe-down"])
        ]
        #expect(BridgeController.firstView(in: library)! == ("d/edge.pantrace", "best"))
        #expect(BridgeController.firstView(in: Array(library.prefix(4)))! == ("c/edge-cancel.pantrace", "best"))
        #expect(BridgeController.firstView(in: Array(library.prefix(3)) + [library[5]])! == ("e/down.pantrace", "swipe-dismiss"))
        #expect(BridgeController.firstView(in: Array(library.prefix(3)))! == ("a/fling.pantrace", "swipe-dismiss"))
        #expect(BridgeController.firstView(in: []) == nil)
    }

    @Test func aJoiningPageGetsTheWholeReplayAndAWatcherMayCompare() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(
            .message(1, Self.json(#"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss"}"#)), now: 0.1)
        let joined = controller.handle(.opened(2, canControl: false), now: 0.2)
        #expect(joined.map(\.message.type) == ["hello", "series", "frame"])
        guard case .series(let series) = joined[1].message else { return }
        #expect(series.series.points.count == controller.shownView(of: 2)!.replayer.frameCount)
        #expect(series.recording == controller.firstView?.recording, "a new page opens on the first view, not on another page's")
        let compared = Self.send(
            #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-back"}"#, from: 2, to: &controller, now: 0.3)
        #expect(compared.map(\.message.type) == ["series"])
        #expect(compared.map(\.target) == [.client(2)])
        guard let other = Self.series(compared[0]) else { return }
        #expect(other.role == "compare" && other.preset == "swipe-back")
        #expect(controller.shownView(of: 1)?.configuration.parameters.preset.name.rawValue == "swipe-dismiss", "comparing changes nothing")
        let refused = controller.handle(.message(2, Self.json(#"{"type":"pause"}"#)), now: 0.4)
        #expect(refused.map(\.message.type) == ["error"])
        // A compare replays a whole recording: at most five a second per page, and it says so.
        let compare = #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"best"}"#
        let tooSoon = Self.send(compare, from: 2, to: &controller, now: 0.3 + Comparisons.interval - 0.001)
        guard case .error(let error) = tooSoon.first?.message else {
            Issue.record("a compare too soon was answered")
            return
        }
        #expect(error.code == .rateLimited && error.inReplyTo == "compare")
        let inTime = Self.send(compare, from: 2, to: &controller, now: 0.3 + Comparisons.interval)
        #expect(inTime.map(\.message.type) == ["series"])
    }

    @Test func whileCapturingTheStatusGoesOutTenTimesASecondWithWhatALiftNowWouldDecide() throws {
        var controller = try Self.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(
            .message(1, Self.json(#"{"type":"record","screen":{"width":390,"height":844,"scale":3},"preset":"swipe-dismiss"}"#)), now: 0)
        var statuses: [RecordingStatus] = []
        // A slow drag down 600 pt over 1.2 s, one event every 16 ms.
        for i in 0...75 {
            let phase = i == 0 ? "down" : "move"
            let out = controller.handle(
                .message(1, Self.json(#"{"type":"pointer","t_ms":\#(i * 16),"x":200,"y":\#(100 + i * 8),"phase":"\#(phase)"}"#)),
                now: Double(i) * 0.016)
            for case .recording(let status) in out.map(\.message) { statuses.append(status) }
        }
        let capturing = statuses.filter { $0.state == "capturing" }
        // 1.2 s of capture at most every 0.1 s: 12 or 13, not one per event, not just the first.
        #expect((11...14).contains(capturing.count), "\(capturing.count) statuses")
        #expect(capturing.map(\.samples) == capturing.map(\.samples).sorted())
        #expect(capturing.last!.samples > 60)
        #expect(capturing.last!.durationSeconds > 1)
        let decisions = capturing.compactMap { $0.ifReleased?.decision }
        #expect(decisions.first == "cancel" && decisions.last == "finish", "\(decisions)")
        #expect(statuses.allSatisfy { $0.state == "capturing" || $0.ifReleased == nil })
    }

    @Test func afterSaveTheViewShowsTheSavedFileAndAfterDiscardTheViewBeforeRecording() throws {
        for ending in ["save", "discard"] {
            var controller = try Self.controller()
            _ = controller.handle(.opened(1, canControl: true), now: 0)
            _ = controller.handle(
                .message(1, Self.json(#"{"type":"record","screen":{"width":390,"height":844,"scale":3},"preset":"swipe-dismiss"}"#)), now: 0)
            for i in 0...40 {
                let phase = i == 0 ? "down" : (i == 40 ? "up" : "move")
                _ = controller.handle(
                    .message(1, Self.json(#"{"type":"pointer","t_ms":\#(i * 16),"x":200,"y":\#(100 + i * 12),"phase":"\#(phase)"}"#)),
                    now: Double(i) * 0.016)
            }
            let unsaved = try #require(controller.shownView(of: 1)?.recording)
            #expect(unsaved.contains("unsaved-"), "the released gesture plays")
            _ = controller.handle(.message(1, Self.json(#"{"type":"label","intent":"finish"}"#)), now: 1)
            let out = controller.handle(.message(1, Self.json(#"{"type":"\#(ending)"}"#)), now: 1.1)
            let shown = try #require(controller.shownView(of: 1)?.recording)
            #expect(shown != unsaved, "\(ending): the player no longer names the unsaved file")
            #expect(controller.library.contains(shown))
            if ending == "save" { #expect(shown.hasPrefix("live/") && !shown.contains("unsaved-")) }
            #expect(out.contains { if case .playback(let p) = $0.message { p.recording == shown } else { false } })
        }
    }
}
