/// The state a pan gesture recognizer reports with each callback.
///
/// Mirrors `UIGestureRecognizer.State` for the states a recorded pan can be in. The raw
/// values are the codes stored in `.pantrace` sample chunks (see docs/FORMAT.md).
public enum GesturePhase: UInt8, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The touch moved past the slop: the first sample of a gesture.
    case began = 0
    /// The touch moved.
    case changed = 1
    /// The touch lifted: the release.
    case ended = 2
    /// The system cancelled the gesture (an incoming call, a second recognizer winning).
    case cancelled = 3

    /// Whether this phase ends the gesture.
    @inlinable public var isTerminal: Bool { self == .ended || self == .cancelled }

    /// The lowercase name used in JSONL, CSV and the wire protocol.
    public var description: String {
        switch self {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }

    /// Parses the lowercase name; `nil` for anything else.
    public init?(name: String) {
        switch name {
        case "began": self = .began
        case "changed": self = .changed
        case "ended": self = .ended
        case "cancelled": self = .cancelled
        default: return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let phase = GesturePhase(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown phase \"\(name)\" (expected began, changed, ended or cancelled)")
        }
        self = phase
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
