internal import Foundation
internal import PanLiveWire
package import PanReplay
package import PanTune
package import PanTrace
package import TransitionEngine

/// A message from the bridge to viewers (docs/PROTOCOL.md §2).
///
/// Encoded as one JSON object whose `type` names the case, with the payload's fields beside it.
/// `indirect`: each payload lives in a box of its own, so a message is one pointer wide. Unboxed
/// the enum is as wide as its widest payload (a frame's state, a summary) and every copy of an
/// `Outgoing` on the way to the sockets moved all of it.
package indirect enum ServerMessage: Sendable {
    /// The first message on every connection: the whole current state.
    case hello(Hello)
    /// The recordings changed (one was saved), or the page asked for more of the list: a
    /// bounded page of it.
    case library(LibraryPage)
    /// The player's state changed.
    case playback(PlaybackState)
    /// One display frame of the replay.
    case frame(FrameMessage)
    /// A whole replay at once (the one playing, or one a viewer asked to compare with it).
    case series(SeriesMessage)
    /// One recording replayed on a sheet through one library (a `compare` that names a sheet).
    case sheet(SheetMessage)
    /// The replay's decision and metrics, once per pass.
    case summary(ReplaySummary)
    /// Live recording progress.
    case recording(RecordingStatus)
    /// A finished tuning sweep.
    case tune(TuneOutcome)
    /// A request failed; the connection stays open.
    case error(ErrorMessage)
    /// The pages with control that another page may follow.
    case pages(PagesMessage)
    /// This page started or stopped following another.
    case following(FollowingMessage)
    /// The answer to a live source's `source` (docs/PROTOCOL.md §4).
    case sourceReady(SourceReady)
    /// The samples a live source's message brought, acknowledged.
    case ack(SampleAck)
    /// The live sources pages may watch.
    case sources(SourcesMessage)
    /// A live source's gesture began, moved or ended.
    case deviceGesture(DeviceGestureStatus)
    /// Unsaved device gestures were labelled and saved.
    case kept(KeptMessage)
    /// Unsaved device gestures were deleted.
    case dropped(DroppedMessage)
    /// A message of `type` already encoded (a comparison computed off the controller thread):
    /// sent as these bytes.
    case encoded(type: String, bytes: [UInt8])

    /// The `type` value.
    package var type: String {
        switch self {
        case .hello: "hello"
        case .library: "library"
        case .playback: "playback"
        case .frame: "frame"
        case .series: "series"
        case .sheet: "sheet"
        case .summary: "summary"
        case .recording: "recording"
        case .tune: "tune"
        case .error: "error"
        case .pages: "pages"
        case .following: "following"
        case .sourceReady: LiveWire.MessageType.sourceReady.rawValue
        case .ack: LiveWire.MessageType.ack.rawValue
        case .sources: "sources"
        case .deviceGesture: "device_gesture"
        case .kept: "kept"
        case .dropped: "dropped"
        case .encoded(let type, _): type
        }
    }
}

/// The protocol version this bridge speaks.
package let wireProtocolVersion = 3

/// `hello`.
package struct Hello: Codable, Sendable {
    package var v: Int
    package var server: String
    /// Whether this connection presented the token and may change state.
    package var canControl: Bool
    /// This connection's page number: how other pages name it ("page 3 is recording").
    package var page: Int
    package var state: Snapshot

    private enum CodingKeys: String, CodingKey {
        case v, server, state, page
        case canControl = "can_control"
    }
}

/// What a new page needs to draw its first view, bounded whatever the library holds
/// (``BridgeController/helloLibraryLimit`` recordings; the rest with a `library` request).
package struct Snapshot: Codable, Sendable {
    /// The first recordings of the library, in id order.
    package var library: [RecordingInfo]
    /// How many recordings the library holds in all.
    package var libraryTotal: Int
    /// Limits the library reached (a corpus listed in part), one line each; absent when none.
    package var libraryNotices: [String]? = nil
    package var presets: [PresetCatalog.Entry]
    /// This page's own view.
    package var playback: PlaybackState?
    package var summary: ReplaySummary?
    /// The record pad, while some page holds it.
    package var recording: RecordingStatus?
    /// The pages with control, which this page may follow.
    package var pages: [PageInfo]
    /// The live sources (devices), when there are any.
    package var sources: [SourceInfo]?

    private enum CodingKeys: String, CodingKey {
        case library, presets, playback, summary, recording, pages, sources
        case libraryTotal = "library_total"
        case libraryNotices = "library_notices"
    }
}

