package import TransitionEngine

/// A setting as it is spelled: a preset's name and parameter values by key, the velocity source
/// under `velocity` (``VelocitySource/parameterKey``), some of them or all. Its JSON form is the
/// one a setting file holds (docs/TUNE.md, "A setting file") and the one the wire's `load` and
/// `compare` carry beside their recording:
///
/// ```json
/// {"parameters":{"threshold":0.3,"velocity":"lsq2",…},"preset":"swipe-dismiss"}
/// ```
///
/// ``ReplayParameters/init(_:)`` resolves it, checking every key and value;
/// ``ReplayParameters/setting`` spells a resolved one with every value.
package struct Setting: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The preset's name (`swipe-dismiss`), or a sheet library's where a sheet is asked for.
    package var preset: String
    /// Values by parameter key; a key not given keeps the preset's default.
    package var parameters: [String: PresetValue]

    /// A setting of `preset` with `parameters`.
    package init(preset: String, parameters: [String: PresetValue] = [:]) {
        self.preset = preset
        self.parameters = parameters
    }

    private enum CodingKeys: String, CodingKey { case preset, parameters }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        preset = try c.decode(String.self, forKey: .preset)
        parameters = try c.decodeIfPresent([String: PresetValue].self, forKey: .parameters) ?? [:]
    }

    /// The parameters in key order, as `key=value`: how a setting is named in messages and how
    /// settings are ordered.
    package var description: String {
        let values = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return values.isEmpty ? preset : "\(preset) \(values)"
    }

    /// Settings in the order of their preset, then their parameters in key order.
    package static func < (lhs: Setting, rhs: Setting) -> Bool {
        lhs.preset != rhs.preset ? lhs.preset < rhs.preset : lhs.description < rhs.description
    }
}
