internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// The bridge's state and rules, apart from sockets and threads.
///
/// Fed ``BridgeInput``s and ticks with the time they happen at (seconds on a monotonic
/// clock the runtime reads; tests pass virtual time), it returns the messages to send. It
/// owns the player everyone watches, the library, and the connections' rights and rate limits.
struct BridgeController {
    struct Configuration {
        var recordingsFolder: String
        var frameRate: Double = 60
        /// Pointer events a client may send per second (sustained), and in one burst.
        var pointerRate: Double = 500
        var pointerBurst: Double = 500
        var serverName = "pantrace 0.1.0"
    }

    struct Client {
        var canControl: Bool
        var pointerTokens: Double
        var lastRefill: Double
        /// When each kind of throttled error was last sent.
        var lastThrottledError: [String: Double] = [:]
        /// When this client's last `compare` was answered (each replays a whole recording).
        var lastCompare = -Double.infinity
    }

    let configuration: Configuration
    private(set) var library: Library
    private(set) var player: Player?
    private(set) var session: LiveSession?
    private(set) var lastTune: TuneOutcome?
    /// A sweep to run off this thread; the runtime takes it and reports back with `.tuned`.
    private(set) var pendingTune: (ConnectionID, TuneJob)?
    private var isTuning = false
    /// Seconds since the Unix epoch, set by the runtime before each input (for `created`).
    var wallClock = 0.0
    /// Counts changes everyone was told about; a `hello` is shared while it stays the same.
    /// (The playhead time in a shared `hello` may be a few frames old; the next frame has it.)
    private(set) var broadcastVersion = 0
    private(set) var clients: [ConnectionID: Client] = [:]
    private(set) var frameSequence: UInt64 = 0
    private var lastTick: Double?
    private let decoder = JSONDecoder()
    /// When a capturing recording's status was last sent.
    private var lastCaptureStatus = -Double.infinity
    static let captureStatusInterval = 0.1
    /// The shortest time between two answered `compare`s of one client.
    static let compareInterval = 0.2

    init(configuration: Configuration) {
        self.configuration = configuration
        library = Library(folder: configuration.recordingsFolder)
        library.rescan()
    }

    /// Lines for the server's log that the runtime has not taken yet (``takeLog()``).
    private var pendingLog: [String] = []

    /// The log lines gathered since the last call, oldest first.
    mutating func takeLog() -> [String] {
        defer { pendingLog.removeAll() }
        return pendingLog
    }

    /// Rescans the library; a file that newly cannot be read is logged once.
    private mutating func rescanLibrary() {
        pendingLog += library.rescan().map { "skipped \($0)" }
    }

    /// Files in the recordings folder that could not be read.
    var libraryProblems: [String] { library.problems }

    /// Whether frames should be produced (someone is watching something that moves).
    var wantsTicks: Bool { !clients.isEmpty && player?.isPlaying == true }

    /// The first view of a new page: `recording` under `preset` when given, otherwise a
    /// gesture that shows what PanTrace does (``firstView(in:)``).
    /// - Returns: why it could not, for the server to report at start (nil when it loaded or
    ///   the library is empty).
    mutating func loadDefault(recording: String? = nil, preset: String? = nil) -> String? {
        guard let (id, suited) = recording.map({ ($0, "best") }) ?? Self.firstView(in: library.recordings) else { return nil }
        let presetName = preset ?? suited
        do {
            _ = try load(LoadRequest(recording: id, preset: presetName), now: 0)
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
            let candidates = sorted.filter { $0.tags.contains(tag) && $0.intent != .unknown && $0.complete && $0.durationSeconds >= 0.3 }
            return candidates.first { $0.intent == .finish } ?? candidates.first
        }
        if let edge = shown("edge-back") { return (edge.id, "best") }
        if let down = shown("swipe-down") { return (down.id, "swipe-dismiss") }
        return sorted.first.map { ($0.id, "swipe-dismiss") }
    }

