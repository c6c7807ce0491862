/// The catalog of presets, for `pantrace presets [NAME] [--json]`.
public enum PresetCatalog {
    /// One catalog entry.
    public struct Entry: Sendable, Hashable, Codable {
        /// The preset's name, e.g. `"swipe-dismiss"`.
        public let name: String
        /// One line saying what it does.
        public let summary: String
        /// Where its behaviour comes from (the source article and its docs/MODEL.md §6 section).
        public let source: String
        /// The decision rule identifier (`"D1"` …).
        public let decisionRule: String
        /// The completion model identifier (`"T1a"` …).
        public let completionModel: String
        /// The velocity estimator the preset expects (`"recorded"` or `"lsq2"`).
        public let velocityEstimator: String
        /// Its parameters with defaults, units, ranges and meanings.
        public let parameters: [PresetParameter]

        /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
        private enum CodingKeys: String, CodingKey {
            case name, summary, source, parameters
            case decisionRule = "decision_rule", completionModel = "completion_model", velocityEstimator = "velocity_estimator"
        }
    }

    /// Every preset, in docs/MODEL.md §6 order.
    public static var entries: [Entry] {
        PresetName.allCases.map(entry(for:))
    }

    /// The names of every preset.
    public static var names: [String] {
        PresetName.allCases.map(\.rawValue)
    }

    /// The entry for `name`.
    ///
    /// - Throws: ``TransitionEngineError`` listing the valid names when `name` is unknown.
    public static func entry(named name: String) throws -> Entry {
        guard let preset = PresetName(rawValue: name) else {
            throw TransitionEngineError.unknownPreset(name, valid: names)
        }
        return entry(for: preset)
    }

    /// The entry for `name`.
    public static func entry(for name: PresetName) -> Entry {
        let preset = Preset(name)
        return Entry(
            name: name.rawValue,
            summary: name.summary,
            source: name.source,
            decisionRule: preset.policy.rule.identifier,
            completionModel: preset.completion.identifier,
            velocityEstimator: name.velocityEstimator,
            parameters: preset.parameters
        )
    }
}
