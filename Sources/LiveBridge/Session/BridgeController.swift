internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// The bridge's rules, apart from sockets and threads: a router over the parts that own the
/// state.
///
/// Fed ``BridgeInput``s and ticks with the time they happen at (seconds on a monotonic
/// clock the runtime reads; tests pass virtual time), it returns the messages to send.
///
/// **A page is a view.** Each page sees its own view (recording, preset, parameters, playhead,
/// speed, loop): what one page does reaches only that page, and the pages that chose to follow
/// it. Pages whose views agree share one (``PageViews``), so each frame is made and encoded
/// once for all of them. What is shared is the library, the record pad (one page holds it at a
/// time; every page sees the gesture live through its own settings), the live sources, and the
/// server's budget for replay work (``TokenBucket``).
///
/// The parts, each a value that owns its state: ``PageViews`` (who is shown what, who follows
/// whom, the frames already made), ``Library``, ``Comparisons``, ``Sweeps``, ``LiveSources`` (the
/// devices), the ``HeldPad`` and each page's ``LiveSession``; a live gesture, the pad's or a
/// device's, is a ``LiveGesture``.
struct BridgeController {
    struct Configuration {
        var recordingsFolder: String
        var frameRate: Double = 60
        /// The most recordings the library lists (``Library/maximumRecordings``).
        var maximumRecordings = TraceFolder.defaultLimit
        /// The most gestures listed of one corpus file (``Library/maximumCorpusGestures``).
        var maximumCorpusGestures = Library.defaultCorpusGestureLimit
        /// Pointer events a client may send per second (sustained), and in one burst.
        var pointerRate: Double = 500
        var pointerBurst: Double = 500
        /// Replay frames per second that pages without control may have computed for them
        /// (`compare`), all together, and in one burst: the server's total for them, so any
        /// number of watch-only pages cannot delay a page with control (about a fifth of a
        /// core at the engine's measured cost, docs/PROTOCOL.md §3).
        var watcherFrameRate: Double = 60_000
        var watcherFrameBurst: Double = 120_000
        var serverName = "pantrace 0.1.0"
    }

    /// One connection: a page.
    struct Client {
        var canControl: Bool
        /// The number people see ("page 3").
        let page: Int
        /// The view before this page armed the pad, restored by a discard.
        var beforeRecording: LoadRequest?
        /// This page's recording: armed or capturing (it holds the pad), or released and
        /// waiting for a label, a save or a discard.
        var session: LiveSession?
        /// Pointer events this page may send.
        var pointers: TokenBucket
        /// Errors said at most once a second.
        var throttle = Throttle()
        /// When this client's last `library` page was answered.
        var lastLibraryPage = -Double.infinity
        /// When this client last began to follow a page (each sends it the view's series).
        var lastFollow = -Double.infinity
    }

    let configuration: Configuration
    private(set) var library: Library
    /// The view a new page opens on (``loadDefault(recording:preset:)``), copied per page.
    private(set) var firstView: Player?
    /// Sweeps run one at a time, server-wide; the runtime takes the pending one.
    private(set) var sweeps = Sweeps()
    /// Seconds since the Unix epoch, set by the runtime before each input (for `created`).
    var wallClock = 0.0
    /// Counts changes everyone was told about (broadcasts).
    private(set) var broadcastVersion = 0
    var clients: [ConnectionID: Client] = [:]
    /// Which page is shown which view (pages whose views agree share one).
    var views = PageViews()
    private(set) var frameSequence: UInt64 = 0
    /// Load numbers are unique across pages, so a page that takes over another's view (stops
    /// following) never confuses two loads.
    private var nextLoad = 1
    private var nextPage = 1
    var lastTick: Double?
    /// Which views of watch-only pages make frames on a tick (the server's bound on them).
    var frameBudget = FrameBudget()
    private let decoder = JSONDecoder()
    /// The record pad while a page holds it (its session armed or capturing), with the gesture
    /// on it; nil while it is free.
    var pad: HeldPad?

