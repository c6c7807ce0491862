internal import Foundation
package import TransitionEngine

/// A setting's one JSON form (docs/TUNE.md, "A setting file"): the preset and every parameter's
/// value, the velocity source among them, as the viewer's `load` spells them:
///
/// ```json
/// {"preset":"swipe-dismiss","parameters":{"threshold":0.3,"velocity":"lsq2",…}}
/// ```
///
/// `tune --save-setting` writes it; `replay`, `emit` and `serve` take it with `--setting`.
/// Reading it checks it as `--set` is checked: an unknown preset, key or velocity source, or a
/// value out of range, is refused naming it.
extension ReplayParameters: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case preset, parameters }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .preset)
        let values = try c.decodeIfPresent([String: PresetValue].self, forKey: .parameters) ?? [:]
        do {
            self = try ReplayParameters(presetNamed: name, overrides: values)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .parameters, in: c, debugDescription: "\(error)")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(preset.name.rawValue, forKey: .preset)
        try c.encode(values, forKey: .parameters)
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