/// A page another page may follow.
package struct PageInfo: Codable, Sendable, Equatable {
    package var page: Int
    /// The recording its view shows, when it has one.
    package var recording: String?
    package var preset: String?
}

/// `pages`: the pages with control (at most ``BridgeController/pagesListed``), and how many
/// pages are open in all.
package struct PagesMessage: Codable, Sendable, Equatable {
    package var pages: [PageInfo]
    package var total: Int
}

/// `following`: the page this one follows, or none (`page` absent) with why it stopped.
package struct FollowingMessage: Codable, Sendable, Equatable {
    package var page: Int?
    package var reason: String?
}

/// One recording in the library.
package struct RecordingInfo: Codable, Sendable, Equatable {
    /// The path under the recordings folder, which is its id on the wire.
    package var id: String
    package var name: String
    package var intent: Intent
    package var source: String
    package var samples: Int
    package var durationSeconds: Double
    package var tags: [String]
    package var screen: ScreenGeometry
    package var edge: ScreenEdge?
    package var complete: Bool
    /// For an unsaved device gesture: the device that made it (absent for every other file),
    /// so a page never reads it off the file's name.
    package var device: DeviceOfFile? = nil

    private enum CodingKeys: String, CodingKey {
        case id, name, intent, source, samples, tags, screen, edge, complete, device
        case durationSeconds = "duration_s"
    }
}

/// The device an unsaved gesture came from: its source number and name in this run, or, for a
/// gesture an earlier run of the server left, no number and the platform's name.
package struct DeviceOfFile: Codable, Sendable, Equatable {
    package var source: Int?
    package var name: String
}

/// `library`: recordings `offset` ..< `offset + recordings.count` of `total`, in id order.
package struct LibraryPage: Codable, Sendable, Equatable {
    package var recordings: [RecordingInfo]
    package var offset: Int
    package var total: Int
    /// Limits the library reached (a corpus listed in part), one line each; absent when none.
    package var notices: [String]? = nil
}

/// `playback`: what the player is doing.
package struct PlaybackState: Codable, Sendable, Equatable {
    /// Counts loads; frames carry it so a viewer can drop frames of an earlier load, which may
    /// arrive after this message because control messages overtake queued frames.
    package var load: Int
    package var recording: String
    package var preset: String
    package var parameters: [String: PresetValue]
    package var playing: Bool
    package var speed: Double
    package var loop: Bool
    /// The playhead, seconds of gesture time.
    package var time: Double
    /// First and last frame times of the replay (the end includes the completion).
    package var start: Double
    package var end: Double
    package var release: Double
    package var fps: Double
}

/// `frame`.
package struct FrameMessage: Codable, Sendable {
    /// Increases by one per frame sent.
    package var seq: UInt64
    /// The ``PlaybackState/load`` this frame belongs to.
    package var load: Int
    /// When the bridge produced the frame, microseconds since the Unix epoch (for latency).
    package var emittedMicroseconds: Int64
    package var recording: String
    package var frame: FrameState
    /// A live source's gesture (docs/PROTOCOL.md §4): its number; absent otherwise.
    package var source: Int? = nil
    /// A live gesture's frame while the finger is down: what this frame's setting (the page's
    /// own preset and parameters) would decide if the finger lifted now; absent otherwise.
    package var ifReleased: RecordingStatus.IfReleased? = nil
    /// Not sent: which frame of which replay this is (its load and index), so every page shown
    /// that frame shares one encoding of it (`FrameMessage.sortedKeysJSON(body:)`).
    var body: FrameBody?

    private enum CodingKeys: String, CodingKey {
        case seq, load, recording, frame, source
        case emittedMicroseconds = "emitted_us"
        case ifReleased = "if_released"
    }
}

/// A frame of one replay: the same `frame` object wherever it is sent, since a load number is
/// one replay (a recording under one setting at one frame rate).
struct FrameBody: Hashable, Sendable {
    var load: Int
    var index: Int
}

/// `series`: a whole replay, so a viewer draws its timeline and filmstrip at once, whatever
/// frames it has been sent. Sent to everyone with each load, to each page that joins, and in
/// reply to `compare` (role `compare`, to that page only).
package struct SeriesMessage: Codable, Sendable {
    /// `playing` (the player's load `load`) or `compare`.
    package var role: String
    /// The load it belongs to (for `compare`, the load that was playing when it was asked).
    package var load: Int
    package var recording: String
    package var preset: String
    package var parameters: [String: PresetValue]
    package var fps: Double
    package var summary: ReplaySummary
    package var series: ReplaySeries
}