    /// The page holding the record pad.
    var padHolder: ConnectionID? { pad?.holder }
    /// Live sources (devices) by session, and the sources' connections.
    var sources = LiveSources()
    /// Replay work for pages without control.
    private(set) var watcherWork: TokenBucket
    /// Comparisons asked for, being computed and computed (the same answer for every page that
    /// asks for one setting).
    private(set) var comparisons = Comparisons()
    /// The shortest time between two answered `library` pages of one page.
    static let libraryPageInterval = 0.2
    /// The shortest time between two `follow`s of one page (leaving is never paced).
    static let followInterval = 0.5
    /// Recordings in a `hello`; the rest come a `library` page at a time.
    static let helloLibraryLimit = 100
    /// Recordings in one `library` page.
    static let libraryPageLimit = 200
    /// Pages with control listed in `pages`.
    static let pagesListed = 32
    /// An armed pad nobody has touched for this long may be taken by another page.
    static let idlePadSeconds = 30.0

    init(configuration: Configuration) {
        self.configuration = configuration
        library = Library(
            folder: configuration.recordingsFolder, maximumRecordings: configuration.maximumRecordings,
            maximumCorpusGestures: configuration.maximumCorpusGestures)
        library.rescan()
        watcherWork = TokenBucket(rate: configuration.watcherFrameRate, burst: configuration.watcherFrameBurst)
    }

    /// Lines for the server's log that the runtime has not taken yet (``takeLog()``).
    var pendingLog: [String] = []

    /// The log lines gathered since the last call, oldest first.
    mutating func takeLog() -> [String] {
        defer { pendingLog.removeAll() }
        return pendingLog
    }

    /// Rescans the library; a file that newly cannot be read is logged once.
    mutating func rescanLibrary() {
        let fresh = library.rescan()
        pendingLog += fresh.problems.map { "skipped \($0)" } + fresh.notices
    }

    /// Files in the recordings folder that could not be read.
    var libraryProblems: [String] { library.problems }

    /// Limits the library reached (a corpus listed in part), one line each naming the flag.
    var libraryNotices: [String] { library.notices }

    /// Whether frames should be produced (some page watches a replay that moves).
    var wantsTicks: Bool { views.wantsTicks }

    /// The player page `id` sees: its own, its leader's while it follows one, or the one it
    /// shares with the pages that agree with it.
    func shownView(of id: ConnectionID) -> Player? { views.player(of: id) }

    /// The first view of a new page: `recording` under `preset` (with `parameters`, a tuned
    /// setting's) when given, otherwise a gesture that shows what PanTrace does
    /// (``firstView(in:)``).
    /// - Returns: why it could not, for the server to report at start (nil when it loaded or
    ///   the library is empty).
    mutating func loadDefault(recording: String? = nil, preset: String? = nil, parameters: [String: PresetValue] = [:]) -> String? {
        guard let (id, suited) = recording.map({ ($0, "best") }) ?? Self.firstView(in: library.recordings) else { return nil }
        let presetName = preset ?? suited
        do {
            firstView = try player(for: LoadRequest(recording: id, preset: presetName, parameters: parameters))
            return nil
        } catch let failure as BridgeFailure {
            return "cannot open \(id) with \(presetName): \(failure.message)"
        } catch {
            return "cannot open \(id) with \(presetName): \(error)"
        }
    }

    /// The first view when none is asked for: a labelled edge swipe back of at least 0.3 s (one
    /// meant to finish, when there is one) under
    /// `best` (a projection decides it, and the timeline shows the gesture, the release, the
    /// projected landing point and the completion); else a labelled swipe down of at least 0.3 s
    /// under `swipe-dismiss`; else the first recording under `swipe-dismiss`. In sorted id order.
    static func firstView(in recordings: [RecordingInfo]) -> (String, String)? {
        let sorted = recordings.sorted { $0.id < $1.id }
        // A gesture meant to finish first: its replay carries the transition through.
        func shown(_ tag: String) -> RecordingInfo? {
            let candidates = sorted.filter { $0.tags.contains(tag) && $0.intent.outcome != nil && $0.complete && $0.durationSeconds >= 0.3 }
            return candidates.first { $0.intent == .finish } ?? candidates.first
        }
        if let edge = shown("edge-back") { return (edge.id, "best") }
        if let down = shown("swipe-down") { return (down.id, "swipe-dismiss") }
        return sorted.first.map { ($0.id, "swipe-dismiss") }
    }

