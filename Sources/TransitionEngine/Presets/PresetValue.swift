/// The value of a preset parameter: a number, or one of a fixed set of names.
public enum PresetValue: Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
    /// A number in the parameter's unit.
    case number(Double)
    /// One of the parameter's choices, e.g. `"easeInOut"`.
    case choice(String)

    /// Parses command-line text: a number if it reads as one, otherwise a choice.
    public init(parsing text: String) {
        if let number = Double(text) {
            self = .number(number)
        } else {
            self = .choice(text)
        }
    }

    /// Creates a number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates a number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// Creates a choice.
    public init(stringLiteral value: String) { self = .choice(value) }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The text form: `"0.5"` or `"easeInOut"`.
    public var description: String {
        switch self {
        case .number(let value): "\(value)"
        case .choice(let name): name
        }
    }

    /// Decodes a JSON number or string (the form `pantrace presets --json` and the wire use).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            // try? probes the JSON type; a string is the other valid form.
            self = .number(number)
        } else {
            self = .choice(try container.decode(String.self))
        }
    }

    /// Encodes as a plain JSON number or string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .choice(let name): try container.encode(name)
        }
    }
}

/// A documented, overridable parameter of a preset.
public struct PresetParameter: Sendable, Hashable, Codable {
    /// What values are allowed.
    public enum Allowed: Sendable, Hashable, Codable {
        /// A closed numeric range.
        case range(ClosedRange<Double>)
        /// A set of names.
        case choices([String])

        private enum Key: String, CodingKey { case range, choices }

        /// Decodes `{"range": [lo, hi]}` or `{"choices": [names]}`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if let bounds = try container.decodeIfPresent([Double].self, forKey: .range) {
                guard bounds.count == 2, bounds[0] <= bounds[1] else {
                    throw DecodingError.dataCorruptedError(forKey: .range, in: container, debugDescription: "a range is [lower, upper]")
                }
                self = .range(bounds[0]...bounds[1])
            } else {
                self = .choices(try container.decode([String].self, forKey: .choices))
            }
        }

        /// Encodes as `{"range": [lo, hi]}` or `{"choices": [names]}`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .range(let range): try container.encode([range.lowerBound, range.upperBound], forKey: .range)
            case .choices(let names): try container.encode(names, forKey: .choices)
            }
        }
    }

    /// The key used in overrides, e.g. `"threshold"`.
    public let key: String
    /// One line saying what it does.
    public let meaning: String
    /// The unit (`"s"`, `"pt/s"`, `"progress"`, …), empty for choices and ratios.
    public let unit: String
    /// The preset's default.
    public let defaultValue: PresetValue
    /// The allowed values.
    public let allowed: Allowed

    /// Creates a parameter description.
    public init(key: String, meaning: String, unit: String, defaultValue: PresetValue, allowed: Allowed) {
        self.key = key
        self.meaning = meaning
        self.unit = unit
        self.defaultValue = defaultValue
        self.allowed = allowed
    }

    /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
    private enum CodingKeys: String, CodingKey {
        case key, meaning, unit, allowed
        case defaultValue = "default_value"
    }
}
