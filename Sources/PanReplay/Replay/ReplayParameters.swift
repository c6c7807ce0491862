package import PanTrace
package import TransitionEngine

/// A preset with its overrides, plus where velocity comes from: everything `--set` can change.
///
/// Keys are the preset's own catalog keys (``PresetCatalog``) plus `velocity`
/// (``VelocitySource``). When no velocity is given, the preset's expected estimator is used
/// (`recorded` for every preset except `best`, which uses `lsq2`: docs/MODEL.md §6.11).
package struct ReplayParameters: Sendable, Hashable {
    /// The preset, with its overrides resolved.
    package var preset: Preset
    /// Where the velocity of each sample comes from.
    package var velocity: VelocitySource

    /// Creates parameters; `velocity` defaults to the preset's own estimator.
    package init(preset: Preset, velocity: VelocitySource? = nil) {
        self.preset = preset
        self.velocity = velocity ?? Self.defaultVelocity(for: preset.name)
    }

    /// The preset called `name` with `overrides`, which may include `velocity`.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown preset (listing the valid names) or a
    ///   value out of range; ``ReplayError`` for an unknown key (listing every valid key,
    ///   `velocity` included) or an unknown velocity source.
    package init(presetNamed name: String, overrides: [String: PresetValue] = [:]) throws {
        let keys = try Self.validKeys(forPreset: name)
        var presetOverrides = overrides
        var velocity: VelocitySource?
        if let value = presetOverrides.removeValue(forKey: VelocitySource.parameterKey) {
            velocity = try Self.velocitySource(value)
        }
        for key in presetOverrides.keys.sorted() where !keys.contains(key) {
            throw ReplayError.unknownParameter(key, preset: name, valid: keys)
        }
        self.init(preset: try Preset(named: name, overrides: presetOverrides), velocity: velocity)
    }

    /// Every key `--set` and `--grid` accept for the preset: its catalog keys, then `velocity`.
    ///
    /// - Throws: ``TransitionEngineError`` listing the valid presets when `name` is unknown.
    package static func validKeys(forPreset name: String) throws -> [String] {
        try PresetCatalog.entry(named: name).parameters.map(\.key) + [VelocitySource.parameterKey]
    }

    /// The velocity source a preset expects when none is given.
    package static func defaultVelocity(for name: PresetName) -> VelocitySource {
        VelocitySource(rawValue: name.velocityEstimator) ?? .recorded
    }

    /// The value of `key` in these parameters (a catalog key or `velocity`), or nil.
    package func value(forKey key: String) -> PresetValue? {
        key == VelocitySource.parameterKey ? .choice(velocity.rawValue) : preset.value(forKey: key)
    }

    /// Parses `KEY=VALUE` as given to `--set`: a number if the value reads as one, else a name.
    ///
    /// - Throws: ``ReplayError`` when there is no `=`, or the key or value is empty.
    package static func assignment(parsing text: String) throws -> (key: String, value: PresetValue) {
        guard let equals = text.firstIndex(of: "="),
            !text[..<equals].isEmpty, !text[text.index(after: equals)...].isEmpty
        else {
            throw ReplayError.malformedAssignment(text, expected: "KEY=VALUE (e.g. threshold=0.4)")
        }
        return (String(text[..<equals]), PresetValue(parsing: String(text[text.index(after: equals)...])))
    }

    package static func velocitySource(_ value: PresetValue) throws -> VelocitySource {
        guard case .choice(let name) = value, let source = VelocitySource(rawValue: name) else {
            throw ReplayError.invalidVelocity(value.description)
        }
        return source
    }
}
