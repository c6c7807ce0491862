public import PanReplay
public import PanTrace
public import TransitionEngine

/// A message from the bridge to viewers (docs/PROTOCOL.md §2).
///
/// Encoded as one JSON object whose `type` names the case, with the payload's fields beside it.
public enum ServerMessage: Sendable {
    /// The first message on every connection: the whole current state.
    case hello(Hello)
    /// The recordings changed (one was saved).
    case library([RecordingInfo])
    /// The player's state changed.
    case playback(PlaybackState)
    /// One display frame of the replay.
    case frame(FrameMessage)
    /// The replay's decision and metrics, once per pass.
    case summary(ReplaySummary)
    /// Live recording progress.
    case recording(RecordingStatus)
    /// A finished tuning sweep.
    case tune(TuneOutcome)
    /// A request failed; the connection stays open.
    case error(ErrorMessage)

    /// The `type` value.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .library: "library"
        case .playback: "playback"
        case .frame: "frame"
        case .summary: "summary"
        case .recording: "recording"
        case .tune: "tune"
        case .error: "error"
        }
    }
}

/// The protocol version this bridge speaks.
public let wireProtocolVersion = 1

/// `hello`.
public struct Hello: Codable, Sendable {
    public var v: Int
    public var server: String
    /// Whether this connection presented the token and may change state.
    public var can_control: Bool
    public var state: Snapshot
}

/// Everything a late joiner needs to show what everyone else sees.
public struct Snapshot: Codable, Sendable {
    public var library: [RecordingInfo]
    public var presets: [PresetCatalog.Entry]
    public var playback: PlaybackState?
    public var summary: ReplaySummary?
    public var recording: RecordingStatus?
    public var tune: TuneOutcome?
}

/// One recording in the library.
public struct RecordingInfo: Codable, Sendable, Equatable {
    /// The path under the recordings folder, which is its id on the wire.
    public var id: String
    public var name: String
    public var intent: Intent
    public var source: String
    public var samples: Int
    public var duration_s: Double
    public var tags: [String]
    public var screen: ScreenGeometry
    public var edge: ScreenEdge?
    public var complete: Bool
}

/// `library`.
struct LibraryPayload: Codable {
    var recordings: [RecordingInfo]
}

/// `playback`: what the player is doing.
public struct PlaybackState: Codable, Sendable, Equatable {
    /// Counts loads; frames carry it so a viewer can drop frames of an earlier load, which may
    /// arrive after this message because control messages overtake queued frames.
    public var load: Int
    public var recording: String
    public var preset: String
    public var parameters: [String: PresetValue]
    public var playing: Bool
    public var speed: Double
    public var loop: Bool
    /// The playhead, seconds of gesture time.
    public var time: Double
    /// First and last frame times of the replay (the end includes the completion).
    public var start: Double
    public var end: Double
    public var release: Double
    public var fps: Double
}

/// `frame`.
public struct FrameMessage: Codable, Sendable {
    /// Increases by one per frame sent.
    public var seq: UInt64
    /// The ``PlaybackState/load`` this frame belongs to.
    public var load: Int
    /// When the bridge produced the frame, microseconds since the Unix epoch (for latency).
    public var emitted_us: Int64
    public var recording: String
    public var frame: FrameState
}

/// `recording`: live recording progress.
public struct RecordingStatus: Codable, Sendable, Equatable {
    /// `armed`, `capturing`, `released`, `saved`, `discarded`, `failed`.
    public var state: String
    public var samples: Int
    public var duration_s: Double
    public var intent: Intent
    /// The file being written, relative to the recordings folder.
    public var file: String?
    /// The library id once saved.
    public var id: String?
    public var message: String?
}

/// `tune`: the sweep's result in the `pantrace tune --json` schema (docs/TUNE.md).
public struct TuneOutcome: Codable, Sendable {
    public var preset: String
    public var report: JSONValue
}

/// `error`.
public struct ErrorMessage: Codable, Sendable, Equatable {
    /// A stable code: `bad_json`, `bad_message`, `forbidden`, `rate_limited`, `not_found`, `invalid`, `busy`.
    public var code: String
    /// One line for a person.
    public var message: String
    /// The `type` of the request that failed, when known.
    public var in_reply_to: String?
}

extension ServerMessage: Codable {
    private enum Key: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try Hello(from: decoder))
        case "library": self = .library(try LibraryPayload(from: decoder).recordings)
        case "playback": self = .playback(try PlaybackState(from: decoder))
        case "frame": self = .frame(try FrameMessage(from: decoder))
        case "summary": self = .summary(try ReplaySummary(from: decoder))
        case "recording": self = .recording(try RecordingStatus(from: decoder))
        case "tune": self = .tune(try TuneOutcome(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [Key.type], debugDescription: "unknown message type \"\(type)\""))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .hello(let p): try p.encode(to: encoder)
        case .library(let r): try LibraryPayload(recordings: r).encode(to: encoder)
        case .playback(let p): try p.encode(to: encoder)
        case .frame(let p): try p.encode(to: encoder)
        case .summary(let p):
            // ReplaySummary carries its own "type": "summary".
            try p.encode(to: encoder)
            return
        case .recording(let p): try p.encode(to: encoder)
        case .tune(let p): try p.encode(to: encoder)
        case .error(let p): try p.encode(to: encoder)
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
    }
}
