import TestSupport
import Foundation
import PanCapture
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

/// Live sources (docs/PROTOCOL.md §4) on the controller, in virtual time: each bound on both
/// sides, the samples written as they come, and what a page that watches is sent.
struct SourceTests {
    typealias Base = BridgeControllerTests
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func announce(session: String = "session-0001", screen: String = #"{"width":390,"height":844}"#) -> [UInt8] {
        json(#"{"type":"source","session":"\#(session)","name":"iPhone 15","platform":"ios","screen":\#(screen),"scale":3}"#)
    }

    static func sample(_ seq: Int, t: Double, state: String, ty: Double = 0, vy: Double = 0) -> String {
        #"{"seq":\#(seq),"t":\#(t),"state":"\#(state)","tx":0,"ty":\#(ty),"vx":0,"vy":\#(vy)}"#
    }

    static func batch(_ samples: [String]) -> [UInt8] {
        json(#"{"type":"samples","samples":[\#(samples.joined(separator: ","))]}"#)
    }

    /// A pan down by `distance` points at 120 Hz that rests before it lifts.
    static func pan(from seq: Int, t0: Double, down distance: Double) -> [String] {
        (0..<52).map { i in
            let ty = distance * Double(min(i, 40)) / 40
            let state = i == 0 ? "began" : (i == 51 ? "ended" : "changed")
            return sample(seq + i, t: t0 + Double(i) / 120, state: state, ty: ty, vy: 0 < i && i <= 40 ? distance * 3 : 0)
        }
    }

    static func errors(_ out: [Outgoing]) -> [ErrorMessage] {
        out.compactMap { if case .error(let e) = $0.message { e } else { nil } }
    }

    static func acks(_ out: [Outgoing]) -> [Int64] {
        out.compactMap { if case .ack(let a) = $0.message { a.received } else { nil } }
    }

    static func joined(_ controller: inout BridgeController, id: ConnectionID = 9, session: String = "session-0001") -> [Outgoing] {
        _ = controller.handle(.sourceOpened(id), now: 0)
        return controller.handle(.message(id, announce(session: session)), now: 0)
    }

    @Test(arguments: [("1234567", false), ("12345678", true), (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 65), false)])
    func aSessionIsEightToSixtyFourCharacters(session: String, accepted: Bool) throws {
        var controller = try Base.controller()
        let out = Self.joined(&controller, session: session)
        #expect(out.contains { if case .sourceReady = $0.message { true } else { false } } == accepted)
        #expect(Self.errors(out).contains { $0.message.contains("session must be 8 to 64") } == !accepted)
    }

    @Test func nothingButSourceMayComeFirstAndAPageMayNotSendSamples() throws {
        var controller = try Base.controller()
        _ = controller.handle(.sourceOpened(9), now: 0)
        let early = controller.handle(.message(9, Self.batch([Self.sample(1, t: 1, state: "began")])), now: 0)
        #expect(Self.errors(early).first?.message.contains("first message must be source") == true)
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let fromPage = controller.handle(.message(1, Self.batch([Self.sample(1, t: 1, state: "began")])), now: 0)
        #expect(Self.errors(fromPage).first?.code == .badMessage)
    }

    @Test(arguments: [(64, true), (65, false)])
    func aMessageHoldsAtMostSixtyFourSamples(count: Int, accepted: Bool) throws {
        var controller = try Base.controller()
        _ = Self.joined(&controller)
        let samples = (1...count).map { Self.sample($0, t: 1 + Double($0) / 1000, state: "possible") }
        let out = controller.handle(.message(9, Self.batch(samples)), now: 0.1)
        #expect(Self.acks(out) == (accepted ? [Int64(count)] : []))
    }

    /// 2,000 samples in a burst are taken; the 2,001st at the same instant is dropped and said.
    @Test(arguments: [(2000, 0), (2001, 1)])
    func aSourceFloodIsRateLimitedPastItsBurst(count: Int, dropped: Int) throws {
        var controller = try Base.controller()
        _ = Self.joined(&controller)
        var out: [Outgoing] = []
        for start in stride(from: 1, through: count, by: 64) {
            let samples = (start...min(count, start + 63)).map { Self.sample($0, t: 1 + Double($0) / 1e6, state: "possible") }
            out += controller.handle(.message(9, Self.batch(samples)), now: 1)
        }
        let limited = Self.errors(out).filter { $0.code == .rateLimited }
        #expect(limited.count == (dropped > 0 ? 1 : 0))
        if dropped > 0 { #expect(limited[0].message.contains("\(dropped) were dropped")) }
        #expect(Self.acks(out).last == Int64(count))
    }

    @Test func aResendIsTakenOnceAndTheGestureIsWrittenAsItComes() throws {
        var controller = try Base.controller()
        _ = Self.joined(&controller)
        let pan = Self.pan(from: 1, t0: 50, down: 200)
        _ = controller.handle(.message(9, Self.batch(Array(pan[0..<30]))), now: 0.1)
        let again = controller.handle(.message(9, Self.batch(Array(pan[0..<30]))), now: 0.2)
        #expect(Self.acks(again) == [30])
        let source = try #require(controller.sources["session-0001"])
        let file = try #require(source.gesture?.file)
        // On disk while the pan goes on, every chunk but the last 100 ms readable.
        let path = controller.library.folder + "/" + file
        let partial = try TraceReader(configuration: .init(isStrict: false)).read(contentsOf: path)
        #expect(partial.trace.samples.count >= 18 && partial.trace.samples.count < 30)
        let out = controller.handle(.message(9, Self.batch(Array(pan[30...]))), now: 0.3)
        let released = out.compactMap { if case .deviceGesture(let g) = $0.message, g.state == "released" { g } else { nil } }
        #expect(released.map(\.file) == [file])
        let whole = try TraceReader(configuration: .init(isStrict: true)).read(contentsOf: path)
        #expect(whole.trace.samples.count == 52 && whole.isComplete)
        #expect(whole.trace.metadata.source == "ios" && whole.trace.metadata.velocityOrigin == "recorded")
    }

    /// A watching page sees the pan through its own threshold; at the release its view replays it.
    @Test(arguments: [("0.27", "finish"), ("0.5", "cancel")])
    func aWatchingPageDecidesWithItsOwnThreshold(threshold: String, expected: String) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: false), now: 0)  // does not watch
        _ = controller.handle(
            .message(
                1,
                Self.json(
                    #"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss","parameters":{"threshold":\#(threshold)}}"#
                )), now: 0)
        _ = Self.joined(&controller)
        _ = controller.handle(.message(1, Self.json(#"{"type":"watch","source":1}"#)), now: 0)
        let pan = Self.pan(from: 1, t0: 50, down: 0.38 * 422)
        var out: [Outgoing] = []
        for start in stride(from: 0, to: pan.count, by: 8) {
            out += controller.handle(.message(9, Self.batch(Array(pan[start..<min(pan.count, start + 8)]))), now: 0.5)
        }
        let live = out.compactMap { o -> (Outgoing.Target, FrameMessage)? in
            if case .frame(let f) = o.message, f.source == 1 { (o.target, f) } else { nil }
        }
        #expect(live.count == 52)
        #expect(live.allSatisfy { $0.0 == .framesFor([1]) })
        #expect(live.last?.1.frame.release?.decision.outcome.rawValue == expected)
        #expect(RecordPadTests.decisions(out) == [expected])
        let unsaved = try #require(controller.shownView(of: 1)?.recording)
        #expect(unsaved.hasPrefix("live/unsaved-ios-1-"))
        #expect(controller.shownView(of: 2)?.recording == controller.firstView?.recording)
        // Kept: the watching page's view shows the kept file, with its threshold, where it was.
        _ = controller.handle(.message(1, Self.json(#"{"type":"seek","time":0.2}"#)), now: 1)
        _ = controller.handle(.message(1, Self.json(#"{"type":"keep","files":["\#(unsaved)"],"intent":"finish"}"#)), now: 1.1)
        let kept = try #require(controller.shownView(of: 1))
        #expect(kept.recording == "live/iPhone-15-1.pantrace")
        #expect(kept.setting.parameters == ["threshold": .number(Double(threshold)!)])
        #expect(abs(kept.state.time - 0.2) < 1 / 60 + 1e-9)
        #expect(controller.shownView(of: 2)?.recording == controller.firstView?.recording)
    }

    @Test func aDisconnectKeepsTheGestureIncompleteAndKeepNamesAWrongFile() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = Self.joined(&controller)
        _ = controller.handle(.message(9, Self.batch(Array(Self.pan(from: 1, t0: 50, down: 200)[0..<30]))), now: 0.1)
        let closed = controller.handle(.closed(9), now: 0.2)
        let cut = try #require(closed.compactMap { if case .deviceGesture(let g) = $0.message { g } else { nil } }.first)
        #expect(cut.state == "incomplete")
        let wrong = controller.handle(.message(1, Self.json(#"{"type":"keep","files":["\#(cut.file)","live/other.pantrace"]}"#)), now: 1)
        #expect(Self.errors(wrong).first?.code == .notFound)
        #expect(FileManager.default.fileExists(atPath: controller.library.folder + "/" + cut.file))
        let kept = controller.handle(.message(1, Self.json(#"{"type":"keep","files":["\#(cut.file)"],"intent":"cancel"}"#)), now: 1)
        let moved = try #require(kept.compactMap { if case .kept(let k) = $0.message { k.files } else { nil } }.first)
        #expect(moved.map(\.to) == ["live/iPhone-15-1.pantrace"])
        let trace = try TraceReader(configuration: .init(isStrict: true)).read(contentsOf: controller.library.folder + "/" + moved[0].to).trace
        #expect(trace.metadata.intent == .cancel && trace.metadata.tags.contains("incomplete"))
        #expect(controller.sources.isEmpty)
    }

    @Test(arguments: [(500, true), (501, false)])
    func keepTakesAtMostFiveHundredFiles(count: Int, withinLimit: Bool) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let files = (0..<count).map { #""live/f\#($0).pantrace""# }.joined(separator: ",")
        let out = controller.handle(.message(1, Self.json(#"{"type":"drop","files":[\#(files)]}"#)), now: 0)
        let error = try #require(Self.errors(out).first)
        // Within the limit each file is looked up (and these are not unsaved gestures); past it, refused whole.
        #expect(error.code == (withinLimit ? .notFound : .invalid))
    }

    /// After a restart no source knows the gestures an earlier run left unsaved; a page may
    /// still keep or drop them (they are listed by their name), but not a pad's unsaved file.
    @Test func gesturesLeftByAnEarlierRunAreKeptAfterARestart() throws {
        var first = try Base.controller()
        _ = Self.joined(&first)
        _ = first.handle(.message(9, Self.batch(Self.pan(from: 1, t0: 50, down: 200))), now: 0.1)
        let file = try #require(first.sources["session-0001"]?.unsaved.first)
        var restarted = BridgeController(configuration: .init(recordingsFolder: first.library.folder))
        _ = restarted.handle(.opened(1, canControl: true), now: 0)
        #expect(restarted.sources.isEmpty && restarted.library.contains(file))
        let kept = restarted.handle(.message(1, Self.json(#"{"type":"keep","files":["\#(file)"],"intent":"finish"}"#)), now: 1)
        #expect(kept.compactMap { if case .kept(let k) = $0.message { k.files.map(\.to) } else { nil } } == [["live/device-1.pantrace"]])
        let pad = "live/unsaved-20261127101500-1.pantrace"
        try Data(contentsOf: URL(fileURLWithPath: restarted.library.folder + "/live/device-1.pantrace"))
            .write(to: URL(fileURLWithPath: restarted.library.folder + "/" + pad))
        restarted.rescanLibrary()
        let refused = restarted.handle(.message(1, Self.json(#"{"type":"drop","files":["\#(pad)"]}"#)), now: 2)
        #expect(Self.errors(refused).first?.code == .notFound)
        // Files that only look like a device's unsaved gesture: in a folder named like one, with
        // a name past the pattern, or a platform the wire does not know. None is touched.
        let lookalikes = [
            "live/unsaved-ios-1-20261127101500-1.pantrace/inner.pantrace", "live/unsaved-ios-1-20261127101500-1/x.pantrace",
            "live/unsaved-ios-1-20261127101500-1-extra.pantrace", "live/unsaved-ios-1-2026112710150-1.pantrace",
            "live/unsaved-beos-1-20261127101500-1.pantrace", "live/sub/unsaved-ios-1-20261127101500-1.pantrace"
        ]
        for file in lookalikes {
            let path = restarted.library.folder + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(contentsOf: URL(fileURLWithPath: restarted.library.folder + "/live/device-1.pantrace")).write(to: URL(fileURLWithPath: path))
        }
        restarted.rescanLibrary()
        for file in lookalikes {
            #expect(restarted.library.contains(file), "\(file)")
            let out = restarted.handle(.message(1, Self.json(#"{"type":"drop","files":["\#(file)"]}"#)), now: 3)
            #expect(Self.errors(out).first?.code == .notFound, "\(file)")
            #expect(FileManager.default.fileExists(atPath: restarted.library.folder + "/" + file), "\(file)")
        }
    }

    @Test(arguments: [
        ("live/unsaved-ios-1-20261127101500-1.pantrace", true), ("live/unsaved-android-12-20261127101500-30.pantrace", true),
        ("live/unsaved-ios-1-20261127101500-1.pantrace/x.pantrace", false), ("live/unsaved-ios-1-20261127101500.pantrace", false),
        ("live/unsaved-ios--20261127101500-1.pantrace", false), ("unsaved-ios-1-20261127101500-1.pantrace", false)
    ])
    func onlyTheServersOwnNamesAreUnsavedDeviceGestures(file: String, matches: Bool) {
        #expect(LiveFolder.isUnsavedDeviceName(file, platforms: ["ios", "android", "linux", "other"]) == matches)
    }
}

/// Which device made a gesture travels on the wire, and the same device again is one row.
struct DeviceIdentityTests {
    typealias Base = BridgeControllerTests

    static func libraryEntries(_ out: [Outgoing]) -> [RecordingInfo] {
        out.flatMap { outgoing -> [RecordingInfo] in
            guard case .library(let page) = outgoing.message else { return [] }
            return page.recordings
        }
    }

    @Test func aDevicesUnsavedGestureIsListedWithTheDeviceThatMadeIt() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = SourceTests.joined(&controller)
        let out = controller.handle(.message(9, SourceTests.batch(SourceTests.pan(from: 1, t0: 50, down: 200))), now: 0.1)
        let file = try #require(controller.sources["session-0001"]?.unsaved.first)
        let listed = try #require(Self.libraryEntries(out).first { $0.id == file })
        #expect(listed.device == DeviceOfFile(source: 1, name: "iPhone 15"))
        #expect(Self.libraryEntries(out).filter { $0.id != file }.allSatisfy { $0.device == nil }, "no other file names a device")
        // Kept: no longer an unsaved device gesture.
        let kept = controller.handle(.message(1, SourceTests.json(#"{"type":"keep","files":["\#(file)"]}"#)), now: 1)
        #expect(Self.libraryEntries(kept).allSatisfy { $0.device == nil })
    }

    /// Both sides: a new session from the same device (name, platform, screen, scale) takes the
    /// old row's gestures and watchers; another device, or the old one still connected, does not.
    @Test(arguments: [("iPhone 15", true, true), ("iPhone 16", true, false), ("iPhone 15", false, false)])
    func theSameDeviceInANewSessionKeepsItsRowAndWatchers(name: String, oldLeft: Bool, takesOver: Bool) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = SourceTests.joined(&controller)
        _ = controller.handle(.message(9, SourceTests.batch(SourceTests.pan(from: 1, t0: 50, down: 200))), now: 0.1)
        _ = controller.handle(.message(1, SourceTests.json(#"{"type":"watch","source":1}"#)), now: 0.2)
        if oldLeft { _ = controller.handle(.closed(9), now: 0.3) }
        _ = controller.handle(.sourceOpened(10), now: 0.4)
        let again = SourceTests.json(
            #"{"type":"source","session":"session-0002","name":"\#(name)","platform":"ios","screen":{"width":390,"height":844},"scale":3}"#)
        _ = controller.handle(.message(10, again), now: 0.4)
        #expect(controller.sources.count == (takesOver ? 1 : 2))
        #expect(controller.views.watchingOf[1] == (takesOver ? 2 : 1))
        #expect(controller.sources["session-0002"]?.unsaved.count == (takesOver ? 1 : 0))
    }
}

/// What one source's traffic can make of the live folder and of every page's messages: a
/// gesture needs ``LiveSources/minimumSamples`` to be a file, gestures begin at a bounded rate
/// for all sources and within the live folder's budget, and the sources list that samples
/// change is paced for all of them (issue: a `began` storm made a file per sample and a
/// `dropped` count re-sent the list to every page with each message).
struct SourceFloodTests {
    typealias Base = BridgeControllerTests
    typealias S = SourceTests

    static func liveFiles(_ controller: BridgeController) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: controller.library.folder + "/live")) ?? []
        return names.filter { $0.hasSuffix(".pantrace") }
    }

    static func sourcesBroadcasts(_ out: [Outgoing]) -> Int {
        out.count { if case .sources = $0.message, case .everyone = $0.target { true } else { false } }
    }

    /// 512 `began` in a row, as a hostile source sends them: no gesture is a file.
    @Test func aBeganStormLeavesNoFiles() throws {
        var controller = try Base.controller()
        _ = S.joined(&controller)
        var out: [Outgoing] = []
        for start in stride(from: 1, through: 512, by: 64) {
            let samples = (start..<start + 64).map { S.sample($0, t: 1 + Double($0) / 1000, state: "began") }
            out += controller.handle(.message(9, S.batch(samples)), now: 1 + Double(start) / 1000)
        }
        _ = controller.handle(.closed(9), now: 2)
        #expect(Self.liveFiles(controller).isEmpty)
        #expect(controller.library.recordings.allSatisfy { !$0.id.hasPrefix("live/") })
        // The list went out at most as often as the pace allows (8 at once, 4 a second after).
        #expect(Self.sourcesBroadcasts(out) <= Int(LiveSources.listBurst) + 4)
        let discarded = out.count { if case .deviceGesture(let g) = $0.message { g.state == "discarded" } else { false } }
        #expect(discarded > 0)
    }

    /// `began, ended` is not a gesture; `began, changed, ended` is.
    @Test(arguments: [(1, false), (2, true)])
    func aGestureOfThreeSamplesIsAFile(changes: Int, kept: Bool) throws {
        var controller = try Base.controller()
        _ = S.joined(&controller)
        var samples = [S.sample(1, t: 1, state: "began")]
        samples += (1..<changes).map { S.sample(1 + $0, t: 1 + Double($0) / 60, state: "changed", ty: Double($0) * 10) }
        samples.append(S.sample(1 + changes, t: 1.2, state: "ended", ty: 30))
        let out = controller.handle(.message(9, S.batch(samples)), now: 1)
        let end = out.compactMap { if case .deviceGesture(let g) = $0.message, g.state != "capturing" { g.state } else { nil } }
        #expect(end == [kept ? "released" : "discarded"])
        #expect(Self.liveFiles(controller).count == (kept ? 1 : 0))
    }

    /// All sources together begin at most 30 gestures at once (then 10 a second): the 31st is
    /// refused, said once, and not written.
    @Test(arguments: [(30, 0), (31, 1)])
    func gesturesBeginAtABoundedRate(count: Int, refused: Int) throws {
        var controller = try Base.controller()
        _ = S.joined(&controller)
        var out: [Outgoing] = []
        var seq = 0
        for gesture in 0..<count {
            let t = 1 + Double(gesture)
            let samples = ["began", "changed", "ended"].enumerated().map { offset, state in
                seq += 1
                return S.sample(seq, t: t + Double(offset) / 60, state: state, ty: Double(offset) * 20)
            }
            out += controller.handle(.message(9, S.batch(samples)), now: 1)
        }
        let limited = S.errors(out).filter { $0.code == .rateLimited }
        #expect(limited.count == refused)
        if refused > 0 { #expect(limited[0].message.contains("gestures a second")) }
        #expect(Self.liveFiles(controller).count == count - refused)
    }

    /// The live folder holds at most a tenth of `--max-files` (here 40: 4); sources then begin
    /// no gesture until some are kept elsewhere or dropped.
    @Test(arguments: [(4, false), (5, true)])
    func theLiveFolderHasABudget(gestures: Int, refusedLast: Bool) throws {
        var controller = BridgeController(configuration: .init(recordingsFolder: try Base.makeLibrary(), maximumRecordings: 40))
        #expect(LiveFolder.budget(maximumRecordings: 40) == 4)
        _ = S.joined(&controller)
        var out: [Outgoing] = []
        var seq = 0
        for gesture in 0..<gestures {
            let samples = ["began", "changed", "ended"].enumerated().map { offset, state in
                seq += 1
                return S.sample(seq, t: 1 + Double(gesture) + Double(offset) / 60, state: state, ty: Double(offset) * 20)
            }
            out += controller.handle(.message(9, S.batch(samples)), now: 1 + Double(gesture))
        }
        let busy = S.errors(out).filter { $0.code == .busy }
        #expect(busy.count == (refusedLast ? 1 : 0))
        if refusedLast { #expect(busy[0].message.contains("the live folder holds 4 recordings (at most 4)")) }
        #expect(Self.liveFiles(controller).count == min(gestures, 4))
        #expect(controller.library.recordings.count > 4)  // the rest of the library is listed
    }

    /// A `dropped` count that changes with every message re-sends the list at the pace, not
    /// with every message; a change left waiting goes out with the next message allowed.
    @Test func aChangingDropCountIsPaced() throws {
        var controller = try Base.controller()
        _ = S.joined(&controller)
        var out: [Outgoing] = []
        for n in 1...100 {
            let batch = S.json(#"{"type":"samples","dropped":\#(n),"samples":[\#(S.sample(n, t: 1 + Double(n) / 1000, state: "possible"))]}"#)
            out += controller.handle(.message(9, batch), now: 1)
        }
        #expect(Self.sourcesBroadcasts(out) == Int(LiveSources.listBurst))
        // A quarter of a second later one more is allowed: it carries the latest count.
        let later = controller.handle(.message(9, S.batch([S.sample(101, t: 1.2, state: "possible")])), now: 1.25)
        let lists = later.compactMap { if case .sources(let m) = $0.message { m } else { nil } }
        #expect(lists.count == 1)
        #expect(lists.first?.sources.first?.dropped == 100)
        // Nothing waits now: the next message sends no list.
        let quiet = controller.handle(.message(9, S.batch([S.sample(102, t: 1.3, state: "possible")])), now: 5)
        #expect(Self.sourcesBroadcasts(quiet) == 0)
    }
}

/// A source's connection that never names itself is closed once its time is up (10 s), with
/// one error saying why; one that names itself in time is kept.
struct UnnamedSourceTests {
    typealias S = SourceTests

    @Test(arguments: [(9.999, false), (10.0, true)])
    func aConnectionThatNeverNamesItselfIsClosedAfterTenSeconds(at time: Double, closed: Bool) throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.sourceOpened(9), now: 0)
        #expect(controller.deadline == LiveSources.namingTimeout)
        let out = controller.due(now: time)
        #expect(out.count == (closed ? 1 : 0))
        if closed {
            #expect(out[0].target == .client(9) && out[0].closesConnection)
            #expect(S.errors(out).first?.message.contains("no source message within 10 s") == true)
            #expect(controller.deadline == nil)
            #expect(!controller.sources.isSource(9))
            // What it sends on its way out is not taken as a source's.
            #expect(controller.handle(.message(9, S.announce()), now: time).isEmpty)
            #expect(controller.sources.isEmpty)
        } else {
            #expect(controller.deadline == LiveSources.namingTimeout)
        }
    }

    @Test func aConnectionNamedInTimeIsKept() throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.sourceOpened(9), now: 0)
        _ = controller.handle(.sourceOpened(10), now: 4)
        _ = controller.handle(.message(9, S.announce()), now: 9.9)
        #expect(controller.deadline == 14)
        #expect(controller.due(now: 10).isEmpty)
        let out = controller.due(now: 14)
        #expect(out.map(\.target) == [.client(10)])
        #expect(controller.sources.connection(9)?.isNamed == true)
    }
}
