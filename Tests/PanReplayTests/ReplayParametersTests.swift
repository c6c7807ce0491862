import Foundation
import PanCapture
import PanTrace
import Testing
import TransitionEngine
@testable import PanReplay

struct ReplayParametersTests {
    @Test
    func velocityDefaultsToThePresetsOwnEstimator() throws {
        #expect(try ReplayParameters(presetNamed: "swipe-dismiss").velocity == .recorded)
        #expect(try ReplayParameters(presetNamed: "best").velocity == .lsq2)
        #expect(try ReplayParameters(presetNamed: "best", overrides: ["velocity": "recorded"]).velocity == .recorded)
    }

    @Test
    func anUnknownKeyListsEveryValidKeyIncludingVelocity() {
        let error = #expect(throws: ReplayError.self) { try ReplayParameters(presetNamed: "zoom", overrides: ["treshold": 0.3]) }
        let text = error?.description ?? ""
        #expect(text.contains("unknown parameter 'treshold'"))
        #expect(text.contains("threshold"))
        #expect(text.hasSuffix("velocity"))
    }

    @Test
    func anUnknownPresetListsTheValidPresets() {
        let error = #expect(throws: TransitionEngineError.self) { try ReplayParameters(presetNamed: "zoomy") }
        #expect(error?.description.contains("swipe-dismiss") == true)
    }

    @Test
    func anUnknownVelocitySourceListsTheSources() {
        let error = #expect(throws: ReplayError.self) { try ReplayParameters(presetNamed: "zoom", overrides: ["velocity": "kalman"]) }
        #expect(error?.description.contains("recorded, lsq2, impulse, flutter") == true)
    }

    @Test
    func overridesReachThePreset() throws {
        let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: ["threshold": 0.3])
        #expect(parameters.value(forKey: "threshold") == .number(0.3))
        #expect(parameters.value(forKey: "velocity") == .choice("recorded"))
    }

    @Test(arguments: [
        ("threshold=0.4", "threshold", PresetValue.number(0.4)), ("velocity=lsq2", "velocity", .choice("lsq2")), ("a=b=c", "a", .choice("b=c"))
    ])
    func assignmentsParse(text: String, key: String, value: PresetValue) throws {
        let parsed = try ReplayParameters.assignment(parsing: text)
        #expect(parsed.key == key)
        #expect(parsed.value == value)
    }

    @Test(arguments: ["threshold", "=0.4", "threshold="])
    func malformedAssignmentsAreRejected(text: String) {
        #expect(throws: ReplayError.self) { try ReplayParameters.assignment(parsing: text) }
    }
}

/// The velocity source is spelled one way everywhere it crosses a layer.
struct VelocitySourceSpellingTests {
    @Test func recordedIsSpelledAsTheMetadataSpellsIt() {
        #expect(VelocitySource.recorded.rawValue == VelocitySource.recorded.rawValue)
    }

    @Test func everyPresetsEstimatorIsAVelocitySourceAndEveryEstimatorAStrategy() {
        for entry in PresetCatalog.entries {
            #expect(VelocitySource(rawValue: entry.velocityEstimator) != nil, "\(entry.name)")
        }
        for source in VelocitySource.allCases where source != .recorded {
            #expect(source.strategy?.rawValue == source.rawValue)
        }
    }
}

/// A setting has one JSON form: a spelled `Setting` and a resolved `ReplayParameters` read and
/// write the same object, and a wire `load` carries the same two fields.
struct SettingFormTests {
    @Test func aSpelledSettingResolvesAndSpellsBackWithEveryValue() throws {
        let text = #"{"parameters":{"threshold":0.3,"velocity":"lsq2"},"preset":"swipe-dismiss"}"#
        let spelled = try JSONDecoder().decode(Setting.self, from: Data(text.utf8))
        #expect(spelled == Setting(preset: "swipe-dismiss", parameters: ["threshold": .number(0.3), "velocity": .choice("lsq2")]))
        let resolved = try JSONDecoder().decode(ReplayParameters.self, from: Data(text.utf8))
        #expect(try ReplayParameters(spelled) == resolved)
        #expect(resolved.velocity == .lsq2 && resolved.preset.value(for: .threshold) == .number(0.3))
        // Spelled back, every parameter is there, and it resolves to the same setting.
        #expect(resolved.setting.parameters.count == Preset(.swipeDismiss).parameters.count + 1)
        #expect(try ReplayParameters(resolved.setting) == resolved)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(resolved) == encoder.encode(resolved.setting))
    }

    @Test func anUnknownKeyOrValueIsRefusedWhenResolvedNotWhenSpelled() throws {
        let unknown = Setting(preset: "swipe-dismiss", parameters: ["treshold": .number(0.3)])
        #expect(throws: (any Error).self) { try ReplayParameters(unknown) }
        let outOfRange = Setting(preset: "swipe-dismiss", parameters: ["threshold": .number(1.5)])
        #expect(throws: (any Error).self) { try ReplayParameters(outOfRange) }
        #expect(throws: (any Error).self) { try ReplayParameters(Setting(preset: "swipe-dismiss", parameters: ["velocity": .choice("kalman")])) }
        #expect(throws: (any Error).self) { try ReplayParameters(Setting(preset: "no-such-preset")) }
    }

    @Test func settingsOrderByPresetThenParameters() {
        let a = Setting(preset: "drawer", parameters: ["threshold": .number(0.5)])
        let b = Setting(preset: "swipe-back")
        let c = Setting(preset: "swipe-back", parameters: ["threshold": .number(0.2)])
        #expect([c, b, a].sorted() == [a, b, c])
        #expect(c.description == "swipe-back threshold=0.2")
    }
}
