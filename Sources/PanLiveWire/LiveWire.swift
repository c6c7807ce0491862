package import PanCapture
internal import PanTrace

/// The live wire between a device and `pantrace serve`, defined once for both ends
/// (docs/PROTOCOL.md §4): the message types, the sample states, and what makes a `source` and a
/// sample valid. `PanTraceLive` checks with these before it sends, and `LiveBridge` where a
/// message enters, so a sample the device accepts is one the server accepts.
package enum LiveWire {
    /// The `type` of every message on a source's connection.
    package enum MessageType: String, CaseIterable, Sendable {
        /// Device → server: the source names itself (its first message).
        case source
        /// Device → server: a batch of samples.
        case samples
        /// Server → device: the answer to `source`, with what it already has.
        case sourceReady = "source_ready"
        /// Server → device: the highest sample `seq` the server has.
        case ack
        /// Server → device: a refusal naming the field.
        case error
    }

    /// The sample states a `samples` message may name: "possible, began, changed, ended,
    /// cancelled, failed" (``PanCapture/TraceRecorder/State/wireName``).
    package static let sampleStates = TraceRecorder.State.allCases.map(\.wireName).joined(separator: ", ")

    /// A source's `platform`, the recordings' `source`.
    package static let platforms = ["ios", "android", "linux", "other"]
    /// A source's `velocity`: UIKit's own (`recorded`) or the estimator that made it.
    package static let velocities = VelocitySource.allCases.map(\.rawValue)

    /// The largest magnitude of a position (points) or a velocity (points a second) in a
    /// sample: far past any screen or any finger, and small enough that no sum of them
    /// overflows what the engine computes.
    package static let coordinateLimit = 1e6
    /// A sample's `touches`: fingers on the screen.
    package static let touches = 0...20
    /// A source's `scale`: points to pixels.
    package static let scales: ClosedRange<Double> = 1...4
    /// The longest `name` and `client`, in Unicode scalars (so at most 256 bytes of UTF-8).
    package static let nameLimit = 64
    /// A `session`'s length in characters of `A-Z a-z 0-9 -`.
    package static let sessionLength = 8...64

    /// The first value of a sample that is out of bounds, naming its wire field, or nil.
    /// `t` is seconds on the device's monotonic clock; `lx`/`ly` (the finger's location) come
    /// together or not at all.
    package static func sampleProblem(
        t: Double, tx: Double, ty: Double, vx: Double, vy: Double, lx: Double?, ly: Double?, touches: Int?
    ) -> String? {
        guard t.isFinite, t >= 0, t <= ValueLimits.timeMagnitude else {
            return "t \(t) is not a time within 0…\(ValueLimits.timeMagnitude) s on the device's clock"
        }
        let fields: [(String, Double?, String)] = [
            ("tx", tx, "points (translation x)"), ("ty", ty, "points (translation y)"),
            ("vx", vx, "points a second (velocity x)"), ("vy", vy, "points a second (velocity y)"),
            ("lx", lx, "points (location x)"), ("ly", ly, "points (location y)")
        ]
        for (field, value, unit) in fields {
            if let value, !(value.isFinite && value.magnitude <= coordinateLimit) {
                return "\(field) \(value) is outside ±\(Int(coordinateLimit)) \(unit)"
            }
        }
        if (lx == nil) != (ly == nil) { return "lx and ly come together or not at all" }
        if let touches, !Self.touches.contains(touches) {
            return "touches \(touches) is outside \(Self.touches.lowerBound)…\(Self.touches.upperBound)"
        }
        return nil
    }

    /// The first field of a `source` message that is not valid, named, or nil.
    package static func sourceProblem(
        session: String, name: String, platform: String, width: Double, height: Double, scale: Double, velocity: String?, client: String?
    ) -> String? {
        guard sessionLength.contains(session.utf8.count), session.utf8.allSatisfy({ $0 == 0x2D || isAlphanumeric($0) }) else {
            return "session must be 8 to 64 characters of A-Z, a-z, 0-9 and -"
        }
        if let problem = textProblem(name, field: "name", allowsEmpty: false) { return problem }
        guard platforms.contains(platform) else {
            return "platform \"\(WireText.cut(platform, toBytes: 32))\" is not one of \(platforms.joined(separator: ", "))"
        }
        for (field, value) in [("screen.width", width), ("screen.height", height)] where !ValueLimits.screenPoints.contains(value) {
            return "\(field) \(value) is outside 1…100000 points"
        }
        guard scales.contains(scale) else { return "scale \(scale) is outside 1…4" }
        if let velocity, !velocities.contains(velocity) {
            return "velocity \"\(WireText.cut(velocity, toBytes: 32))\" is not one of \(velocities.joined(separator: ", "))"
        }
        if let client, let problem = textProblem(client, field: "client", allowsEmpty: true) { return problem }
        return nil
    }

    /// A name a person reads: at most ``nameLimit`` Unicode scalars, none of them a control
    /// character (counted in scalars, not characters: one character can hold thousands).
    private static func textProblem(_ text: String, field: String, allowsEmpty: Bool) -> String? {
        let scalars = text.unicodeScalars
        guard allowsEmpty || !scalars.isEmpty, scalars.count <= nameLimit,
            !scalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return "\(field) must be \(allowsEmpty ? 0 : 1) to \(nameLimit) Unicode scalars without control characters"
        }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

extension TraceRecorder.State {
    /// The state's name on the wire, a sample's `state`: the case's own name ("began").
    package var wireName: String { String(describing: self) }

    /// The state a sample's `state` names; nil for any other string.
    package init?(wireName: String) {
        guard let state = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = state
    }
}