    /// What page `id` needs to draw its first view: bounded whatever the library holds.
    func snapshot(for id: ConnectionID, now: Double) -> Snapshot {
        let view = shownView(of: id)
        return Snapshot(
            library: withDevices(library.recordings.prefix(Self.helloLibraryLimit)), libraryTotal: library.recordings.count,
            libraryNotices: Self.boundedNotices(library.notices),
            presets: PresetCatalog.entries, playback: view?.state, summary: view?.summary,
            recording: padHolder.flatMap { clients[$0]?.session?.status(at: now) }, pages: pagesListing.pages,
            sources: sources.isEmpty ? nil : sources.message.sources)
    }

    /// What page `id` is listed with in ``pagesListing``: the recording and preset it shows.
    private func shownListing(of id: ConnectionID) -> PageInfo {
        let shown = views.player(of: id)
        return PageInfo(page: clients[id]?.page ?? 0, recording: shown?.recording, preset: shown?.presetName)
    }

    /// The pages with control, which others may follow.
    var pagesListing: PagesMessage {
        let controlling = clients.filter(\.value.canControl).sorted { $0.value.page < $1.value.page }.prefix(Self.pagesListed)
        return PagesMessage(
            pages: controlling.map { id, _ in shownListing(of: id) },
            total: clients.count)
    }

    // MARK: Time

    /// When something falls due with no input (a source's connection runs out of time to name
    /// itself), if anything will: the runtime wakes then and calls ``due(now:)``.
    var deadline: Double? { sources.namingDeadline }

    /// What falls due at `now` with no input: source connections that did not name themselves
    /// in time are closed, each with one error saying why.
    mutating func due(now: Double) -> [Outgoing] {
        sources.expireUnnamed(now: now).flatMap { id in
            pendingLog.append("closed a source connection that sent no source message within \(Int(LiveSources.namingTimeout)) s")
            let failure = BridgeFailure(
                .invalid,
                "no source message within \(Int(LiveSources.namingTimeout)) s of connecting: a source names itself first (docs/PROTOCOL.md §4)")
            return reply(failure, to: id).map { $0.closingTheConnection() }
        }
    }

    // MARK: Inputs

    mutating func handle(_ input: BridgeInput, now: Double) -> [Outgoing] {
        let out = respond(to: input, now: now)
        if out.contains(where: { $0.target == .everyone }) { broadcastVersion += 1 }
        return out
    }

    private mutating func respond(to input: BridgeInput, now: Double) -> [Outgoing] {
        switch input {
        case .opened(let id, let canControl):
            let ticking = wantsTicks
            let page = nextPage
            clients[id] = Client(
                canControl: canControl, page: page, pointers: TokenBucket(rate: configuration.pointerRate, burst: configuration.pointerBurst))
            nextPage += 1
            views.open(id, template: firstView)
            let hello = Hello(
                v: wireProtocolVersion, server: configuration.serverName, canControl: canControl, page: page,
                state: snapshot(for: id, now: now))
            // Pages joining a quiet scene get the same hello but for their number: the runtime
            // encodes it once and writes each page's number in (``HelloTemplate``). While the pad
            // is held the status in it changes with time, so each is encoded on its own.
            let shared = padHolder == nil ? "hello \(canControl) \(broadcastVersion)" : nil
            var out = [Outgoing(target: .client(id), message: .hello(hello), shareKey: shared)]
            if let viewID = views.viewOf[id] {
                out +=
                    views.withFrames(viewID) { view, cache in
                        // Alone on the view: its next frame. Joining pages already shown it: the frame
                        // they were last sent, under its number, so their numbering goes on unbroken.
                        let frame = view.members == [id] ? cache.message(of: &view.player) : cache.repeated(of: &view.player)
                        return [
                            Outgoing(target: .client(id), message: .series(view.player.seriesMessage), shareKey: "series \(view.player.load)"),
                            Outgoing(target: .framesFor([id]), message: .frame(frame))
                        ]
                    } ?? []
            }
            if !ticking { lastTick = now }
            if canControl { out.append(Outgoing(target: .everyone, message: .pages(pagesListing))) }
            return out
        case .sourceOpened(let id):
            // Nothing is sent until the source names itself (docs/PROTOCOL.md §4).
            sources.opened(id, now: now)
            return []
        case .closed(let id):
            if sources.isSource(id) { return sourceClosed(id, now: now) }
            guard let client = clients.removeValue(forKey: id) else { return [] }
            var out: [Outgoing] = []
            comparisons.forget(id)
            // Those who followed this page keep what they saw, as their own view.
            for follower in views.close(id) {
                out.append(
                    Outgoing(
                        target: .client(follower), message: .following(FollowingMessage(page: nil, reason: "page \(client.page) closed"))))
            }
            if var session = client.session {
                // The recorder left: a gesture in progress is kept, complete, as an unsaved file.
                session.finalise()
                if padHolder == id {
                    pad = nil
                    out.append(Outgoing(target: .everyone, message: .recording(session.status(at: now))))
                }
                rescanLibrary()
                out.append(libraryBroadcast())
            }
            if client.canControl { out.append(Outgoing(target: .everyone, message: .pages(pagesListing))) }
            return out
        case .tuned(let id, let result):
            sweeps.finished()
            guard clients[id] != nil else { return [] }
            switch result {
            case .success(let bytes):
                return [Outgoing(target: .clients(withFollowers(id)), message: .encoded(type: "tune", bytes: bytes))]
            case .failure(let failure):
                return reply(failure, to: id, replyingTo: "tune")
            }
        case .message(let id, let bytes):
            return receive(bytes, from: id, now: now)
        case .compared(let key, let result):
            return compared(key, result)
        }
    }

