import TestSupport
import Foundation
import PanCapture
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

/// Each page is its own view: what one page does reaches only it and the pages that follow it.
struct PageViewTests {
    typealias Base = BridgeControllerTests
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func recipients(_ out: [Outgoing]) -> Set<ConnectionID> {
        var ids = Set<ConnectionID>()
        for outgoing in out {
            switch outgoing.target {
            case .client(let id): ids.insert(id)
            case .clients(let list), .framesFor(let list): ids.formUnion(list)
            case .everyone, .frames: break
            }
        }
        return ids
    }

    static func errorCodes(_ out: [Outgoing]) -> [ErrorCode] {
        out.compactMap { outgoing -> ErrorCode? in
            guard case .error(let e) = outgoing.message else { return nil }
            return e.code
        }
    }

    static func load(_ recording: String, _ preset: String, _ parameters: String = "{}") -> [UInt8] {
        json(#"{"type":"load","recording":"\#(recording)","preset":"\#(preset)","parameters":\#(parameters)}"#)
    }

    @Test func aPagesLoadSeekPauseAndSpeedNeverReachAnotherPage() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        let before = try #require(controller.shownView(of: 2)?.state)
        var out = controller.handle(.message(1, Self.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss", #"{"threshold":0.3}"#)), now: 0.1)
        for text in [#"{"type":"seek","time":0.2}"#, #"{"type":"pause"}"#, #"{"type":"speed","value":0.25}"#, #"{"type":"loop","enabled":false}"#] {
            out += controller.handle(.message(1, Self.json(text)), now: 0.2)
        }
        // The view goes to page 1 alone; every page is told only what page 1 now shows, for
        // its follow menu (`pages`), never the view itself.
        #expect(Self.recipients(out.filter { $0.message.type != "pages" }) == [1])
        #expect(!out.contains { ($0.target == .everyone && $0.message.type != "pages") || $0.target == .frames })
        #expect(out.filter { $0.message.type == "pages" }.count == 1)  // the load; not the seek, pause, speed or loop
        let after = try #require(controller.shownView(of: 2)?.state)
        #expect(after.recording == before.recording && after.preset == before.preset && after.parameters == before.parameters)
        #expect(after.playing && after.speed == 1 && after.loop)
        #expect(controller.shownView(of: 1)?.state.recording == "synthetic/swipe-down-1.pantrace")
        #expect(controller.shownView(of: 1)?.state.playing == false)
        // Ticks move each page's own playhead: page 1 is paused, page 2 plays.
        let ticked = controller.tick(now: 0.25)
        #expect(Self.recipients(ticked) == [2])
    }

    /// A page that keeps up sees its frames numbered 1, 2, 3, … whatever made them.
    @Test func aViewsFramesAreNumberedConsecutivelyWhateverMadeThem() throws {
        var controller = try Base.controller()
        var out = controller.handle(.opened(1, canControl: true), now: 0)
        out += controller.handle(.message(1, Self.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.1)
        for text in [#"{"type":"seek","time":0.2}"#, #"{"type":"step","frames":1}"#, #"{"type":"play"}"#] {
            out += controller.handle(.message(1, Self.json(text)), now: 0.2)
        }
        for k in 1...5 { out += controller.tick(now: 0.2 + Double(k) / 60) }
        let numbers = out.compactMap { outgoing -> UInt64? in
            guard case .frame(let f) = outgoing.message else { return nil }
            return f.seq
        }
        #expect(numbers.count >= 9)
        #expect(numbers == Array(1...UInt64(numbers.count)), "\(numbers)")
    }

    /// Pages on the same replay share each frame's making and encoding: the same body key, the
    /// same frame, and the bytes written around a shared body are the bytes of the whole.
    @Test func pagesShownTheSameFrameOfTheSameReplayShareIt() throws {
        var controller = try Base.controller()
        let a = controller.handle(.opened(1, canControl: false), now: 0)
        let b = controller.handle(.opened(2, canControl: false), now: 0)
        func frame(_ out: [Outgoing]) -> FrameMessage? {
            out.lazy.compactMap { if case .frame(let f) = $0.message { f } else { nil } }.first
        }
        let one = try #require(frame(a))
        let two = try #require(frame(b))
        #expect(one.body != nil && one.body == two.body)
        #expect(FrameMessage.bodyJSON(one.frame) == FrameMessage.bodyJSON(two.frame))
        var stamped = two
        stamped.emittedMicroseconds = 1_763_700_000_000_000
        let body = try #require(FrameMessage.bodyJSON(stamped.frame))
        #expect(stamped.sortedKeysJSON(body: body) == stamped.sortedKeysJSON())
        #expect(controller.views.frames.count == 1, "made once for both pages")
    }

    @Test func aNewPageOpensOnTheFirstViewWhateverAnotherPageShows() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.1)
        let joined = controller.handle(.opened(2, canControl: true), now: 0.2)
        guard case .hello(let hello) = joined.first?.message else {
            Issue.record("no hello")
            return
        }
        #expect(hello.page == 2)
        #expect(hello.state.playback?.recording == controller.firstView?.recording)
        #expect(hello.state.playback?.recording != "synthetic/swipe-down-1.pantrace")
    }

    @Test func aFollowingPageSeesTheLeadersViewUntilItChangesItsOwn() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: false), now: 0)
        let pageOfOne = controller.clients[1]!.page
        let followed = controller.handle(.message(2, Self.json(#"{"type":"follow","page":\#(pageOfOne)}"#)), now: 0.1)
        #expect(followed.contains { if case .following(let f) = $0.message { f.page == pageOfOne } else { false } })
        // The leader's load reaches the follower too.
        let loaded = controller.handle(.message(1, Self.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.2)
        #expect(Self.recipients(loaded) == [1, 2])
        #expect(controller.shownView(of: 2)?.recording == "synthetic/swipe-down-1.pantrace")
        // A watch-only follower cannot seek; it stops following, keeping what it saw.
        let stop = controller.handle(.message(2, Self.json(#"{"type":"follow"}"#)), now: 0.3)
        #expect(stop.contains { if case .following(let f) = $0.message { f.page == nil } else { false } })
        _ = controller.handle(.message(1, Self.load("synthetic/edge-back-0.pantrace", "best")), now: 0.4)
        #expect(controller.shownView(of: 2)?.recording == "synthetic/swipe-down-1.pantrace")
        // A page cannot follow itself, nor a page that is not open.
        let selfFollow = controller.handle(.message(1, Self.json(#"{"type":"follow","page":\#(pageOfOne)}"#)), now: 0.5)
        #expect(Self.errorCodes(selfFollow) == [.invalid])
        let nobody = controller.handle(.message(1, Self.json(#"{"type":"follow","page":99}"#)), now: 0.5)
        #expect(Self.errorCodes(nobody) == [.notFound])
    }

    @Test func whenTheLeaderClosesTheFollowerKeepsItsView() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.1)
        _ = controller.handle(.message(2, Self.json(#"{"type":"follow","page":1}"#)), now: 0.2)
        let closed = controller.handle(.closed(1), now: 0.3)
        #expect(closed.contains { if case .following(let f) = $0.message { f.page == nil && f.reason == "page 1 closed" } else { false } })
        #expect(controller.shownView(of: 2)?.recording == "synthetic/swipe-down-1.pantrace")
        #expect(controller.views.leaderOf[2] == nil)
    }

    // MARK: Budgets

    @Test func aTuneNamingOneRecordingManyTimesReadsItOnce() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let ids = Array(repeating: #""synthetic/swipe-down-1.pantrace""#, count: 100).joined(separator: ",")
        _ = controller.handle(
            .message(
                1,
                Self.json(
                    #"{"type":"tune","recordings":[\#(ids),"synthetic/swipe-down-0.pantrace"],"preset":"swipe-dismiss","grid":["threshold=0.3,0.5"]}"#
                )),
            now: 0.1)
        let pending = controller.takePendingTune()
        let (_, job) = try #require(pending)
        #expect(job.ids == ["synthetic/swipe-down-1.pantrace", "synthetic/swipe-down-0.pantrace"])
        // One sweep at a time, server-wide, with a hint when to ask again.
        let second = controller.handle(
            .message(1, Self.json(#"{"type":"tune","recordings":[],"preset":"swipe-dismiss","grid":["threshold=0.3,0.5"]}"#)), now: 0.2)
        guard case .error(let busy) = second.first?.message else {
            Issue.record("a second sweep was not refused")
            return
        }
        #expect(busy.code == .busy && busy.retryAfterMilliseconds == 1000)
    }

    @Test func aTunesResultGoesToThePageThatAskedNotToEveryone() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(
            .message(1, Self.json(#"{"type":"tune","recordings":[],"preset":"swipe-dismiss","grid":["threshold=0.3,0.5"]}"#)), now: 0.1)
        let pending = controller.takePendingTune()
        let (id, job) = try #require(pending)
        let out = controller.handle(.tuned(id, job.run()), now: 0.2)
        #expect(out.map(\.message.type) == ["tune"])
        #expect(Self.recipients(out) == [1])
    }

    /// Watch-only pages share one budget of replay work; whatever they ask, a page with control
    /// is answered, and a comparison already computed costs nothing.
    @Test func watchOnlyComparisonsShareOneBudgetAndNeverDelayAControllersOwn() throws {
        var configuration = BridgeController.Configuration(recordingsFolder: try Base.makeLibrary())
        configuration.watcherFrameRate = 1_000
        configuration.watcherFrameBurst = 1_000
        var controller = BridgeController(configuration: configuration)
        #expect(controller.loadDefault() == nil)
        for id in ConnectionID(10)..<30 { _ = controller.handle(.opened(id, canControl: false), now: 0) }
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        var answered = 0
        var busy: [ErrorMessage] = []
        for (k, id) in (ConnectionID(10)..<30).enumerated() {
            // Each a different setting, so none is in the cache.
            let text =
                #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss","parameters":{"threshold":\#(0.2 + Double(k) * 0.01)}}"#
            for outgoing in Base.send(text, from: id, to: &controller, now: 0.01) {
                if Base.series(outgoing) != nil { answered += 1 }
                if case .error(let e) = outgoing.message { busy.append(e) }
            }
        }
        // A swipe of about a second is about 180 frames with its completion: the 1,000-frame
        // budget answers a handful, and the rest are told to ask again, with when.
        #expect((1...6).contains(answered), "\(answered) answered")
        #expect(busy.count == 20 - answered)
        #expect(busy.allSatisfy { $0.code == .busy && $0.inReplyTo == "compare" && ($0.retryAfterMilliseconds ?? 0) > 0 })
        // The controller's own comparison is answered at once.
        let own = Base.send(#"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"best"}"#, from: 1, to: &controller, now: 0.01)
        #expect(own.map(\.message.type) == ["series"])
        // A comparison someone already asked for is answered from the cache, within no budget.
        let cached = controller.handle(
            .message(29, Self.json(#"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"best"}"#)), now: 0.5)
        #expect(cached.map(\.message.type) == ["series"], "answered at once, with no job")
        #expect(controller.takePendingCompares().isEmpty)
        // Once the budget has refilled, a new setting is answered again.
        let later = Base.send(#"{"type":"compare","recording":"synthetic/swipe-down-0.pantrace","preset":"best"}"#, from: 28, to: &controller, now: 2)
        #expect(later.map(\.message.type) == ["series"])
    }

    /// Pages asking for a comparison already being computed wait for the same job.
    @Test func pagesAskingForTheSameComparisonShareOneJob() throws {
        var controller = try Base.controller()
        for id in ConnectionID(1)...3 { _ = controller.handle(.opened(id, canControl: true), now: 0) }
        let text = #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"zoom"}"#
        for id in ConnectionID(1)...3 { #expect(controller.handle(.message(id, Self.json(text)), now: 0.1).isEmpty) }
        let jobs = controller.takePendingCompares()
        #expect(jobs.count == 1)
        let out = controller.handle(.compared(jobs[0].request, jobs[0].run()), now: 0.2)
        #expect(out.map(\.target) == [.client(1), .client(2), .client(3)])
        #expect(out.allSatisfy { Base.series($0)?.preset == "zoom" && Base.series($0)?.role == "compare" })
    }

    @Test func theBudgetTakesWhatFitsAndSaysHowLongTheRestWaits() {
        var budget = TokenBucket(rate: 100, burst: 200)
        #expect(budget.take(150, now: 0) == nil)
        #expect(budget.take(100, now: 0) == 0.5)  // 50 left, 50 missing at 100 a second
        #expect(budget.take(100, now: 0.5) == nil)
        #expect(budget.take(1_000, now: 0.5) != nil)  // more than the burst waits for a full bucket
        #expect(budget.take(1_000, now: 2.5) == nil)  // then runs, leaving the bucket in debt
        #expect(budget.take(1, now: 2.5) != nil)
    }

    /// `hello` carries the first view and a bounded part of the library, whatever it holds:
    /// many files with many long tags cannot make it too large for a page to receive.
    @Test func helloStaysUnder256KiBWhateverTheLibraryHolds() throws {
        let folder = try TemporaryFolder.path("big-library")
        var trace = GestureSynthesizer(seed: 8).trace(at: 0)
        trace.metadata.id = String(repeating: "n", count: 5_000)
        trace.metadata.tags = (0..<200).map { "tag-\($0)-" + String(repeating: "t", count: 2_000) }
        for i in 0..<300 {
            // Every other file's name and tags are one character each of thousands of scalars
            // (an accent stacked 4,000 times): a bound in characters would keep all of it.
            if i % 2 == 1 {
                trace.metadata.id = "e" + String(repeating: "\u{301}", count: 4_000)
                trace.metadata.tags = (0..<20).map { _ in "t" + String(repeating: "\u{308}", count: 4_000) }
            }
            try TraceEncoder.write(trace, to: "\(folder)/g\(String(format: "%03d", i)).pantrace")
        }
        var controller = BridgeController(configuration: .init(recordingsFolder: folder))
        _ = controller.loadDefault()
        let out = controller.handle(.opened(1, canControl: true), now: 0)
        guard case .hello(let hello) = out.first?.message else {
            Issue.record("no hello")
            return
        }
        let bytes = try JSONEncoder().encode(ServerMessage.hello(hello)).count
        #expect(bytes <= 256 * 1024, "hello is \(bytes) bytes")
        #expect(hello.state.library.count == BridgeController.helloLibraryLimit)
        #expect(hello.state.libraryTotal == 300)
        #expect(
            hello.state.library.allSatisfy {
                $0.tags.count <= 16 && $0.name.utf8.count <= 200 && $0.tags.allSatisfy { $0.utf8.count <= 64 }
            })
        #expect(hello.state.library.contains { $0.name.unicodeScalars.starts(with: "e\u{301}\u{301}".unicodeScalars) && $0.name.hasSuffix("…") })
        // The rest of the library, a page at a time.
        let page = controller.handle(.message(1, Self.json(#"{"type":"library","offset":100}"#)), now: 0.1)
        guard case .library(let rest) = page.first?.message else {
            Issue.record("no library page")
            return
        }
        #expect(rest.offset == 100 && rest.recordings.count == 200 && rest.total == 300)
        #expect(rest.recordings.first?.id == "g100.pantrace")
    }
}

/// A hidden page (a background tab) costs nothing: its view waits and it is sent no frames.
struct HiddenPageTests {
    @Test func aHiddenPageIsSentNoFramesAndGoesOnWhereItWasWhenShown() throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: false), now: 0)
        _ = controller.handle(.opened(2, canControl: false), now: 0)
        _ = controller.handle(.message(1, Array(#"{"type":"visible","visible":false}"#.utf8)), now: 0)
        var sent = Set<ConnectionID>()
        for k in 1...30 { sent.formUnion(PageViewTests.recipients(controller.tick(now: Double(k) / 60))) }
        #expect(sent == [2])
        let time = controller.shownView(of: 1)?.state.time
        _ = controller.handle(.message(2, Array(#"{"type":"visible","visible":false}"#.utf8)), now: 0.6)
        #expect(!controller.wantsTicks, "nobody is shown: no ticks at all")
        let shown = controller.handle(.message(1, Array(#"{"type":"visible","visible":true}"#.utf8)), now: 1)
        #expect(shown.map(\.message.type) == ["playback", "frame"])
        #expect(controller.shownView(of: 1)?.state.time == time, "the playhead waited")
        #expect(controller.wantsTicks)
    }

    @Test func aHiddenLeaderStillPlaysForAShownFollower() throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: false), now: 0)
        _ = controller.handle(.message(2, Array(#"{"type":"follow","page":1}"#.utf8)), now: 0)
        _ = controller.handle(.message(1, Array(#"{"type":"visible","visible":false}"#.utf8)), now: 0)
        #expect(controller.wantsTicks)
        #expect(PageViewTests.recipients(controller.tick(now: 0.1)) == [1, 2])
    }
}

/// Pages whose views agree are shown one view: each frame is made, numbered and encoded once
/// for all of them, and a page that changes anything leaves it at once.
struct SharedViewTests {
    typealias Base = BridgeControllerTests

    static func frames(_ out: [Outgoing]) -> [(FrameMessage, [ConnectionID])] {
        out.compactMap { outgoing in
            guard case .frame(let frame) = outgoing.message, case .framesFor(let to) = outgoing.target else { return nil }
            return (frame, to)
        }
    }

    @Test func pagesOnTheFirstViewAreShownOneViewAndEachFrameGoesOnceToAll() throws {
        var controller = try Base.controller()
        for id in ConnectionID(1)...200 { _ = controller.handle(.opened(id, canControl: false), now: 0) }
        #expect(controller.views.views.count == 1)
        let ticked = Self.frames(controller.tick(now: 1.0 / 60))
        #expect(ticked.count == 1, "one frame message for 200 pages")
        #expect(ticked.first?.1 == Array(1...200))
    }

    @Test func aPageJoiningASharedViewIsSentTheLastFrameUnderItsNumber() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: false), now: 0)
        var last: UInt64 = 0
        for k in 1...5 { last = Self.frames(controller.tick(now: Double(k) / 60)).last?.0.seq ?? last }
        let joined = Self.frames(controller.handle(.opened(2, canControl: false), now: 5.0 / 60))
        #expect(joined.map(\.0.seq) == [last] && joined.map(\.1) == [[2]])
        let next = Self.frames(controller.tick(now: 6.0 / 60))
        #expect(next.map(\.0.seq) == [last + 1] && next.map(\.1) == [[1, 2]], "page 1 sees no gap")
    }

    /// Both sides of the rule: the page that changes leaves with a copy; a page that only
    /// watches stays on the shared view.
    @Test(arguments: [#"{"type":"pause"}"#, #"{"type":"seek","time":0.1}"#, #"{"type":"speed","value":2}"#, #"{"type":"visible","visible":false}"#])
    func aPageThatChangesAnythingLeavesTheSharedViewAndTheOthersGoOn(_ change: String) throws {
        var controller = try Base.controller()
        for id in ConnectionID(1)...3 { _ = controller.handle(.opened(id, canControl: true), now: 0) }
        _ = controller.tick(now: 1.0 / 60)
        let before = try #require(controller.shownView(of: 2)?.state)
        let out = controller.handle(.message(1, Array(change.utf8)), now: 1.0 / 60)
        #expect(PageViewTests.recipients(out).isSubset(of: [1]))
        #expect(controller.views.viewOf[1] != controller.views.viewOf[2])
        #expect(controller.views.viewOf[2] == controller.views.viewOf[3], "the pages that did nothing still share")
        let after = try #require(controller.shownView(of: 2)?.state)
        #expect(after.playing == before.playing && after.speed == before.speed && after.time == before.time)
        let ticked = Self.frames(controller.tick(now: 2.0 / 60))
        #expect(ticked.contains { $0.1 == [2, 3] })
        #expect(!ticked.contains { $0.1.contains(1) && $0.1.count > 1 })
    }

    @Test func aLeaderThatChangesTakesItsFollowersAndLeavesTheOthers() throws {
        var controller = try Base.controller()
        for id in ConnectionID(1)...3 { _ = controller.handle(.opened(id, canControl: true), now: 0) }
        let pageOfOne = try #require(controller.clients[1]?.page)
        _ = controller.handle(.message(2, Array(#"{"type":"follow","page":\#(pageOfOne)}"#.utf8)), now: 0.1)
        _ = controller.handle(.message(1, PageViewTests.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.2)
        #expect(controller.views.viewOf[1] == controller.views.viewOf[2])
        #expect(controller.views.viewOf[3] != controller.views.viewOf[1])
        #expect(controller.shownView(of: 3)?.recording == controller.firstView?.recording)
    }

    @Test func theFirstViewChangedByItsOnlyPageIsNotJoinedByTheNext() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.message(1, Array(#"{"type":"pause"}"#.utf8)), now: 0.1)
        _ = controller.handle(.opened(2, canControl: true), now: 0.2)
        #expect(controller.views.viewOf[1] != controller.views.viewOf[2])
        #expect(controller.shownView(of: 2)?.isPlaying == true)
    }
}

/// `PageViews` on its own: who is shown what, in virtual time with no controller.
struct PageViewsTests {
    static func player() throws -> Player {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        return try #require(controller.shownView(of: 1))
    }

    @Test func aPageMovedToTheViewItIsShownStaysShownIt() throws {
        var views = PageViews()
        let id = views.add(try Self.player(), for: [1])
        views.move([1], to: id)
        #expect(views.viewOf[1] == id && views.views[id]?.members == [1])
    }

    @Test func aViewLeftByItsLastPageIsForgottenAndTheFirstViewWithIt() throws {
        var views = PageViews()
        views.open(1, template: try Self.player())
        views.open(2, template: nil)
        #expect(views.viewOf[1] == views.viewOf[2] && views.firstViewID != nil)
        _ = views.close(1)
        _ = views.close(2)
        #expect(views.views.isEmpty && views.firstViewID == nil)
        // The next page opens a fresh first view from the template.
        views.open(3, template: try Self.player())
        #expect(views.views.count == 1 && views.firstViewID == views.viewOf[3])
    }

    @Test func aHiddenMemberDoesNotKeepAViewTickingButAShownOneDoes() throws {
        var views = PageViews()
        let id = views.add(try Self.player(), for: [1, 2])
        views.setHidden(1, true)
        #expect(views.wantsTicks)
        views.setHidden(2, true)
        #expect(!views.wantsTicks)
        views.setHidden(2, false)
        #expect(views.tickingViews == [id])
    }

    /// While a watched source's gesture is under way the watchers' stages show it: the view
    /// they had waits, unless a page that does not watch it sees that view too.
    @Test func aViewWaitsWhileEveryPageOnItWatchesALiveGesture() throws {
        var views = PageViews()
        let id = views.add(try Self.player(), for: [1, 2])
        views.watch(1, source: 7)
        views.setLive(7, true)
        #expect(views.tickingViews == [id] && !views.sees(1) && views.sees(2))
        views.watch(2, source: 7)  // a page that starts watching a gesture under way
        #expect(!views.wantsTicks)
        views.watch(2, source: nil)
        #expect(views.wantsTicks)
        views.watch(2, source: 7)
        views.setLive(7, false)  // released: both see their view again
        #expect(views.tickingViews == [id] && views.sees(1) && views.sees(2))
        #expect(views.watchers(of: 7) == [1, 2])
    }

    @Test func aPageInTheBackgroundIsNoWatcherAndAReturningDeviceKeepsItsWatchers() throws {
        var views = PageViews()
        let id = views.add(try Self.player(), for: [1, 2])
        views.watch(1, source: 3)
        views.watch(2, source: 3)
        views.setHidden(2, true)
        #expect(views.watchers(of: 3) == [1])
        views.setLive(3, true)
        views.renumberSource(3, to: 4)  // the device came back as source 4, mid-gesture
        #expect(views.watchers(of: 4) == [1] && views.liveSources == [4] && !views.wantsTicks)
        views.setHidden(2, false)
        views.setLive(4, false)
        #expect(views.tickingViews == [id])
        _ = views.close(1)
        #expect(views.watchingOf[1] == nil && views.watchers(of: 4) == [2])
    }
}

/// `follow` sends the leader's whole series, so each page may begin to follow at most twice a
/// second (``BridgeController/followInterval``); leaving is never paced. The follow menu lists
/// each page with what it shows now.
struct FollowPaceTests {
    typealias Base = BridgeControllerTests

    static func pages(_ out: [Outgoing]) -> [PagesMessage] {
        out.compactMap { if case .pages(let p) = $0.message { p } else { nil } }
    }

    @Test func aPageWithControlIsListedWithWhatItShowsNow() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: false), now: 0)
        let one = controller.clients[1]!.page
        let loaded = controller.handle(.message(1, PageViewTests.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.1)
        let listed = try #require(Self.pages(loaded).first)
        #expect(Self.pages(loaded).count == 1)
        #expect(listed.pages.first { $0.page == one }?.recording == "synthetic/swipe-down-1.pantrace")
        #expect(listed.pages.first { $0.page == one }?.preset == "swipe-dismiss")
        // What it shows did not change: nobody is told again.
        let sped = controller.handle(.message(1, Base.json(#"{"type":"speed","value":2}"#)), now: 0.2)
        #expect(Self.pages(sped).isEmpty)
        let again = controller.handle(.message(1, PageViewTests.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.3)
        #expect(Self.pages(again).isEmpty)
        // Another preset is another listing.
        let preset = controller.handle(.message(1, PageViewTests.load("synthetic/swipe-down-1.pantrace", "best")), now: 0.4)
        #expect(Self.pages(preset).first?.pages.first { $0.page == one }?.preset == "best")
    }

    @Test func stoppingToFollowCarriesNoReasonAndLeavingForAnotherViewDoes() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        let one = controller.clients[1]!.page
        func reasons(_ out: [Outgoing]) -> [String?] {
            out.compactMap { if case .following(let f) = $0.message, f.page == nil { f.reason } else { nil } }
        }
        _ = controller.handle(.message(2, Base.json(#"{"type":"follow","page":\#(one)}"#)), now: 1)
        #expect(reasons(controller.handle(.message(2, Base.json(#"{"type":"follow"}"#)), now: 1.1)) == [nil])
        _ = controller.handle(.message(2, Base.json(#"{"type":"follow","page":\#(one)}"#)), now: 2)
        let left = controller.handle(.message(2, PageViewTests.load("synthetic/edge-back-0.pantrace", "best")), now: 2.1)
        #expect(reasons(left) == ["you changed the view"])
    }

    @Test(arguments: [(0.49, false), (0.5, true)])
    func aPageFollowsAtMostTwiceASecond(gap: Double, accepted: Bool) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(.opened(3, canControl: false), now: 0)
        let one = controller.clients[1]!.page, two = controller.clients[2]!.page
        let first = controller.handle(.message(3, Base.json(#"{"type":"follow","page":\#(one)}"#)), now: 1)
        #expect(first.contains { if case .series = $0.message { true } else { false } })
        let leave = controller.handle(.message(3, Base.json(#"{"type":"follow"}"#)), now: 1)
        #expect(leave.contains { if case .following(let f) = $0.message { f.page == nil } else { false } })
        let again = controller.handle(.message(3, Base.json(#"{"type":"follow","page":\#(two)}"#)), now: 1 + gap)
        let refused = again.compactMap { if case .error(let e) = $0.message { e } else { nil } }
        #expect(refused.map(\.code) == (accepted ? [] : [.rateLimited]))
        #expect(again.contains { if case .series = $0.message { true } else { false } } == accepted)
        if !accepted { #expect(refused.first?.retryAfterMilliseconds.map { (10...11).contains($0) } == true) }  // 0.01 s, rounded up
    }
}

/// A link keeps the playhead's time to the millisecond; reopened, it lands on the same frame,
/// not the one before (issue: "a link reopens one frame early").
struct SeekToLinkTimeTests {
    typealias Base = BridgeControllerTests

    @Test func aTimeRoundedToTheMillisecondSeeksToItsFrame() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.message(1, PageViewTests.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss")), now: 0.1)
        let fps = try #require(controller.shownView(of: 1)).frameRate
        let start = try #require(controller.shownView(of: 1)).state.time
        var early = 0
        for frame in 1..<40 {
            let exact = start + Double(frame) / fps
            let linked = (exact * 1000).rounded() / 1000  // as the address writes it
            _ = controller.handle(.message(1, Base.json(#"{"type":"seek","time":\#(linked)}"#)), now: 0.2)
            let shown = try #require(controller.shownView(of: 1)).state.time
            if abs(shown - exact) > 1e-9 { early += 1 }
        }
        #expect(early == 0)
        // A time between frames (more than half a millisecond off any) still shows the frame before it.
        let between = start + 2.5 / fps
        _ = controller.handle(.message(1, Base.json(#"{"type":"seek","time":\#(between)}"#)), now: 0.3)
        #expect(abs(try #require(controller.shownView(of: 1)).state.time - (start + 2 / fps)) < 1e-9)
    }
}

/// The server's bound on the replay work watch-only pages can ask for (``FrameBudget``): views
/// only they see make frames for at most 200 of them a tick, a window that moves on; a view a
/// page with the token sees makes every frame.
struct FrameBudgetTests {
    typealias Base = BridgeControllerTests

    /// `count` pages, each with a view of its own, playing: each went to the background and
    /// came back at a moment of its own (a background page keeps its own view, so its return
    /// shows where it was), as watch-only pages can. With `control`, page 1 has the token.
    static func ownViews(_ count: Int, control: Bool = false) throws -> BridgeController {
        var controller = try Base.controller()
        _ = controller.tick(now: 0)
        for id in 1...ConnectionID(count) {
            let at = Double(id) * 1e-4
            _ = controller.handle(.opened(id, canControl: control && id == 1), now: at)
            _ = controller.handle(.message(id, Base.json(#"{"type":"visible","visible":false}"#)), now: at)
            _ = controller.tick(now: at + 5e-5)
            _ = controller.handle(.message(id, Base.json(#"{"type":"visible","visible":true}"#)), now: at + 5e-5)
        }
        _ = controller.tick(now: 0.1)
        return controller
    }

    static func framed(_ out: [Outgoing]) -> [[ConnectionID]] {
        out.compactMap { if case .frame = $0.message, case .framesFor(let ids) = $0.target { ids } else { nil } }
    }

    @Test(arguments: [(200, 200), (201, 200)])
    func atMostTwoHundredWatchOnlyViewsMakeFramesATick(pages: Int, framed: Int) throws {
        var controller = try Self.ownViews(pages)
        #expect(controller.views.tickingViews.count == pages)
        let out = controller.tick(now: 0.1 + 1 / 60)
        #expect(Set(Self.framed(out)).count == framed)
    }

    @Test func theWindowMovesOnSoEveryViewIsShown() throws {
        var controller = try Self.ownViews(450)
        var shown = Set<[ConnectionID]>()
        var perTick: [Int] = []
        for tick in 1...3 {
            let frames = Set(Self.framed(controller.tick(now: 0.1 + Double(tick) / 60)))
            perTick.append(frames.count)
            shown.formUnion(frames)
        }
        #expect(perTick == [200, 200, 200])
        #expect(shown.count == 450)
    }

    @Test func aViewThePageWithTheTokenSeesMakesEveryFrame() throws {
        var controller = try Self.ownViews(400, control: true)
        for tick in 1...4 {
            let frames = Self.framed(controller.tick(now: 0.1 + Double(tick) / 60))
            #expect(frames.contains([1]))
            #expect(Set(frames).count == 201)
        }
    }
}
