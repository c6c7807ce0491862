internal import PanLiveWire
package import PanTrace

// The messages of a live source (a device streaming its pan samples) and what pages are told
// about sources (docs/PROTOCOL.md §4).

/// `source`: a live source names itself; its first message.
package struct SourceAnnounce: Codable, Sendable, Equatable {
    /// Chosen by the client once per run; a reconnect sends the same one.
    package var session: String
    package var name: String
    /// `ios`, `android`, `linux` or `other`: the recordings' `source`.
    package var platform: String
    package var screen: SourceScreen
    package var scale: Double
    package var edge: ScreenEdge?
    /// `recorded` (UIKit's own velocity) or the estimator that made it.
    package var velocity: String?
    package var client: String?

    package init(
        session: String, name: String, platform: String, screen: SourceScreen, scale: Double, edge: ScreenEdge? = nil,
        velocity: String? = nil, client: String? = nil
    ) {
        self.session = session
        self.name = name
        self.platform = platform
        self.screen = screen
        self.scale = scale
        self.edge = edge
        self.velocity = velocity
        self.client = client
    }

    /// Checks every field where it enters, by the rule the device checks with before it sends
    /// (``LiveWire/sourceProblem(session:name:platform:width:height:scale:velocity:client:)``):
    /// the one line says which field and why.
    func validated() throws(BridgeFailure) -> SourceAnnounce {
        if let problem = LiveWire.sourceProblem(
            session: session, name: name, platform: platform, width: screen.width, height: screen.height, scale: scale, velocity: velocity,
            client: client)
        {
            throw BridgeFailure(.invalid, problem)
        }
        return self
    }

    /// "iPhone 15 (390×844 @3x)".
    var label: String {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        return "\(name) (\(number(screen.width))×\(number(screen.height)) @\(number(scale))x)"
    }
}

/// A source's screen in points.
package struct SourceScreen: Codable, Sendable, Equatable {
    package var width: Double
    package var height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// `samples`: what the pan recognizer's action saw, in order.
package struct SampleBatch: Codable, Sendable, Equatable {
    /// Samples the client dropped so far in this session (its queue was full).
    package var dropped: Int?
    package var samples: [SourceSample]

    package init(dropped: Int? = nil, samples: [SourceSample]) {
        self.dropped = dropped
        self.samples = samples
    }
}

/// One callback of a pan recognizer, as UIKit reports it.
package struct SourceSample: Codable, Sendable, Equatable {
    package var seq: Int64
    /// Seconds on the device's monotonic clock.
    package var t: Double
    /// `possible`, `began`, `changed`, `ended`, `cancelled`, `failed`.
    package var state: String
    package var tx: Double
    package var ty: Double
    package var vx: Double
    package var vy: Double
    package var lx: Double?
    package var ly: Double?
    package var touches: Int?

    package init(
        seq: Int64, t: Double, state: String, tx: Double, ty: Double, vx: Double, vy: Double, lx: Double? = nil, ly: Double? = nil,
        touches: Int? = nil
    ) {
        self.seq = seq
        self.t = t
        self.state = state
        self.tx = tx
        self.ty = ty
        self.vx = vx
        self.vy = vy
        self.lx = lx
        self.ly = ly
        self.touches = touches
    }

    /// The first field that is out of bounds, named, or nil: the device's own rule
    /// (``LiveWire/sampleProblem(t:tx:ty:vx:vy:lx:ly:touches:)``).
    func problem() -> String? {
        LiveWire.sampleProblem(t: t, tx: tx, ty: ty, vx: vx, vy: vy, lx: lx, ly: ly, touches: touches)
    }
}

/// `source_ready`: the server's answer to `source`.
package struct SourceReady: Codable, Sendable, Equatable {
    package var source: Int
    package var session: String
    /// The highest sample `seq` the server has from this session (0: none).
    package var received: Int64
    package var maxBatch: Int
    package var rate: Int
    package var burst: Int

    private enum CodingKeys: String, CodingKey {
        case source, session, received, rate, burst
        case maxBatch = "max_batch"
    }
}

/// `ack`: the highest `seq` the server has.
package struct SampleAck: Codable, Sendable, Equatable {
    package var received: Int64
}

/// One source, as pages see it.
package struct SourceInfo: Codable, Sendable, Equatable {
    package var source: Int
    package var name: String
    package var platform: String
    package var screen: SourceScreen
    package var scale: Double
    package var connected: Bool
    /// A gesture is in progress.
    package var live: Bool
    /// Unsaved gestures from it.
    package var gestures: Int
    package var dropped: Int
}

/// `sources`: every source the pages may watch.
package struct SourcesMessage: Codable, Sendable, Equatable {
    package var sources: [SourceInfo]
}

/// `device_gesture`: a source's gesture began, moved or ended.
package struct DeviceGestureStatus: Codable, Sendable, Equatable {
    package var source: Int
    package var file: String
    /// `capturing`, `released`, `incomplete`.
    package var state: String
    package var samples: Int
    package var durationSeconds: Double
    package var intent: Intent

    private enum CodingKeys: String, CodingKey {
        case source, file, state, samples, intent
        case durationSeconds = "duration_s"
    }
}

/// `keep`: label and save unsaved device gestures.
package struct KeepRequest: Codable, Sendable, Equatable {
    package var files: [String]
    package var intent: Intent?
    package var name: String?

    package init(files: [String], intent: Intent? = nil, name: String? = nil) {
        self.files = files
        self.intent = intent
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case files, intent, name }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        files = try c.decode([String].self, forKey: .files)
        let labelled = try c.contains(.intent) && !c.decodeNil(forKey: .intent)
        intent = labelled ? try c.decodeLabel(forKey: .intent) : nil
        name = try c.decodeIfPresent(String.self, forKey: .name)
    }
}

/// `kept`: where each kept gesture went.
package struct KeptMessage: Codable, Sendable, Equatable {
    package struct Moved: Codable, Sendable, Equatable {
        package var from: String
        package var to: String
    }
    package var files: [Moved]
}

/// `dropped`: the unsaved device gestures deleted.
package struct DroppedMessage: Codable, Sendable, Equatable {
    package var files: [String]
}