    func reply(_ failure: BridgeFailure, to id: ConnectionID, replyingTo type: String? = nil) -> [Outgoing] {
        [
            Outgoing(
                target: .client(id),
                message: .error(
                    ErrorMessage(
                        code: failure.code, message: failure.message, inReplyTo: type,
                        retryAfterMilliseconds: failure.retryAfter.map { Int(($0 * 1000).rounded(.up)) })))
        ]
    }

    private mutating func receive(_ bytes: [UInt8], from id: ConnectionID, now: Double) -> [Outgoing] {
        if sources.isSource(id) { return receiveFromSource(bytes, from: id, now: now) }
        guard let client = clients[id] else { return [] }
        let message: ClientMessage
        do {
            message = try decoder.decode(ClientMessage.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            return reply(BridgeFailure(.badJSON, "not JSON: \(context.debugDescription)"), to: id)
        } catch {
            return reply(BridgeFailure(.badMessage, "not a valid message: \(DecodingProblem.describe(error))"), to: id)
        }
        guard client.canControl || !message.changesState else {
            return reply(
                BridgeFailure(.forbidden, "\(message.type) needs control: open the address with the ?token= that pantrace serve printed"),
                to: id, replyingTo: message.type)
        }
        do {
            // A page others may follow is listed with what it shows: when that changes (a load,
            // a save, a kept gesture), every page's follow menu is told.
            let shown = client.canControl ? shownListing(of: id) : nil
            let out = try apply(message, from: id, now: now)
            guard client.canControl, shownListing(of: id) != shown else { return out }
            return out + [Outgoing(target: .everyone, message: .pages(pagesListing))]
        } catch let failure as BridgeFailure {
            return reply(failure, to: id, replyingTo: message.type)
        } catch {
            return reply(BridgeFailure(.invalid, "\(error)"), to: id, replyingTo: message.type)
        }
    }

    private mutating func apply(_ message: ClientMessage, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        switch message {
        case .load(let request):
            if request.sheet != nil {
                throw BridgeFailure(.invalid, "sheet: a load plays a two-state transition; ask for a sheet with compare")
            }
            let left = leaveFollowing(id)
            return left + (try load(request, for: id))
        case .compare(let request):
            return try compare(request, for: id, now: now)
        case .follow(let page):
            // Following sends the view's whole series (up to a few hundred KiB): paced per page.
            // Leaving, or a follow refused for another reason, costs nothing and is not paced.
            guard page != nil else { return try follow(page: nil, from: id) }
            let wait = (clients[id]?.lastFollow ?? -.infinity) + Self.followInterval - now
            guard wait <= 0 else { throw BridgeFailure(.rateLimited, "at most two follows a second", retryAfter: wait) }
            let out = try follow(page: page, from: id)
            clients[id]?.lastFollow = now
            return out
        case .visible(let visible):
            return setVisible(visible, of: id)
        case .library(let offset):
            guard now - (clients[id]?.lastLibraryPage ?? -.infinity) >= Self.libraryPageInterval else {
                throw BridgeFailure(.rateLimited, "at most five library pages a second", retryAfter: Self.libraryPageInterval)
            }
            clients[id]?.lastLibraryPage = now
            return [Outgoing(target: .client(id), message: .library(libraryPage(from: offset)))]
        case .play:
            return try changeView(of: id) { $0.isPlaying = true }
        case .pause:
            return try changeView(of: id) { $0.isPlaying = false }
        case .seek(let time):
            guard time.isFinite else { throw BridgeFailure(.invalid, "seek time must be a finite number") }
            return try changeView(of: id) { $0.seek(to: time) }
        case .speed(let value):
            guard value.isFinite, (0.1...4).contains(value) else { throw BridgeFailure(.invalid, "speed must be between 0.1 and 4, got \(value)") }
            return try changeView(of: id) { $0.speed = value }
        case .loop(let enabled):
            return try changeView(of: id) { $0.loops = enabled }
        case .step(let frames):
            // `magnitude`, not `abs`: abs(Int.min) traps.
            guard frames.magnitude <= 100_000 else { throw BridgeFailure(.invalid, "step of \(frames) frames is too far") }
            return try changeView(of: id) { $0.step(frames: frames) }
        case .pointer(let request):
            guard clients[id]?.pointers.take(now: now) == nil else {
                try throttled(
                    BridgeFailure(.rateLimited, "more than \(Int(configuration.pointerRate)) pointer events a second; extra events are dropped"),
                    for: id, now: now)
                return []
            }
            return try pointer(request, from: id, now: now)
        case .record(let request):
            return try arm(request, from: id, now: now)
        case .label(let intent):
            try withSession(of: id) { try $0.label(intent) }
            return recordingStatus(of: id, now: now)
        case .save(let name):
            return try save(name: name, from: id, now: now)
        case .discard:
            return try discard(from: id, now: now)
        case .tune(let request):
            return try tune(request, from: id)
        case .watch(let source):
            return try watch(source: source, from: id)
        case .keep(let request):
            return try keep(request, from: id)
        case .drop(let files):
            return try dropUnsaved(files, from: id)
        case .source, .samples:
            throw BridgeFailure(.badMessage, "\(message.type) comes from a live source: connect with role=source (docs/PROTOCOL.md §4)")
        }
    }

    private mutating func tune(_ request: TuneRequest, from id: ConnectionID) throws -> [Outgoing] {
        try sweeps.start(for: id) {
            let asked = request.recordings.isEmpty ? library.recordings.filter { $0.intent.outcome != nil }.map(\.id) : request.recordings
            // Each recording once, in the order first named: a list naming one file many times asks
            // for no more work than naming it once.
            var seen = Set<String>()
            let paths = asked.filter { seen.insert($0).inserted }
            for path in paths where !library.contains(path) {
                throw BridgeFailure(.notFound, "no recording \"\(path)\" in the library")
            }
            return TuneJob(
                folder: library.folder, ids: paths, preset: request.preset, grid: request.grid,
                corpusGestures: library.corpusGestures.filter { seen.contains($0.key) })
        }
        return []
    }

    /// The runtime takes the pending sweep to run it elsewhere.
    mutating func takePendingTune() -> (ConnectionID, TuneJob)? { sweeps.takePending() }

    /// The most limit notices a `hello` or `library` page carries (each names its corpus).
    static let noticesListed = 8

    /// The library's notices as the wire carries them: nil when there are none, at most
    /// ``noticesListed``, the last saying how many more there are.
    static func boundedNotices(_ notices: [String]) -> [String]? {
        guard !notices.isEmpty else { return nil }
        guard notices.count > noticesListed else { return notices.map { Library.bounded($0, toBytes: 600) } }
        return notices.prefix(noticesListed - 1).map { Library.bounded($0, toBytes: 600) }
            + ["and \(notices.count - noticesListed + 1) more corpora listed in part (the server's output names them)"]
    }

    /// Recordings `offset…` of the library, one page.
    func libraryPage(from offset: Int) -> LibraryPage {
        let all = library.recordings
        let start = min(offset, all.count)
        return LibraryPage(
            recordings: withDevices(all[start..<min(all.count, start + Self.libraryPageLimit)]), offset: start, total: all.count,
            notices: Self.boundedNotices(library.notices))
    }

    /// The library changed: every page gets its first page again (and the total).
    func libraryBroadcast() -> Outgoing {
        var page = libraryPage(from: 0)
        page.recordings = Array(page.recordings.prefix(Self.helloLibraryLimit))
        return Outgoing(target: .everyone, message: .library(page))
    }

    /// Throws `failure` at most once a second per client and kind (``Throttle``).
    mutating func throttled(_ failure: BridgeFailure, for id: ConnectionID, now: Double) throws {
        guard clients[id]?.throttle.allows(failure.code.rawValue + " " + failure.message, now: now) == true else { return }
        throw failure
    }

    // MARK: Audiences

    mutating func nextLoadNumber() -> Int {
        defer { nextLoad += 1 }
        return nextLoad
    }

    mutating func nextFrameSequence() -> UInt64 {
        frameSequence += 1
        return frameSequence
    }

    // MARK: Comparisons

    private mutating func compare(_ request: LoadRequest, for id: ConnectionID, now: Double) throws -> [Outgoing] {
        // Anyone may compare, and each answer replays a whole recording: at most a few a second
        // per page, and for pages without control, within the server's budget for them all.
        switch try comparisons.ask(request, from: id, now: now) {
        case .answered(let answer):
            return [Outgoing(target: .client(id), message: .encoded(type: answer.type, bytes: answer.bytes))]
        case .waiting:
            return []
        case .unknown:
            break
        }
        guard library.contains(request.recording) else {
            throw BridgeFailure(.notFound, "no recording \"\(request.recording)\" in the library")
        }
        if request.sheet != nil {
            // A sheet library with its settings; the sheet itself was checked where it was decoded.
            do {
                _ = try DetentPreset(named: request.setting.preset, overrides: request.setting.parameters)
            } catch {
                throw BridgeFailure(.invalid, "preset: \(error)")
            }
        } else {
            _ = try Player.parameters(of: request)
        }
        if clients[id]?.canControl != true, let wait = watcherWork.take(estimatedFrames(of: request.recording), now: now) {
            throw BridgeFailure(.busy, "the server is working on other pages' comparisons; ask again in a moment", retryAfter: wait)
        }
        comparisons.start(
            CompareJob(
                folder: library.folder, request: request, frameRate: configuration.frameRate,
                location: library.corpusLocation(of: request.recording)), for: id, now: now)
        return []
    }

    /// The runtime takes the comparisons to compute off the controller thread.
    mutating func takePendingCompares() -> [CompareJob] { comparisons.takeJobs() }

    /// A comparison finished: every page that asked for it meanwhile gets it.
    mutating func compared(_ request: LoadRequest, _ result: Result<CompareAnswer, BridgeFailure>) -> [Outgoing] {
        let waiting = comparisons.finished(request, result).filter { clients[$0] != nil }
        switch result {
        case .success(let answer):
            return waiting.map { Outgoing(target: .client($0), message: .encoded(type: answer.type, bytes: answer.bytes)) }
        case .failure(let failure):
            return waiting.flatMap { reply(failure, to: $0, replyingTo: "compare") }
        }
    }

    /// An upper bound on the frames a replay of `id` computes: its duration plus two seconds of
    /// completion, at the frame rate.
    private func estimatedFrames(of id: String) -> Double {
        let duration = library.recordings.first { $0.id == id }?.durationSeconds ?? ValueLimits.replaySpan
        return (duration + 2) * configuration.frameRate
    }

    /// A player of `request` (nothing is changed).
    mutating func player(for request: LoadRequest) throws -> Player {
        guard library.contains(request.recording) else {
            throw BridgeFailure(.notFound, "no recording \"\(request.recording)\" in the library")
        }
        let parameters = try Player.parameters(of: request)
        let trace: Trace
        do {
            trace = try library.trace(request.recording)
        } catch {
            throw BridgeFailure(.notFound, "\(error)")
        }
        return try Player(load: nextLoadNumber(), request: request, parameters: parameters, trace: trace, frameRate: configuration.frameRate)
    }
}

/// A request the bridge turned down, with the wire error code.
struct BridgeFailure: Error, Sendable {
    var code: ErrorCode
    var message: String
    /// For `busy` and `rate_limited`: seconds until asking again may succeed.
    var retryAfter: Double?
    init(_ code: ErrorCode, _ message: String, retryAfter: Double? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }
}
