internal import PanLiveWire
package import PanReplay
package import PanTrace
package import TransitionEngine

/// A message from a viewer to the bridge (docs/PROTOCOL.md §3).
///
/// Decoded from `{"type": …, …}`. Every message that plays, records, saves or tunes needs the
/// token on the connection (``changesState``); ``compare``, ``follow`` and ``library`` change
/// nothing another page sees, so a watch-only page may send them.
package enum ClientMessage: Sendable, Equatable {
    /// Load a recording into the player with a preset and parameter overrides.
    case load(LoadRequest)
    case play
    case pause
    /// Move the playhead to `time` seconds (gesture time).
    case seek(time: Double)
    /// Playback speed, 0.1…4.
    case speed(Double)
    case loop(Bool)
    /// Move by whole frames (negative: back) and pause.
    case step(frames: Int)
    /// Arm live recording on a pad of the given screen size.
    case record(RecordRequest)
    /// A raw pointer event from the record pad.
    case pointer(PointerMessage)
    /// What the person meant the recorded gesture to do.
    case label(Intent)
    /// Keep the recorded gesture under an optional name.
    case save(name: String?)
    /// Throw the recorded gesture away.
    case discard
    /// Tune a preset's parameters over recordings.
    case tune(TuneRequest)
    /// The whole replay of a recording under other settings, for this viewer only (a
    /// `series` with role `compare`); changes nothing, so a watch-only page may send it.
    case compare(LoadRequest)
    /// Follow another page's view (its page number), or stop following (nil).
    case follow(page: Int?)
    /// Recordings of the library from `offset` on (a bounded page of them).
    case library(offset: Int)
    /// The page is shown or hidden (a background tab): a hidden page's view is sent no frames
    /// and its playhead waits, so it costs the server nothing.
    case visible(Bool)
    /// A live source names itself (its first message; docs/PROTOCOL.md §4).
    case source(SourceAnnounce)
    /// A live source's pan samples.
    case samples(SampleBatch)
    /// Watch a live source's gestures through this page's own setting (nil: stop).
    case watch(source: Int?)
    /// Label and save unsaved device gestures.
    case keep(KeepRequest)
    /// Delete unsaved device gestures.
    case drop(files: [String])

    /// The `type` value, for error replies.
    package var type: String {
        switch self {
        case .load: "load"
        case .play: "play"
        case .pause: "pause"
        case .seek: "seek"
        case .speed: "speed"
        case .loop: "loop"
        case .step: "step"
        case .record: "record"
        case .pointer: "pointer"
        case .label: "label"
        case .save: "save"
        case .discard: "discard"
        case .tune: "tune"
        case .compare: "compare"
        case .follow: "follow"
        case .library: "library"
        case .visible: "visible"
        case .source: LiveWire.MessageType.source.rawValue
        case .samples: LiveWire.MessageType.samples.rawValue
        case .watch: "watch"
        case .keep: "keep"
        case .drop: "drop"
        }
    }

    /// Whether the message needs the token: everything but asking for a comparison, following
    /// a page, reading the library, and saying whether the page is shown.
    package var changesState: Bool {
        switch self {
        case .compare, .follow, .library, .visible, .watch: false
        default: true
        }
    }
}

/// `load`: a recording (its library id), a preset, and overrides of its parameters.
package struct LoadRequest: Codable, Sendable, Hashable {
    package var recording: String
    /// The preset and its parameters (`velocity` picks the velocity source), spelled as the
    /// page sent them: the wire carries them as the message's own `preset` and `parameters`.
    package var setting: Setting
    /// `compare` only: replay the recording as a drag of this sheet through the sheet library
    /// `preset` (docs/MODEL.md §9); checked where it is decoded.
    package var sheet: SheetLabel?

    package init(recording: String, setting: Setting, sheet: SheetLabel? = nil) {
        self.recording = recording
        self.setting = setting
        self.sheet = sheet
    }

    package init(recording: String, preset: String, parameters: [String: PresetValue] = [:], sheet: SheetLabel? = nil) {
        self.init(recording: recording, setting: Setting(preset: preset, parameters: parameters), sheet: sheet)
    }

    enum CodingKeys: CodingKey { case recording, preset, parameters, sheet }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        recording = try c.decode(String.self, forKey: .recording)
        setting = try Setting(from: decoder)
        sheet = try c.decodeIfPresent(SheetLabel.self, forKey: .sheet)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(recording, forKey: .recording)
        try c.encode(setting.preset, forKey: .preset)
        try c.encode(setting.parameters, forKey: .parameters)
        try c.encodeIfPresent(sheet, forKey: .sheet)
    }
}

