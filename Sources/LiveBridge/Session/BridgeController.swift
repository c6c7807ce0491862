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
        var lastRateError = -Double.infinity
        var lastPointerError = -Double.infinity
    }

    let configuration: Configuration
    private(set) var library: Library
    private(set) var player: Player?
    private(set) var clients: [ConnectionID: Client] = [:]
    private(set) var frameSequence: UInt64 = 0
    private var lastTick: Double?
    private let decoder = JSONDecoder()

    init(configuration: Configuration) {
        self.configuration = configuration
        library = Library(folder: configuration.recordingsFolder)
        library.rescan()
    }

    /// Files in the recordings folder that could not be read.
    var libraryProblems: [String] { library.problems }

    /// Whether frames should be produced (someone is watching something that moves).
    var wantsTicks: Bool { !clients.isEmpty && player?.isPlaying == true }

    /// Loads the first recording with the preset its gesture suits, so a first-time viewer sees motion.
    mutating func loadDefault() {
        guard let first = library.recordings.first(where: { $0.tags.contains("edge-back") || $0.tags.contains("swipe-down") })
            ?? library.recordings.first
        else { return }
        let preset = first.tags.contains("swipe-down") ? "swipe-dismiss" : "swipe-back"
        _ = try? load(LoadRequest(recording: first.id, preset: preset), now: 0)  // nothing to report to: no client yet
    }

    var snapshot: Snapshot {
        Snapshot(
            library: library.recordings, presets: PresetCatalog.entries, playback: player?.state,
            summary: player?.summary, recording: nil, tune: nil)
    }

    // MARK: Inputs

    mutating func handle(_ input: BridgeInput, now: Double) -> [Outgoing] {
        switch input {
        case .opened(let id, let canControl):
            clients[id] = Client(canControl: canControl, pointerTokens: configuration.pointerBurst, lastRefill: now)
            let hello = Hello(v: wireProtocolVersion, server: configuration.serverName, can_control: canControl, state: snapshot)
            var out = [Outgoing(target: .client(id), message: .hello(hello))]
            if var player {
                out.append(Outgoing(target: .client(id), message: .frame(frameMessage(player.frame(), of: player, now: now))))
                self.player = player
            }
            if clients.count == 1 { lastTick = now }
            return out
        case .closed(let id):
            clients[id] = nil
            return []
        case .message(let id, let bytes):
            return receive(bytes, from: id, now: now)
        }
    }

    private func reply(_ code: String, _ message: String, to id: ConnectionID, replyingTo type: String? = nil) -> [Outgoing] {
        [Outgoing(target: .client(id), message: .error(ErrorMessage(code: code, message: message, in_reply_to: type)))]
    }

    private mutating func receive(_ bytes: [UInt8], from id: ConnectionID, now: Double) -> [Outgoing] {
        guard let client = clients[id] else { return [] }
        let message: ClientMessage
        do {
            message = try decoder.decode(ClientMessage.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            return reply("bad_json", "not JSON: \(context.debugDescription)", to: id)
        } catch {
            return reply("bad_message", "not a valid message: \(DecodingProblem.describe(error))", to: id)
        }
        guard client.canControl else {
            return reply("forbidden", "\(message.type) changes state: connect with the ?token= that pantrace serve printed", to: id, replyingTo: message.type)
        }
        do {
            return try apply(message, from: id, now: now)
        } catch let failure as BridgeFailure {
            return reply(failure.code, failure.message, to: id, replyingTo: message.type)
        } catch {
            return reply("invalid", "\(error)", to: id, replyingTo: message.type)
        }
    }

    private mutating func apply(_ message: ClientMessage, from id: ConnectionID, now: Double) throws -> [Outgoing] {
        switch message {
        case .load(let request):
            return try load(request, now: now)
        case .play:
            try withPlayer { $0.isPlaying = true }
            lastTick = now
        case .pause:
            try withPlayer { $0.isPlaying = false }
        case .seek(let time):
            guard time.isFinite else { throw BridgeFailure("invalid", "seek time must be a finite number") }
            try withPlayer { $0.seek(to: time) }
        case .speed(let value):
            guard value.isFinite, (0.1...4).contains(value) else { throw BridgeFailure("invalid", "speed must be between 0.1 and 4, got \(value)") }
            try withPlayer { $0.speed = value }
        case .loop(let enabled):
            try withPlayer { $0.loops = enabled }
        case .step(let frames):
            guard abs(frames) <= 100_000 else { throw BridgeFailure("invalid", "step of \(frames) frames is too far") }
            try withPlayer { $0.step(frames: frames) }
        case .pointer:
            guard takePointerToken(for: id, now: now) else {
                // One error a second at most: a reply per event would flood the sender's queue.
                guard clients[id]!.lastRateError < now - 1 else { return [] }
                clients[id]!.lastRateError = now
                throw BridgeFailure("rate_limited", "more than \(Int(configuration.pointerRate)) pointer events a second; extra events are dropped")
            }
            guard clients[id]!.lastPointerError < now - 1 else { return [] }
            clients[id]!.lastPointerError = now
            throw BridgeFailure("unavailable", "live recording is not available in this build")
        case .record, .label, .save, .discard:
            throw BridgeFailure("unavailable", "live recording is not available in this build")
        case .tune:
            throw BridgeFailure("unavailable", "tuning from the viewer is not available in this build")
        }
        return playbackAndFrame(now: now)
    }

    private mutating func withPlayer(_ change: (inout Player) -> Void) throws {
        guard var player else { throw BridgeFailure("invalid", "nothing is loaded: send load first") }
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
        guard library.contains(request.recording) else {
            throw BridgeFailure("not_found", "no recording \"\(request.recording)\" in the library")
        }
        var overrides: [String: PresetValue] = [:]
        for (key, value) in request.parameters {
            switch value {
            case .number(let n): overrides[key] = .number(n)
            case .choice(let s): overrides[key] = .choice(s)
            }
        }
        let parameters: ReplayParameters
        do {
            parameters = try ReplayParameters(presetNamed: request.preset, overrides: overrides)
        } catch {
            throw BridgeFailure("invalid", "\(error)")
        }
        let trace: Trace
        do {
            trace = try library.trace(request.recording)
        } catch {
            throw BridgeFailure("not_found", "\(error)")
        }
        var loaded = try Player(
            load: (player?.load ?? 0) + 1, recording: request.recording, trace: trace, parameters: request.parameters,
            configuration: Replayer.Configuration(parameters: parameters, frameRate: configuration.frameRate))
        if let previous = player {
            loaded.speed = previous.speed
            loaded.loops = previous.loops
        }
        player = loaded
        lastTick = now
        return [Outgoing(target: .everyone, message: .summary(loaded.summary))] + playbackAndFrame(now: now)
    }

    private mutating func playbackAndFrame(now: Double) -> [Outgoing] {
        guard var player else { return [] }
        let frame = player.frame()
        self.player = player
        return [
            Outgoing(target: .everyone, message: .playback(player.state)),
            Outgoing(target: .frames, message: .frame(frameMessage(frame, of: player, now: now))),
        ]
    }

    private mutating func frameMessage(_ frame: FrameState, of player: Player, now: Double) -> FrameMessage {
        frameSequence += 1
        return FrameMessage(seq: frameSequence, load: player.load, emitted_us: 0, recording: player.recording, frame: frame)
    }

    // MARK: Time

    /// Advances the player to `now`; returns the frame to show, if it changed.
    mutating func tick(now: Double) -> [Outgoing] {
        defer { lastTick = now }
        guard let last = lastTick, var player, player.isPlaying, !clients.isEmpty else { return [] }
        let wasPlaying = player.isPlaying
        let passed = player.advance(by: now - last)
        var out: [Outgoing] = []
        for index in passed {
            let frame = player.frame(at: index)
            out.append(Outgoing(target: .frames, message: .frame(frameMessage(frame, of: player, now: now))))
        }
        self.player = player
        if wasPlaying && !player.isPlaying {
            out.append(Outgoing(target: .everyone, message: .playback(player.state)))
        }
        return out
    }
}

/// A request the bridge turned down, with the wire error code.
struct BridgeFailure: Error {
    var code: String
    var message: String
    init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}
