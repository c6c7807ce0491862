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