/// `recording`: live recording progress.
package struct RecordingStatus: Codable, Sendable, Equatable {
    /// `armed`, `capturing`, `released`, `saved`, `discarded`, `failed`.
    package var state: String
    package var samples: Int
    package var durationSeconds: Double
    package var intent: Intent
    /// The file being written, relative to the recordings folder.
    package var file: String?
    /// The library id once saved.
    package var id: String?
    package var message: String?
    /// While capturing: what the preset would decide if the finger lifted now (not a decision:
    /// the gesture goes on).
    package var ifReleased: IfReleased?
    /// The page recording (``Hello/page``).
    package var page: Int?
    /// While the pad is held (armed or capturing): seconds since it was armed.
    package var heldSeconds: Double?
    /// The preset and parameters the recording page decides with (its own view's).
    package var preset: String?
    package var parameters: [String: PresetValue]?
    /// A target trial's sheet (and the detent meant).
    package var sheet: SheetLabel?
    /// Once released on a sheet: where the trial's library settles it.
    package var settle: Settle?

    /// `settle`: a sheet library's choice for the released gesture.
    package struct Settle: Codable, Sendable, Equatable {
        package var library: String
        /// The detent index, or `dismissed`.
        package var detent: SheetLabel.Target
        /// The branch of the library's rule, in words.
        package var reason: String
        /// The sheet's top edge at the release, points.
        package var position: Double
        /// Against the detent meant: `hit`, `skip`, `stuck` or `wrong` (absent without one).
        package var landing: String?
        /// How the library moves the sheet there.
        package var motion: SheetSettleWire

        package init(library: String, detent: SheetLabel.Target, reason: String, position: Double, landing: String?, motion: SheetSettleWire) {
            self.library = library
            self.detent = detent
            self.reason = reason
            self.position = position
            self.landing = landing
            self.motion = motion
        }

    }

    /// `if_released`.
    package struct IfReleased: Codable, Sendable, Equatable {
        package var decision: String
        package var reason: String
        package var margin: Double
    }

    package init(
        state: String, samples: Int, durationSeconds: Double, intent: Intent, file: String?, id: String?, message: String?,
        ifReleased: IfReleased? = nil, page: Int? = nil, heldSeconds: Double? = nil, preset: String? = nil,
        parameters: [String: PresetValue]? = nil, sheet: SheetLabel? = nil, settle: Settle? = nil
    ) {
        self.sheet = sheet
        self.settle = settle
        self.state = state
        self.samples = samples
        self.durationSeconds = durationSeconds
        self.intent = intent
        self.file = file
        self.id = id
        self.message = message
        self.ifReleased = ifReleased
        self.page = page
        self.heldSeconds = heldSeconds
        self.preset = preset
        self.parameters = parameters
    }

    private enum CodingKeys: String, CodingKey {
        case state, samples, intent, file, id, message, page, preset, parameters, sheet, settle
        case durationSeconds = "duration_s"
        case ifReleased = "if_released"
        case heldSeconds = "held_s"
    }
}

/// `tune`: the sweep's result in the `pantrace tune --json` schema (docs/TUNE.md).
package struct TuneOutcome: Codable, Sendable {
    /// The report: computed by the bridge, which encodes it once, straight from the sweep; or
    /// received, as a client decoding the message has it.
    package enum Report: Codable, Sendable {
        case computed(TuningReport)
        case received(JSONValue)

        package init(from decoder: any Decoder) throws {
            self = .received(try JSONValue(from: decoder))
        }

        package func encode(to encoder: any Encoder) throws {
            switch self {
            case .computed(let report): try report.encode(to: encoder)
            case .received(let value): try value.encode(to: encoder)
            }
        }
    }

    package var preset: String
    package var report: Report
    /// The library ids the sweep was asked to score, so a viewer replays exactly those the
    /// report scored (these, less the ones `report.excluded` lists with their reasons).
    package var recordings: [String]?
}

