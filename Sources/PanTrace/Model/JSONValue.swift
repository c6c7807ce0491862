/// A JSON value, used to keep metadata keys PanTrace does not know so they round-trip.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting decoded: deeper values are refused, so a few hundred bytes of
    /// brackets cannot cost seconds.
    public static let maximumDepth = 64

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value. Objects and arrays are recognised by their container, so each
    /// value is decoded once (not probed type by type), and an object's keys in sorted order,
    /// so the same bad input always gives the same error.
    public init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count <= Self.maximumDepth else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: Array(decoder.codingPath.prefix(1)), debugDescription: "JSON nested deeper than \(Self.maximumDepth) levels"))
        }
        // Container probes: a mismatch is the expected answer for the other kinds, and is
        // found from the first character, without decoding anything.
        if let object = try? decoder.container(keyedBy: Key.self) {
            var values: [String: JSONValue] = [:]
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                values[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(values)
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {  // probes a scalar's type
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// How deep the value nests: 0 for a scalar, one more than its deepest element for an
    /// array or object.
    var depth: Int {
        switch self {
        case .null, .bool, .number, .string: 0
        case .array(let values): 1 + (values.lazy.map(\.depth).max() ?? 0)
        case .object(let values): 1 + (values.values.lazy.map(\.depth).max() ?? 0)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