/// `record`: arm a live recording.
package struct RecordRequest: Codable, Sendable, Equatable {
    /// The pad's size in points and its pixels per point.
    package var screen: ScreenGeometry
    /// Only begin when the touch goes down within the edge zone of this edge.
    package var edge: ScreenEdge?
    /// The preset the stage follows and the release is decided with (defaults to the page's
    /// view's preset).
    package var preset: String?
    /// Overrides of the preset's parameters, as in `load` (defaults to the page's view's when
    /// `preset` is absent too, else none): the sliders the page shows.
    package var parameters: [String: PresetValue]?
    /// A target trial: the sheet on the pad, the detent it starts at and, when asked for, the
    /// detent to move it to (the recording's label). Checked where it is decoded.
    package var sheet: SheetLabel?
    /// The sheet library that settles the sheet after the release (`floatingpanel` when
    /// absent); only with `sheet`.
    package var sheetLibrary: String?

    package init(
        screen: ScreenGeometry, edge: ScreenEdge? = nil, preset: String? = nil, parameters: [String: PresetValue]? = nil, sheet: SheetLabel? = nil,
        sheetLibrary: String? = nil
    ) {
        self.screen = screen
        self.edge = edge
        self.preset = preset
        self.parameters = parameters
        self.sheet = sheet
        self.sheetLibrary = sheetLibrary
    }

    private enum CodingKeys: String, CodingKey {
        case screen, edge, preset, parameters, sheet
        case sheetLibrary = "sheet_library"
    }
}

/// `pointer`: one raw pointer event, as the `csv`/`jsonl` logs of `pantrace record` spell it.
package struct PointerMessage: Codable, Sendable, Equatable {
    /// Milliseconds on the client's clock (`PointerEvent.timeStamp`), `t_ms` on the wire.
    package var milliseconds: Double
    package var x: Double
    package var y: Double
    /// `down`, `move`, `up` or `cancel`.
    package var phase: String
    package var pointer: Int?

    package init(milliseconds: Double, x: Double, y: Double, phase: String, pointer: Int? = nil) {
        self.milliseconds = milliseconds
        self.x = x
        self.y = y
        self.phase = phase
        self.pointer = pointer
    }

    private enum CodingKeys: String, CodingKey {
        case x, y, phase, pointer
        case milliseconds = "t_ms"
    }

    /// Decodes and checks an event: the time within ±``ValueLimits/timeMagnitude`` seconds
    /// and the position within ±``ValueLimits/coordinateMagnitude`` points, refused here
    /// with the field named.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        milliseconds = try c.decode(Double.self, forKey: .milliseconds)
        x = try c.decode(Double.self, forKey: .x)
        y = try c.decode(Double.self, forKey: .y)
        phase = try c.decode(String.self, forKey: .phase)
        pointer = try c.decodeIfPresent(Int.self, forKey: .pointer)
        guard ValueLimits.isValidTime(milliseconds / 1000) else {
            throw DecodingError.dataCorruptedError(
                forKey: .milliseconds, in: c, debugDescription: "t_ms \(milliseconds) is outside ±\(ValueLimits.timeMagnitude * 1000) ms")
        }
        for (key, value) in [(CodingKeys.x, x), (.y, y)] where !ValueLimits.isValidCoordinate(value) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "\(key.stringValue) \(value) is outside ±\(ValueLimits.coordinateMagnitude) points")
        }
    }
}

/// `tune`: sweep parameters over recordings.
package struct TuneRequest: Codable, Sendable, Equatable {
    /// Library ids; empty means every recording with a known intent.
    package var recordings: [String]
    package var preset: String
    /// Axes as on the command line: `threshold=0.2:0.8:0.05` or `threshold=0.3,0.5`.
    package var grid: [String]

    package init(recordings: [String], preset: String, grid: [String]) {
        self.recordings = recordings
        self.preset = preset
        self.grid = grid
    }
}

