/// A transition preset: progress mapping, decision policy, completion model and layer
/// geometry, with its parameters resolved.
///
/// Build one from the catalog by name with overrides (``init(named:overrides:)``), or with
/// its defaults (``init(_:)``). All derived parts are computed once here, so per-frame
/// evaluation only does arithmetic.
public struct Preset: Sendable, Hashable {
    /// Which preset.
    public let name: PresetName
    let settings: PresetSettings
    /// The decision policy at release.
    public let policy: DecisionPolicy
    /// The completion model after release.
    public let completion: CompletionModel
    /// The transition animation's own timing curve `F`.
    public let transitionCurve: TimingCurve
    /// The rendered mapping `R`.
    public let scrub: ScrubMapping
    /// How the preset reads the pan callbacks (docs/MODEL.md §1.4).
    public let reading: CallbackReading

    /// The preset with its defaults.
    public init(_ name: PresetName) {
        self.init(name: name, settings: name.defaultSettings)
    }

    /// The preset with some parameters overridden.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown key (listing the valid keys), a
    ///   number out of range (naming the range), or an unknown choice (listing the choices).
    public init(_ name: PresetName, overrides: [String: PresetValue]) throws {
        var settings = name.defaultSettings
        let keys = name.parameterKeys
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let parameter = ParameterKey(rawValue: key), keys.contains(parameter), let spec = ParameterSpec.all[parameter] else {
                throw TransitionEngineError.unknownParameter(key, preset: name.rawValue, valid: keys.map(\.rawValue))
            }
            switch (spec.allowed, value) {
            case (.range(let range), .number(let number)):
                guard number.isFinite, range.contains(number) else {
                    throw TransitionEngineError.outOfRange(key, value: number, range: range, unit: spec.unit, preset: name.rawValue)
                }
            case (.range, .choice(let text)):
                throw TransitionEngineError.expectedNumber(key, value: text, preset: name.rawValue)
            case (.choices(let choices), .choice(let text)):
                guard choices.contains(text) else {
                    throw TransitionEngineError.invalidChoice(key, value: text, choices: choices, preset: name.rawValue)
                }
            case (.choices(let choices), .number(let number)):
                throw TransitionEngineError.invalidChoice(key, value: "\(number)", choices: choices, preset: name.rawValue)
            }
            spec.write(&settings, value)
        }
        self.init(name: name, settings: settings)
    }

    /// The preset called `name` (e.g. `"swipe-dismiss"`) with overrides.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown name (listing the valid ones) or a bad
    ///   override.
    public init(named name: String, overrides: [String: PresetValue] = [:]) throws {
        guard let preset = PresetName(rawValue: name) else {
            throw TransitionEngineError.unknownPreset(name, valid: PresetName.allCases.map(\.rawValue))
        }
        try self.init(preset, overrides: overrides)
    }

    /// The preset called `name` with numeric overrides.
    public init(named name: String, numericOverrides: [String: Double]) throws {
        try self.init(named: name, overrides: numericOverrides.mapValues { .number($0) })
    }

    init(name: PresetName, settings: PresetSettings) {
        self.name = name
        self.settings = settings
        self.transitionCurve = settings.transitionCurve
        // zoom-custom sets the scale directly from p while interactive: no animator to scrub.
        self.scrub = name == .zoomCustom ? .linear : settings.scrub
        self.reading = Self.makeReading(name, settings)
        self.policy = Self.makePolicy(name, settings)
        self.completion = Self.makeCompletion(name, settings)
    }

    /// The preset's parameters with their current values as `defaultValue`.
    public var parameters: [PresetParameter] {
        name.parameterKeys.compactMap { key in
            guard let spec = ParameterSpec.all[key] else { return nil }
            return PresetParameter(
                key: key.rawValue, meaning: spec.meaning, unit: spec.unit, defaultValue: spec.read(settings), allowed: spec.allowed)
        }
    }

    /// The current value of `key`, or nil if the preset has no such parameter.
    public func value(forKey key: String) -> PresetValue? {
        ParameterKey(rawValue: key).flatMap(value(for:))
    }

    /// The current value of `key`, or nil if the preset has no such parameter.
    public func value(for key: ParameterKey) -> PresetValue? {
        guard name.parameterKeys.contains(key), let spec = ParameterSpec.all[key] else { return nil }
        return spec.read(settings)
    }

    /// The transition duration `D` the preset uses, s.
    public var duration: Double { settings.duration }

    /// The drag that drives the preset: its `direction` parameter.
    public var dragDirection: DragDirection { settings.direction }

    /// The drag distance that makes progress 1, as set: a number in ``travelUnit``.
    public var travel: Double { settings.travel }

    /// What ``travel`` is measured in: `"width"` (a fraction of W), `"height"` (of H) or `"points"`.
    public var travelUnit: String { settings.travelUnit.rawValue }

    /// True when progress follows the magnitude of the translation (`parallax-push`'s
    /// `fabs(tx / W)`), so a drag either way along the axis moves it.
    public var usesMagnitude: Bool { name == .parallaxPush }

    /// `L`, the points of drag that make progress 1 on `screen`.
    public func travelDistance(screen: Size) -> Double {
        switch settings.travelUnit {
        case .width: settings.travel * screen.width
        case .height: settings.travel * screen.height
        case .points: settings.travel
        }
    }

    /// The drag that drives the preset in words, e.g. `"drag down (+y) over 0.5·H"`.
    public var dragDescription: String {
        let amount = Decision.format(settings.travel, digits: 3)
        let over: String
        switch settings.travelUnit {
        case .width: over = amount == "1" ? "W" : "\(amount)·W"
        case .height: over = amount == "1" ? "H" : "\(amount)·H"
        case .points: over = "\(amount) pt"
        }
        if usesMagnitude {
            return
                "drag along \(settings.direction.axis.rawValue) (either way, |t\(settings.direction.axis.rawValue)|; velocity toward finish is \(settings.direction.rawValue), \(settings.direction.signedAxis)) over \(over)"
        }
        return "drag \(settings.direction.rawValue) (\(settings.direction.signedAxis)) over \(over)"
    }

    /// How translation maps to progress on `screen` (docs/MODEL.md §2.3): along the
    /// `direction` parameter's axis and sign, `L` = ``travelDistance(screen:)``.
    public func mapping(screen: Size) -> ProgressMapping {
        let overflow: ProgressMapping.Overflow = settings.rubberBand > 0 ? .rubberBand(coefficient: settings.rubberBand) : .clamp
        let direction = settings.direction
        return ProgressMapping(
            axis: direction.axis, sign: direction.sign, distance: max(travelDistance(screen: screen), 1e-9),
            usesMagnitude: usesMagnitude, overflow: overflow)
    }

    /// `R(p)`: what is drawn for timeline progress `p`.
    @inlinable
    public func renderedProgress(_ progress: Double) -> Double {
        scrub.rendered(progress, curve: transitionCurve)
    }

    private static func makeReading(_ name: PresetName, _ settings: PresetSettings) -> CallbackReading {
        switch name {
        case .zoom, .zoomCustom, .drawer, .parallaxPush:
            // docs/MODEL.md §1.4: progress (or velocity) is computed on every callback before the
            // switch and the release branch decides on it; `update` runs only in `.changed`.
            return CallbackReading(progressSource: .changed, decidesOnReleaseCallback: true)
        case .swipeDismiss, .swipeBack:
            // docs/MODEL.md §6.5: the flag `p > 0.5` is set only in `.changed`.
            return CallbackReading(progressSource: .changed, decidesOnReleaseCallback: false)
        case .circleReveal, .bouncePresent, .semiModal, .uikitPercent, .best:
            return CallbackReading(progressSource: settings.releaseProgress, decidesOnReleaseCallback: false)
        }
    }

    private static func makePolicy(_ name: PresetName, _ settings: PresetSettings) -> DecisionPolicy {
        let threshold = Threshold(settings.threshold, settings.comparison)
        switch name {
        case .parallaxPush:
            // docs/MODEL.md §3.7, §6.9 `parallax-push`: `if vx > 0 { cancel } else { finish }`, so v = 0 finishes.
            return DecisionPolicy(rule: .direction(deadBand: settings.deadBand, fallback: .finish), cancelledPhase: settings.cancelledPhase)
        case .best:
            return DecisionPolicy(
                rule: .projection(decelerationRate: settings.decelerationRate, threshold: Threshold(settings.threshold), isExact: false),
                gates: VelocityGates(stopTime: settings.stopTime),
                cancelledPhase: settings.cancelledPhase
            )
        case .swipeDismiss, .swipeBack:
            return DecisionPolicy(rule: .threshold(threshold), cancelledPhase: settings.cancelledPhase, requiresChange: true)
        default:
            return DecisionPolicy(rule: .threshold(threshold), cancelledPhase: settings.cancelledPhase)
        }
    }

    private static func percentDriven(_ settings: PresetSettings) -> PercentDrivenCompletion {
        PercentDrivenCompletion(
            duration: settings.duration,
            speed: settings.speedRule == .oneMinusProgress ? .oneMinusProgress : .constant(settings.completionSpeed),
            shape: settings.completionMode == .resume ? .resumeTimeline : .completionCurve(settings.completionCurve),
            cancelDuration: settings.cancelDuration
        )
    }

    private static func makeCompletion(_ name: PresetName, _ settings: PresetSettings) -> CompletionModel {
        switch name {
        case .zoomCustom:
            return .fixedDuration(FixedDurationCompletion(duration: settings.duration, curve: settings.completionCurve))
        case .drawer:
            return .displayLinkStepper(
                DisplayLinkStepper(
                    rate: settings.stepRate, snapThreshold: settings.snapThreshold, cancel: percentDriven(settings),
                    finishesPercentDriven: settings.stepperFinish == .percentDriven))
        case .bouncePresent, .semiModal:
            let response: Double
            switch settings.springDuration {
            case .response:
                response = settings.response
            case .settling, .total:
                response = Spring.uiKitResponse(duration: settings.response, dampingRatio: settings.dampingRatio)
            }
            return .spring(
                SpringCompletion(
                    spring: Spring(response: response, dampingRatio: settings.dampingRatio),
                    initialVelocity: settings.springVelocity,
                    relativeVelocityLimit: settings.velocityLimit,
                    epsilon: settings.epsilon,
                    totalDuration: settings.springDuration == .total ? settings.response : nil
                ))
        case .best:
            let spring = SpringCompletion(
                spring: Spring(response: settings.response, dampingRatio: settings.dampingRatio),
                momentum: .init(speed: settings.momentumSpeed, dampingRatio: settings.momentumDampingRatio),
                relativeVelocityLimit: settings.velocityLimit,
                epsilon: settings.epsilon
            )
            switch settings.bestCompletion {
            case .spring:
                return .spring(spring)
            case .hermite:
                return .hermite(
                    HermiteCompletion(
                        baseDuration: settings.duration,
                        minimumDuration: min(0.12, settings.duration),
                        maximumDuration: settings.duration,
                        fallback: spring
                    ))
            }
        default:
            return .percentDriven(percentDriven(settings))
        }
    }
}

extension Preset {
    /// Settings under which the decision rule can never reach an outcome, one sentence each
    /// (docs/MODEL.md §3.10); empty when both outcomes are reachable.
    ///
    /// Progress is clamped to [0, 1] unless a rubber band lets it past the ends, so a
    /// threshold test `p > 1` never finishes and `p ≥ 0` never cancels.
    public var unreachableOutcomes: [String] {
        let threshold: Threshold
        switch policy.rule {
        case .threshold(let t): threshold = t
        case .direction(_, .threshold(let t)): threshold = t
        default: return []
        }
        guard settings.rubberBand == 0 else { return [] }
        var notes: [String] = []
        let value = Decision.format(threshold.value, digits: 6)
        if threshold.value > 1 || (threshold.value == 1 && threshold.comparison == .greaterThan) {
            notes.append(
                "finish is unreachable: progress is clamped to at most 1 and the rule needs p \(threshold.comparison == .atLeast ? "≥" : ">") \(value)"
            )
        }
        if threshold.value < 0 || (threshold.value == 0 && threshold.comparison == .atLeast) {
            notes.append("the rule never cancels: progress is at least 0 and the rule finishes at p ≥ \(value)")
        }
        return notes
    }
}
