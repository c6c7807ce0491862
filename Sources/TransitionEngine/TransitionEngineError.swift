/// The one error type of `TransitionEngine`: bad user input, such as an unknown preset name,
/// an unknown parameter key or an out-of-range value.
///
/// The cases live in a private code so that new ones can be added without breaking clients;
/// ``description`` is one clear line for the user. Programmer misuse is a `precondition`,
/// not an error.
public struct TransitionEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case unknownPreset(name: String, valid: [String])
        case unknownParameter(key: String, valid: [String])
        case outOfRange(key: String, value: Double, range: ClosedRange<Double>, unit: String)
        case invalidChoice(key: String, value: String, choices: [String])
        case expectedNumber(key: String, value: String)
        case invalidSheet(reason: String)
    }

    private let code: Code
    /// The preset the error concerns, if any.
    public let preset: String?

    private init(_ code: Code, preset: String?) {
        self.code = code
        self.preset = preset
    }

    /// The parameter key the error concerns, if any.
    public var key: String? {
        switch code {
        case .unknownPreset, .invalidSheet: nil
        case .unknownParameter(let key, _), .outOfRange(let key, _, _, _),
            .invalidChoice(let key, _, _), .expectedNumber(let key, _):
            key
        }
    }

    /// One line for the user, e.g.
    /// `preset 'zoom': unknown parameter 'treshold'; valid keys: threshold, duration, …`.
    public var description: String {
        let prefix = preset.map { "preset '\($0)': " } ?? ""
        switch code {
        case .unknownPreset(let name, let valid):
            return "unknown preset '\(name)'; valid presets: \(valid.joined(separator: ", "))"
        case .unknownParameter(let key, let valid):
            return "\(prefix)unknown parameter '\(key)'; valid keys: \(valid.joined(separator: ", "))"
        case .outOfRange(let key, let value, let range, let unit):
            let unitText = unit.isEmpty ? "" : " \(unit)"
            return "\(prefix)\(key) = \(value) is out of range; allowed: \(range.lowerBound) … \(range.upperBound)\(unitText)"
        case .invalidChoice(let key, let value, let choices):
            return "\(prefix)\(key) = '\(value)' is not one of: \(choices.joined(separator: ", "))"
        case .expectedNumber(let key, let value):
            return "\(prefix)\(key) expects a number, got '\(value)'"
        case .invalidSheet(let reason):
            return "\(prefix)\(reason)"
        }
    }

    static func unknownPreset(_ name: String, valid: [String]) -> Self {
        Self(.unknownPreset(name: name, valid: valid), preset: nil)
    }

    static func unknownParameter(_ key: String, preset: String, valid: [String]) -> Self {
        Self(.unknownParameter(key: key, valid: valid), preset: preset)
    }

    static func outOfRange(_ key: String, value: Double, range: ClosedRange<Double>, unit: String, preset: String) -> Self {
        Self(.outOfRange(key: key, value: value, range: range, unit: unit), preset: preset)
    }

    static func invalidChoice(_ key: String, value: String, choices: [String], preset: String) -> Self {
        Self(.invalidChoice(key: key, value: value, choices: choices), preset: preset)
    }

    static func expectedNumber(_ key: String, value: String, preset: String) -> Self {
        Self(.expectedNumber(key: key, value: value), preset: preset)
    }

    static func invalidSheet(_ reason: String, preset: String? = nil) -> Self {
        Self(.invalidSheet(reason: reason), preset: preset)
    }
}
