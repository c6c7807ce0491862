import Testing
import TransitionEngine

struct PresetCatalogTests {
    @Test
    func catalogListsEveryDesignRow() {
        #expect(
            PresetCatalog.names == [
                "zoom", "zoom-custom", "drawer", "circle-reveal", "swipe-dismiss", "swipe-back",
                "bounce-present", "semi-modal", "parallax-push", "uikit-percent", "best"
            ])
    }

    @Test(arguments: PresetName.allCases)
    func everyParameterHasAMeaningAndADefaultInsideItsRange(_ name: PresetName) throws {
        let entry = PresetCatalog.entry(for: name)
        #expect(!entry.summary.isEmpty && !entry.source.isEmpty)
        #expect(!entry.parameters.isEmpty)
        for parameter in entry.parameters {
            #expect(!parameter.meaning.isEmpty)
            switch (parameter.allowed, parameter.defaultValue) {
            case (.range(let range), .number(let value)):
                #expect(range.contains(value), "\(name.rawValue).\(parameter.key)")
            case (.choices(let choices), .choice(let value)):
                #expect(choices.contains(value), "\(name.rawValue).\(parameter.key)")
            default:
                Issue.record("\(name.rawValue).\(parameter.key) has a default of the wrong kind")
            }
        }
        // Rebuilding with every default as an explicit override changes nothing.
        let overrides = Dictionary(uniqueKeysWithValues: entry.parameters.map { ($0.key, $0.defaultValue) })
        #expect(try Preset(named: name.rawValue, overrides: overrides) == Preset(name))
    }

    @Test
    func overridesChangeTheBehaviour() throws {
        let preset = try Preset(named: "zoom", overrides: ["threshold": 0.3, "comparison": "atLeast"])
        let release = ReleaseState(
            progress: 0.3, velocity: .zero, axisVelocity: 0, crossVelocity: 0, distance: 390, phase: .ended, time: 0, lastMoveTime: 0)
        #expect(preset.policy.decide(release).outcome == .finish)
        #expect(preset.value(forKey: "threshold") == .number(0.3))
        let numeric = try Preset(named: "uikit-percent", numericOverrides: ["duration": 0.5, "completionSpeed": 2])
        #expect(numeric.duration == 0.5)
    }

    @Test
    func unknownPresetNameListsTheValidNames() {
        let error = #expect(throws: TransitionEngineError.self) { try Preset(named: "zoomy") }
        #expect(error?.description.hasPrefix("unknown preset 'zoomy'; valid presets: zoom, zoom-custom,") == true)
        #expect(throws: TransitionEngineError.self) { try PresetCatalog.entry(named: "zoomy") }
    }

    @Test
    func unknownKeyListsTheValidKeys() {
        let error = #expect(throws: TransitionEngineError.self) { try Preset(named: "zoom", overrides: ["treshold": 0.4]) }
        #expect(error?.key == "treshold")
        #expect(error?.preset == "zoom")
        #expect(
            error?.description.contains(
                "unknown parameter 'treshold'; valid keys: direction, travel, travelUnit, threshold, comparison, cancelledPhase, duration") == true)
    }

    @Test(arguments: [-0.01, 1.01])
    func outOfRangeValueNamesTheRange(_ value: Double) {
        let error = #expect(throws: TransitionEngineError.self) { try Preset(named: "swipe-dismiss", overrides: ["threshold": .number(value)]) }
        #expect(error?.description == "preset 'swipe-dismiss': threshold = \(value) is out of range; allowed: 0.0 … 1.0 progress")
    }

    @Test
    func rangeEndsAreAccepted() throws {
        _ = try Preset(named: "swipe-dismiss", overrides: ["threshold": 0.0])
        _ = try Preset(named: "swipe-dismiss", overrides: ["threshold": 1.0])
    }

    @Test
    func badChoicesAndKindsAreRejected() {
        let curve = #expect(throws: TransitionEngineError.self) { try Preset(named: "zoom", overrides: ["completionCurve": "bouncy"]) }
        #expect(curve?.description.contains("is not one of: linear, easeIn, easeOut, easeInOut, default, materialStandard") == true)
        let kind = #expect(throws: TransitionEngineError.self) { try Preset(named: "zoom", overrides: ["duration": "long"]) }
        #expect(kind?.description == "preset 'zoom': duration expects a number, got 'long'")
        #expect(throws: TransitionEngineError.self) { try Preset(named: "zoom", overrides: ["duration": .number(.nan)]) }
    }

    @Test
    func presetValuesParseFromCommandLineText() {
        #expect(PresetValue(parsing: "0.25") == .number(0.25))
        #expect(PresetValue(parsing: "easeOut") == .choice("easeOut"))
    }

    @Test
    func catalogNamesRulesAndModels() throws {
        let best = try PresetCatalog.entry(named: "best")
        #expect(best.decisionRule == "D5")
        #expect(best.completionModel == "T4")
        #expect(best.velocityEstimator == "lsq2")
        #expect(PresetCatalog.entry(for: .drawer).completionModel == "stepper")
        #expect(PresetCatalog.entry(for: .parallaxPush).decisionRule == "D6")
        #expect(PresetCatalog.entry(for: .zoomCustom).completionModel == "fixed")
        let hermite = try Preset(named: "best", overrides: ["completionModel": "hermite"])
        #expect(hermite.completion.identifier == "T10")
        let curve = try Preset(named: "zoom", overrides: ["completionMode": "curve"])
        #expect(curve.completion.identifier == "T1b")
    }

    @Test
    func springDurationCanMeanResponseOrSettling() throws {
        guard case .spring(let byResponse) = try Preset(named: "semi-modal", overrides: ["springDuration": "response"]).completion,
            case .spring(let bySettling) = try Preset(named: "semi-modal", overrides: ["springDuration": "settling"]).completion
        else {
            Issue.record("semi-modal should complete on a spring")
            return
        }
        #expect(abs(byResponse.spring.response - 0.8) < 1e-12)
        // e^{−ζ ω0 D} = 10⁻³ at D = 0.8 s, ζ = 0.6.
        let omega = bySettling.spring.naturalFrequency
        #expect(abs(omega * 0.6 * 0.8 - 6.907755278982137) < 1e-9)
    }

    @Test
    func curveScrubRendersThroughTheTransitionCurve() throws {
        let preset = try Preset(named: "zoom", overrides: ["scrub": "curve"])
        #expect(preset.renderedProgress(0.25) == TimingCurve.easeInOut.value(at: 0.25))
        #expect(Preset(.zoom).renderedProgress(0.25) == 0.25)
    }
}
