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
}

/// A documented, overridable parameter of a preset.
public struct PresetParameter: Sendable, Hashable, Codable {
    /// What values are allowed.
    public enum Allowed: Sendable, Hashable, Codable {
        /// A closed numeric range.
        case range(ClosedRange<Double>)
        /// A set of names.
        case choices([String])
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
}