extension ClientMessage: Codable {
    private enum Key: String, CodingKey {
        case type, time, value, enabled, frames, intent, name, page, offset, visible, source, files
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "load": self = .load(try LoadRequest(from: decoder))
        case "play": self = .play
        case "pause": self = .pause
        case "seek": self = .seek(time: try c.decode(Double.self, forKey: .time))
        case "speed": self = .speed(try c.decode(Double.self, forKey: .value))
        case "loop": self = .loop(try c.decode(Bool.self, forKey: .enabled))
        case "step": self = .step(frames: try c.decode(Int.self, forKey: .frames))
        case "record": self = .record(try RecordRequest(from: decoder))
        case "pointer": self = .pointer(try PointerMessage(from: decoder))
        case "label": self = .label(try c.decodeLabel(forKey: .intent))
        case "save": self = .save(name: try c.decodeIfPresent(String.self, forKey: .name))
        case "discard": self = .discard
        case "tune": self = .tune(try TuneRequest(from: decoder))
        case "compare": self = .compare(try LoadRequest(from: decoder))
        case "follow": self = .follow(page: try c.decodeIfPresent(Int.self, forKey: .page))
        case "library":
            let offset = try c.decode(Int.self, forKey: .offset)
            guard offset >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .offset, in: c, debugDescription: "offset must be 0 or more, got \(offset)")
            }
            self = .library(offset: offset)
        case "visible": self = .visible(try c.decode(Bool.self, forKey: .visible))
        case LiveWire.MessageType.source.rawValue: self = .source(try SourceAnnounce(from: decoder))
        case LiveWire.MessageType.samples.rawValue: self = .samples(try SampleBatch(from: decoder))
        case "watch": self = .watch(source: try c.decodeIfPresent(Int.self, forKey: .source))
        case "keep": self = .keep(try KeepRequest(from: decoder))
        case "drop": self = .drop(files: try c.decode([String].self, forKey: .files))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c,
                debugDescription:
                    "unknown message type \"\(type)\" (expected load, play, pause, seek, speed, loop, step, record, pointer, label, save, discard, tune, compare, follow, library, visible, watch, keep, drop, source or samples)"
            )
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .load(let r): try r.encode(to: encoder)
        case .play, .pause, .discard: break
        case .seek(let time): try c.encode(time, forKey: .time)
        case .speed(let value): try c.encode(value, forKey: .value)
        case .loop(let enabled): try c.encode(enabled, forKey: .enabled)
        case .step(let frames): try c.encode(frames, forKey: .frames)
        case .record(let r): try r.encode(to: encoder)
        case .pointer(let p): try p.encode(to: encoder)
        case .label(let intent): try c.encode(intent, forKey: .intent)
        case .save(let name): try c.encodeIfPresent(name, forKey: .name)
        case .tune(let r): try r.encode(to: encoder)
        case .compare(let r): try r.encode(to: encoder)
        case .follow(let page): try c.encodeIfPresent(page, forKey: .page)
        case .library(let offset): try c.encode(offset, forKey: .offset)
        case .visible(let visible): try c.encode(visible, forKey: .visible)
        case .source(let r): try r.encode(to: encoder)
        case .samples(let r): try r.encode(to: encoder)
        case .watch(let source): try c.encodeIfPresent(source, forKey: .source)
        case .keep(let r): try r.encode(to: encoder)
        case .drop(let files): try c.encode(files, forKey: .files)
        }
    }
}

extension KeyedDecodingContainer {
    /// The label a page (`label`) or a device's owner (`keep`) gives: finish, cancel or unknown.
    /// A detent label needs the sheet it was meant on, which neither message carries: refused.
    func decodeLabel(forKey key: Key) throws -> Intent {
        let intent = try decode(Intent.self, forKey: key)
        guard intent != .detent else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "a detent label needs its sheet, which this message cannot carry: label finish, cancel or unknown")
        }
        return intent
    }
}
