internal import PanTrace
internal import Foundation
package import TransitionEngine

/// A resolved setting's JSON form is its ``Setting``'s, with every value (docs/TUNE.md, "A setting
/// file"): `tune --save-setting` writes it; `replay`, `emit` and `serve` take it with `--setting`.
/// Reading it checks it as `--set` is checked: an unknown preset, key or velocity source, or a
/// value out of range, is refused naming it.
extension ReplayParameters: Codable {
    /// Resolves `setting`: its preset with its values over the defaults.
    ///
    /// - Throws: ``TransitionEngineError`` or ``ReplayError`` naming an unknown preset, key or
    ///   velocity source, or a value out of range.
    package init(_ setting: Setting) throws {
        try self.init(presetNamed: setting.preset, overrides: setting.parameters)
    }

    /// This setting spelled with every value.
    package var setting: Setting { Setting(preset: preset.name.rawValue, parameters: values) }

    package init(from decoder: any Decoder) throws {
        let setting = try Setting(from: decoder)
        do {
            self = try ReplayParameters(setting)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "parameters: \(error)"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        try setting.encode(to: encoder)
    }

    /// Every parameter's value by key, and the velocity source under `velocity`: what the JSON
    /// form's `parameters` holds, and what `--set` and `load` take.
    package var values: [String: PresetValue] {
        var values: [String: PresetValue] = [:]
        for parameter in preset.parameters { values[parameter.key] = parameter.defaultValue }
        values[VelocitySource.parameterKey] = .choice(velocity.rawValue)
        return values
    }

    /// The JSON form, keys sorted, one line and a newline: what a setting file holds.
    package func settingJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