/// The `code` of an `error` message: stable, for programs (docs/PROTOCOL.md §2, `error`).
package enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// The message is not JSON.
    case badJSON = "bad_json"
    /// JSON, but not a message of this protocol (unknown type, a missing or out-of-range field).
    case badMessage = "bad_message"
    /// The message changes state and the connection has no token.
    case forbidden
    /// Too many pointer events (reported at most once a second).
    case rateLimited = "rate_limited"
    /// No such recording.
    case notFound = "not_found"
    /// Well-formed, but not possible now or with these values.
    case invalid
    /// Another page holds the record pad, or the server's budget for replay work is spent
    /// for now (`retry_after_ms` says when to ask again).
    case busy
    /// The server could not write a file (a full disk).
    case failed
    /// The viewer speaks another protocol version; reload it.
    case version
}

/// `error`.
package struct ErrorMessage: Codable, Sendable, Equatable {
    package var code: ErrorCode
    /// One line for a person.
    package var message: String
    /// The `type` of the request that failed, when known.
    package var inReplyTo: String?
    /// For `busy` and `rate_limited`: when asking again may succeed, in milliseconds.
    package var retryAfterMilliseconds: Int?

    package init(code: ErrorCode, message: String, inReplyTo: String? = nil, retryAfterMilliseconds: Int? = nil) {
        self.code = code
        self.message = message
        self.inReplyTo = inReplyTo
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    private enum CodingKeys: String, CodingKey {
        case code, message
        case inReplyTo = "in_reply_to"
        case retryAfterMilliseconds = "retry_after_ms"
    }
}

extension ServerMessage {
    /// The encoder of every message the server sends. Sorted keys: the same bytes as the
    /// hand-written frame encoder (FrameMessage+JSON), and deterministic output (unsorted,
    /// JSONEncoder orders keys by a per-process hash seed).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension ServerMessage: Codable {
    private enum Key: String, CodingKey { case type }

    package init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try Hello(from: decoder))
        case "library": self = .library(try LibraryPage(from: decoder))
        case "playback": self = .playback(try PlaybackState(from: decoder))
        case "frame": self = .frame(try FrameMessage(from: decoder))
        case "series": self = .series(try SeriesMessage(from: decoder))
        case "sheet": self = .sheet(try SheetMessage(from: decoder))
        case "summary": self = .summary(try ReplaySummary(from: decoder))
        case "recording": self = .recording(try RecordingStatus(from: decoder))
        case "tune": self = .tune(try TuneOutcome(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        case "pages": self = .pages(try PagesMessage(from: decoder))
        case "following": self = .following(try FollowingMessage(from: decoder))
        case LiveWire.MessageType.sourceReady.rawValue: self = .sourceReady(try SourceReady(from: decoder))
        case LiveWire.MessageType.ack.rawValue: self = .ack(try SampleAck(from: decoder))
        case "sources": self = .sources(try SourcesMessage(from: decoder))
        case "device_gesture": self = .deviceGesture(try DeviceGestureStatus(from: decoder))
        case "kept": self = .kept(try KeptMessage(from: decoder))
        case "dropped": self = .dropped(try DroppedMessage(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [Key.type], debugDescription: "unknown message type \"\(type)\""))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .hello(let p): try p.encode(to: encoder)
        case .library(let p): try p.encode(to: encoder)
        case .playback(let p): try p.encode(to: encoder)
        case .frame(let p): try p.encode(to: encoder)
        case .series(let p): try p.encode(to: encoder)
        case .sheet(let p): try p.encode(to: encoder)
        case .summary(let p):
            // ReplaySummary carries its own "type": "summary".
            try p.encode(to: encoder)
            return
        case .recording(let p): try p.encode(to: encoder)
        case .tune(let p): try p.encode(to: encoder)
        case .error(let p): try p.encode(to: encoder)
        case .pages(let p): try p.encode(to: encoder)
        case .following(let p): try p.encode(to: encoder)
        case .sourceReady(let p): try p.encode(to: encoder)
        case .ack(let p): try p.encode(to: encoder)
        case .sources(let p): try p.encode(to: encoder)
        case .deviceGesture(let p): try p.encode(to: encoder)
        case .kept(let p): try p.encode(to: encoder)
        case .dropped(let p): try p.encode(to: encoder)
        case .encoded(let type, let bytes):
            // Already bytes: a decoder reads them back as the message they are.
            let message = try JSONDecoder().decode(ServerMessage.self, from: Data(bytes))
            guard message.type == type else {
                throw EncodingError.invalidValue(type, .init(codingPath: [], debugDescription: "encoded bytes are a \(message.type) message"))
            }
            try message.encode(to: encoder)
            return
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
    }
}