    var snapshot: Snapshot {
        Snapshot(
            library: library.recordings, presets: PresetCatalog.entries, playback: player?.state,
            summary: player?.summary, recording: session?.status, tune: lastTune)
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
            clients[id] = Client(canControl: canControl, pointerTokens: configuration.pointerBurst, lastRefill: now)
            let hello = Hello(v: wireProtocolVersion, server: configuration.serverName, canControl: canControl, state: snapshot)
            var out = [Outgoing(target: .client(id), message: .hello(hello), shareKey: "hello \(canControl) \(broadcastVersion)")]
            if var player {
                out.append(Outgoing(target: .client(id), message: .series(player.seriesMessage), shareKey: "series \(player.load)"))
                out.append(Outgoing(target: .client(id), message: .frame(frameMessage(player.frame(), of: player))))
                self.player = player
            }
            if clients.count == 1 { lastTick = now }
            return out
        case .closed(let id):
            clients[id] = nil
            if session?.owner == id {
                // The recorder left: a gesture in progress is kept, complete, as an unsaved file.
                session?.finalise()
                session = nil
                rescanLibrary()
                return [Outgoing(target: .everyone, message: .library(library.recordings))]
            }
            return []
        case .tuned(let id, let result):
            isTuning = false
            switch result {
            case .success(let outcome):
                lastTune = outcome
                return [Outgoing(target: .everyone, message: .tune(outcome))]
            case .failure(let failure):
                return reply(failure.code, failure.message, to: id, replyingTo: "tune")
            }
        case .message(let id, let bytes):
            return receive(bytes, from: id, now: now)
        }
    }

    private func reply(_ code: ErrorCode, _ message: String, to id: ConnectionID, replyingTo type: String? = nil) -> [Outgoing] {
        [Outgoing(target: .client(id), message: .error(ErrorMessage(code: code, message: message, inReplyTo: type)))]
    }

    private mutating func receive(_ bytes: [UInt8], from id: ConnectionID, now: Double) -> [Outgoing] {
        guard let client = clients[id] else { return [] }
        let message: ClientMessage
        do {
            message = try decoder.decode(ClientMessage.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            return reply(.badJSON, "not JSON: \(context.debugDescription)", to: id)
        } catch {
            return reply(.badMessage, "not a valid message: \(DecodingProblem.describe(error))", to: id)
        }
        guard client.canControl || !message.changesState else {
            return reply(
                .forbidden, "\(message.type) changes state: connect with the ?token= that pantrace serve printed", to: id, replyingTo: message.type)
        }
        do {
            return try apply(message, from: id, now: now)
        } catch let failure as BridgeFailure {
            return reply(failure.code, failure.message, to: id, replyingTo: message.type)
        } catch {
            return reply(.invalid, "\(error)", to: id, replyingTo: message.type)
        }
    }

    private mutating func apply(_ message: ClientMessage, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        switch message {
        case .load(let request):
            return try load(request, now: now)
        case .compare(let request):
            // Anyone may compare, and each answer replays a whole recording: at most a few a second.
            guard now - clients[id]!.lastCompare >= Self.compareInterval else {
                throw BridgeFailure(.rateLimited, "at most \(Int(1 / Self.compareInterval)) compare requests a second; ask again in a moment")
            }
            clients[id]!.lastCompare = now
            return [Outgoing(target: .client(id), message: .series(try compared(request)))]
        case .play:
            try withPlayer { $0.isPlaying = true }
            lastTick = now
        case .pause:
            try withPlayer { $0.isPlaying = false }
        case .seek(let time):
            guard time.isFinite else { throw BridgeFailure(.invalid, "seek time must be a finite number") }
            try withPlayer { $0.seek(to: time) }
        case .speed(let value):
            guard value.isFinite, (0.1...4).contains(value) else { throw BridgeFailure(.invalid, "speed must be between 0.1 and 4, got \(value)") }
            try withPlayer { $0.speed = value }
        case .loop(let enabled):
            try withPlayer { $0.loops = enabled }
        case .step(let frames):
            // `magnitude`, not `abs`: abs(Int.min) traps.
            guard frames.magnitude <= 100_000 else { throw BridgeFailure(.invalid, "step of \(frames) frames is too far") }
            try withPlayer { $0.step(frames: frames) }
        case .pointer(let request):
            guard takePointerToken(for: id, now: now) else {
                try throttled(
                    BridgeFailure(.rateLimited, "more than \(Int(configuration.pointerRate)) pointer events a second; extra events are dropped"),
                    for: id, now: now)
                return []
            }
            return try pointer(message: request, from: id, now: now)
        case .record(let request):
            return try arm(request, from: id)
        case .label(let intent):
            try withSession(of: id) { try $0.label(intent) }
            return [recordingStatus()]
        case .save(let name):
            let unsaved = session?.status.file
            try withSession(of: id) { _ = try $0.save(name: name) }
            rescanLibrary()
            var out = [recordingStatus(), Outgoing(target: .everyone, message: .library(library.recordings))]
            // The player showed the unsaved file: it now shows the saved one (its name, its
            // label), at the same time, so no page names a file that no longer exists.
            if let unsaved, let saved = session?.status.id, let playing = player, playing.recording == unsaved {
                let time = playing.state.time
                let wasPlaying = playing.isPlaying
                out += try load(LoadRequest(recording: saved, preset: playing.state.preset, parameters: playing.parameters), now: now)
                try withPlayer {
                    $0.seek(to: time)
                    $0.isPlaying = wasPlaying
                }
                out += playbackAndFrame(now: now)
            }
            return out
        case .discard:
            let unsaved = session?.status.file
            try withSession(of: id) { try $0.discard() }
            rescanLibrary()
            var out = [recordingStatus(), Outgoing(target: .everyone, message: .library(library.recordings))]
            // The player showed the discarded file: back to the first view.
            if let unsaved, player?.recording == unsaved, let (first, preset) = Self.firstView(in: library.recordings) {
                out += try load(LoadRequest(recording: first, preset: preset), now: now)
            }
            return out
        case .tune(let request):
            guard !isTuning else { throw BridgeFailure(.busy, "a tuning sweep is already running") }
            let paths = request.recordings.isEmpty ? library.recordings.filter { $0.intent != .unknown }.map(\.id) : request.recordings
            for path in paths where !library.contains(path) {
                throw BridgeFailure(.notFound, "no recording \"\(path)\" in the library")
            }
            isTuning = true
            pendingTune = (id, TuneJob(folder: library.folder, ids: paths, preset: request.preset, grid: request.grid))
            return []
        }
        return playbackAndFrame(now: now)
    }

    /// The runtime takes the pending sweep to run it elsewhere.
    mutating func takePendingTune() -> (ConnectionID, TuneJob)? {
        defer { pendingTune = nil }
        return pendingTune
    }

    var liveFolder: String { library.folder + "/live" }

    private mutating func arm(_ request: RecordRequest, from id: ConnectionID) throws -> [Outgoing] {
        if let session, session.owner != id, session.state == .armed || session.state == .capturing || session.state == .released {
            throw BridgeFailure(.busy, "another viewer is recording; try again when it has saved or discarded")
        }
        if session?.state == .capturing { session?.finalise() }
        let presetName = request.preset ?? player?.configuration.parameters.preset.name.rawValue ?? "swipe-back"
        let preset: Preset
        do {
            preset = try Preset(named: presetName, numericOverrides: [:])
        } catch {
            throw BridgeFailure(.invalid, "\(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: liveFolder, withIntermediateDirectories: true)
        } catch {
            throw BridgeFailure(.failed, "cannot create \(liveFolder): \(error.localizedDescription)")
        }
        let date = Date(timeIntervalSince1970: wallClock)
        let created = ISO8601DateFormatter().string(from: date)
        let stamp = created.filter { $0.isNumber }
        session = LiveSession(owner: id, request: request, preset: preset, folder: liveFolder, created: created, stamp: stamp)
        return [recordingStatus()]
    }

    private mutating func pointer(message: PointerMessage, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        guard var active = session, active.owner == id else {
            try throttled(BridgeFailure(.invalid, "not recording: send record first"), for: id, now: now)
            return []
        }
        let before = active.state
        let frame: FrameState?
        do {
            frame = try active.handle(message)
        } catch {
            session = active  // a write failure ends the recording (state `failed`)
            throw error
        }
        session = active
        var out: [Outgoing] = []
        if let frame {
            frameSequence += 1
            out.append(
                Outgoing(
                    target: .frames,
                    message: .frame(
                        FrameMessage(
                            seq: frameSequence, load: -1, emittedMicroseconds: 0, recording: active.status.file ?? "", frame: frame))))
        }
        // The status goes out on each change of state, and while capturing at most ten times
        // a second, so every page's counter and "if released now" follow the finger.
        let statusDue = active.state == .capturing && now - lastCaptureStatus >= Self.captureStatusInterval
        if active.state != before || statusDue {
            lastCaptureStatus = now
            out.append(recordingStatus())
        }
        if active.state != before {
            if active.state == .released, let file = active.status.file {
                // Replay what was just recorded so everyone sees the decision and the completion.
                rescanLibrary()
                out.append(Outgoing(target: .everyone, message: .library(library.recordings)))
                if library.contains(file) {
                    do {
                        out += try load(LoadRequest(recording: file, preset: active.presetName), now: now)
                    } catch {
                        // The recording is kept either way; say why it is not shown.
                        let message = (error as? BridgeFailure)?.message ?? "\(error)"
                        out.append(
                            Outgoing(
                                target: .client(id),
                                message: .error(
                                    ErrorMessage(
                                        code: .invalid, message: "recorded, but cannot replay it: \(message)", inReplyTo: "pointer"))))
                    }
                }
            }
        }
        return out
    }

    /// Throws `failure` at most once a second per client and kind: pointer events come by the
    /// hundred, and a reply to each would flood the sender's queue.
    private mutating func throttled(_ failure: BridgeFailure, for id: ConnectionID, now: Double) throws {
        let key = failure.code.rawValue + " " + failure.message
        guard clients[id]!.lastThrottledError[key, default: -.infinity] < now - 1 else { return }
        clients[id]!.lastThrottledError[key] = now
        throw failure
    }

    private mutating func withSession(of id: ConnectionID, _ change: (inout LiveSession) throws -> Void) throws {
        guard var active = session, active.owner == id else { throw BridgeFailure(.invalid, "not recording: send record first") }
        try change(&active)
        session = active
    }

    private func recordingStatus() -> Outgoing {
        Outgoing(target: .everyone, message: .recording(session!.status))
    }

    /// Ends a recording in progress so its file is complete (shutdown).
    mutating func finaliseRecording() {
        session?.finalise()
    }

    private mutating func withPlayer(_ change: (inout Player) -> Void) throws {
        guard var player else { throw BridgeFailure(.invalid, "nothing is loaded: send load first") }
        change(&player)
        self.player = player
    }

    private mutating func takePointerToken(for id: ConnectionID, now: Double) -> Bool {
        var client = clients[id]!
        client.pointerTokens = min(configuration.pointerBurst, client.pointerTokens + (now - client.lastRefill) * configuration.pointerRate)
        client.lastRefill = now
        let allowed = client.pointerTokens >= 1
        if allowed { client.pointerTokens -= 1 }
        clients[id] = client
        return allowed
    }

    mutating func load(_ request: LoadRequest, now: Double) throws -> [Outgoing] {
        var loaded = try player(for: request, load: (player?.load ?? 0) + 1)
        if let previous = player {
            loaded.speed = previous.speed
            loaded.loops = previous.loops
        }
        player = loaded
        lastTick = now
        // The series after the playback that starts the load, so a viewer files it under it.
        return [Outgoing(target: .everyone, message: .summary(loaded.summary))] + playbackAndFrame(now: now) + [
            Outgoing(target: .everyone, message: .series(loaded.seriesMessage), shareKey: "series \(loaded.load)")
        ]
    }

    /// The whole replay of `request`, for one viewer to compare with what plays.
    private mutating func compared(_ request: LoadRequest) throws -> SeriesMessage {
        var message = try player(for: request, load: player?.load ?? 0).seriesMessage
        message.role = "compare"
        return message
    }

    /// A player of `request` (nothing is changed).
    private mutating func player(for request: LoadRequest, load: Int) throws -> Player {
        guard library.contains(request.recording) else {
            throw BridgeFailure(.notFound, "no recording \"\(request.recording)\" in the library")
        }
        let parameters: ReplayParameters
        do {
            parameters = try ReplayParameters(presetNamed: request.preset, overrides: request.parameters)
        } catch {
            throw BridgeFailure(.invalid, "\(error)")
        }
        let trace: Trace
        do {
            trace = try library.trace(request.recording)
        } catch {
            throw BridgeFailure(.notFound, "\(error)")
        }
        return try Player(
            load: load, recording: request.recording, trace: trace, parameters: request.parameters,
            configuration: Replayer.Configuration(parameters: parameters, frameRate: configuration.frameRate))
    }

    private mutating func playbackAndFrame(now: Double) -> [Outgoing] {
        guard var player else { return [] }
        let frame = player.frame()
        self.player = player
        return [
            Outgoing(target: .everyone, message: .playback(player.state)),
            Outgoing(target: .frames, message: .frame(frameMessage(frame, of: player)))
        ]
    }

    private mutating func frameMessage(_ frame: FrameState, of player: Player) -> FrameMessage {
        frameSequence += 1
        return FrameMessage(seq: frameSequence, load: player.load, emittedMicroseconds: 0, recording: player.recording, frame: frame)
    }

    // MARK: Time

    /// Benchmark only (`pantrace serve --bench-frame-rate`): one frame per call, cycling
    /// through the replay without the loop pause, whenever ``wantsTicks``; the runtime calls it
    /// at the benchmark rate instead of ``tick(now:)``.
    mutating func benchmarkTick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        guard wantsTicks, var player, let index = player.advanceOneFrame() else { return [] }
        let frame = player.frame(at: index)
        self.player = player
        return [Outgoing(target: .frames, message: .frame(frameMessage(frame, of: player)))]
    }

    /// Advances the player to `now`; returns the frame to show, if it changed.
    mutating func tick(now: Double) -> [Outgoing] {
        let out = advance(now: now)
        if out.contains(where: { $0.target == .everyone }) { broadcastVersion += 1 }
        return out
    }

    private mutating func advance(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        guard let last = lastTick, var player, player.isPlaying, !clients.isEmpty else { return [] }
        let wasPlaying = player.isPlaying
        let passed = player.advance(by: now - last)
        var out: [Outgoing] = []
        for index in passed {
            let frame = player.frame(at: index)
            out.append(Outgoing(target: .frames, message: .frame(frameMessage(frame, of: player))))
        }
        self.player = player
        if wasPlaying && !player.isPlaying {
            out.append(Outgoing(target: .everyone, message: .playback(player.state)))
        }
        return out
    }
}

/// A request the bridge turned down, with the wire error code.
struct BridgeFailure: Error, Sendable {
    var code: ErrorCode
    var message: String
    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
