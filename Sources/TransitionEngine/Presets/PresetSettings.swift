/// Every knob any preset has, as typed values. A preset exposes a subset of them as
/// ``PresetParameter``s (see `PresetName.parameterKeys`), each by its ``ParameterKey``.
struct PresetSettings: Sendable, Hashable {
    enum SpeedRule: String, Sendable, Hashable, CaseIterable {
        case constant
        case oneMinusProgress
    }

    enum CompletionMode: String, Sendable, Hashable, CaseIterable {
        /// T1a.
        case resume
        /// T1b.
        case curve
    }

    /// What a `UIView` spring's duration means is not documented (docs/MODEL.md §4.11 U5).
    enum SpringDuration: String, Sendable, Hashable, CaseIterable {
        /// Apple's definition: the duration is the animation's total duration. ω0 as for
        /// ``settling``, and the completion ends at exactly the duration (docs/MODEL.md §4.7).
        case total
        /// `k = (2π/duration)²` (the SwiftUI mapping, docs/MODEL.md §4.7).
        case response
        /// ω0 chosen so that the envelope `e^{−ζ ω0 t}` falls to 0.1 % at the duration; the
        /// completion lasts until the spring settles to `epsilon`.
        case settling
    }

    /// What the travel distance is measured in.
    enum TravelUnit: String, Sendable, Hashable, CaseIterable {
        /// A fraction of the screen width `W`.
        case width
        /// A fraction of the screen height `H`.
        case height
        /// Points.
        case points
    }

    /// The drawer's geometry (docs/MODEL.md §6.3).
    enum DrawerStyle: String, Sendable, Hashable, CaseIterable {
        /// The repository's: the current screen slides right to `W − drawerGap`, revealing the
        /// drawer underneath, under a mask view fading to `dimming`.
        case reveal
        /// A panel `drawerWidth·W` wide slides in over the static content.
        case overlay
    }

    /// What the drawer's stepper does on its snap frame (docs/MODEL.md §4.4, §6.3).
    enum StepperFinish: String, Sendable, Hashable, CaseIterable {
        /// `finish()` on a present or dismiss: straight to the end state (the article's).
        case jump
        /// `finish()` completes percent-driven from the last stepped value, as on a push or pop.
        case percentDriven
    }

    enum BestCompletion: String, Sendable, Hashable, CaseIterable {
        /// T4.
        case spring
        /// T10 (fixed end time, velocity-continuous).
        case hermite
    }

    // Mapping.
    var rubberBand = 0.0
    var direction: DragDirection = .right
    var travel = 1.0
    var travelUnit: TravelUnit = .width
    var releaseProgress: ReleaseProgress = .changed
    // Decision.
    var threshold = 0.5
    var comparison: Decision.Comparison = .atLeast
    var cancelledPhase: DecisionPolicy.CancelledPhaseHandling = .cancel
    var decelerationRate = 0.998
    var stopTime = 0.040
    var deadBand = 0.0
    // Timing.
    var duration = 0.35
    var completionSpeed = 1.0
    var speedRule: SpeedRule = .constant
    var completionMode: CompletionMode = .resume
    var completionCurve: TimingCurve = .easeInOut
    var cancelDuration: PercentDrivenCompletion.CancelDuration = .distance
    var scrub: ScrubMapping = .linear
    var transitionCurve: TimingCurve = .easeInOut
    // Display-link stepper.
    var stepRate = 0.02
    var snapThreshold = 0.98
    var stepperFinish: StepperFinish = .jump
    // Springs.
    var response = 0.4
    var dampingRatio = 1.0
    var springVelocity: SpringCompletion.InitialVelocity = .matched
    var springDuration: SpringDuration = .total
    var momentumSpeed = 1200.0
    var momentumDampingRatio = 0.8
    var velocityLimit = 35.0
    var epsilon = 0.5
    var bestCompletion: BestCompletion = .spring
    // Geometry.
    var minimumScale = 0.1
    var drawerWidth = 0.8
    var drawerStyle: DrawerStyle = .reveal
    var drawerGap = 50.0
    var dimming = 0.8
    var buttonX = 0.9
    var buttonY = 0.07
    var buttonWidth = 79.0
    var buttonHeight = 48.0
    var cornerRadius = 15.0
    var presentingScale = 0.85
    var finalY = 1.0 / 3.0
    var parallax = 0.3
}

/// How one key reads and writes ``PresetSettings``.
struct ParameterSpec: Sendable {
    let key: ParameterKey
    let meaning: String
    let unit: String
    let allowed: PresetParameter.Allowed
    let read: @Sendable (PresetSettings) -> PresetValue
    /// Writes an already validated value.
    let write: @Sendable (inout PresetSettings, PresetValue) -> Void

    static func number(
        _ key: ParameterKey, _ meaning: String, unit: String, range: ClosedRange<Double>,
        _ path: any WritableKeyPath<PresetSettings, Double> & Sendable
    ) -> ParameterSpec {
        ParameterSpec(
            key: key, meaning: meaning, unit: unit, allowed: .range(range),
            read: { .number($0[keyPath: path]) },
            write: { settings, value in settings[keyPath: path] = value.number ?? settings[keyPath: path] }
        )
    }

    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ key: ParameterKey, _ meaning: String, _ path: any WritableKeyPath<PresetSettings, Value> & Sendable
    ) -> ParameterSpec where Value.RawValue == String {
        ParameterSpec(
            key: key, meaning: meaning, unit: "", allowed: .choices(Value.allCases.map(\.rawValue)),
            read: { .choice($0[keyPath: path].rawValue) },
            write: { settings, value in
                if case .choice(let name) = value, let parsed = Value(rawValue: name) {
                    settings[keyPath: path] = parsed
                }
            }
        )
    }

    static func curve(_ key: ParameterKey, _ meaning: String, _ path: any WritableKeyPath<PresetSettings, TimingCurve> & Sendable) -> ParameterSpec {
        ParameterSpec(
            key: key, meaning: meaning, unit: "", allowed: .choices(TimingCurve.named.map(\.name)),
            read: { .choice($0[keyPath: path].name) },
            write: { settings, value in
                if case .choice(let name) = value, let curve = TimingCurve(name: name) {
                    settings[keyPath: path] = curve
                }
            }
        )
    }

    /// Every spec, by key.
    static let all: [ParameterKey: ParameterSpec] = {
        let specs: [ParameterSpec] = [
            .choice(.direction, "the drag that drives progress: right (+x), left (−x), down (+y) or up (−y)", \.direction),
            .number(.travel, "the drag distance that makes progress 1, in travelUnit", unit: "travelUnit", range: 0.01...10000, \.travel),
            .choice(.travelUnit, "what travel is measured in: width (fraction of W), height (fraction of H) or points", \.travelUnit),
            .choice(
                .releaseProgress,
                "which callbacks move the transition: changed (began does not move it; the release reads the last changed value, as UIKit apps call update only in .changed) or lift (every callback, the release reads the lift's own translation)",
                \.releaseProgress),
            .number(
                .rubberBand, "rubber-band coefficient c past [0, 1] (docs/MODEL.md §2.2, UIScrollView-like 0.55); 0 clamps", unit: "", range: 0...1,
                \.rubberBand),
            .number(.threshold, "progress threshold θ of the decision rule", unit: "progress", range: 0...1, \.threshold),
            .choice(.comparison, "threshold test: atLeast (p ≥ θ) or greaterThan (p > θ, as the source's if/else)", \.comparison),
            .choice(.cancelledPhase, "a `cancelled` gesture: always cancel, or decide like `ended`", \.cancelledPhase),
            .number(
                .decelerationRate, "projection deceleration rate d per ms (0.998 normal, 0.99 fast)", unit: "per ms", range: 0.9...0.9999,
                \.decelerationRate),
            .number(
                .stopTime, "stopped-finger gate: velocity 0 if the last move is older than this at lift", unit: "s", range: 0.001...1, \.stopTime),
            .number(
                .deadBand, "velocity dead-band V_dir of the direction rule (|v| > V_dir decides by sign)", unit: "pt/s", range: 0...5000, \.deadBand),
            .number(.duration, "transition duration D", unit: "s", range: 0.01...10, \.duration),
            .number(.completionSpeed, "UIKit completionSpeed s (completion takes |Δ|·D/s)", unit: "", range: 0.01...10, \.completionSpeed),
            .choice(.speedRule, "completionSpeed rule: constant (completionSpeed) or oneMinusProgress (s = 1 − p0)", \.speedRule),
            .choice(
                .completionMode, "resume: T1a continues the timeline; curve: T1b fresh completionCurve segment (docs/MODEL.md §4.11 U2)",
                \.completionMode),
            .curve(.completionCurve, "UIKit completionCurve for completionMode = curve", \.completionCurve),
            .choice(.cancelDuration, "cancel time: distance (p0·D/s) or complement ((1 − p0)·D/s) (docs/MODEL.md §4.11 U1)", \.cancelDuration),
            .choice(.scrub, "rendered mapping R: linear, or the transition's own curve (docs/MODEL.md §4.11 U3)", \.scrub),
            .curve(.transitionCurve, "the transition animation's own timing curve F", \.transitionCurve),
            .number(.stepRate, "progress added per display frame by the stepper", unit: "progress/frame", range: 0.001...1, \.stepRate),
            .number(.snapThreshold, "progress at which the stepper snaps to done", unit: "progress", range: 0.5...1, \.snapThreshold),
            .choice(
                .stepperFinish,
                "the stepper's snap frame: jump (finish() on a present or dismiss jumps to the end, the drawer article's) or percentDriven (it completes from the last stepped value in (1 − p)·D/s)",
                \.stepperFinish),
            .number(.response, "spring response 2π/ω0 (or the UIView spring duration)", unit: "s", range: 0.05...5, \.response),
            .number(.dampingRatio, "spring damping ratio ζ (1 = critical)", unit: "", range: 0.05...3, \.dampingRatio),
            .choice(.springVelocity, "spring initial velocity: matched to the finger, or zero", \.springVelocity),
            .choice(
                .springDuration,
                "meaning of a UIView spring duration: total (Apple: the animation's total duration; ends exactly then), response, or settling (docs/MODEL.md §4.7, §4.11 U5)",
                \.springDuration),
            .number(
                .momentumSpeed, "axis speed at which momentumDampingRatio replaces dampingRatio", unit: "pt/s", range: 0...20000, \.momentumSpeed),
            .number(
                .momentumDampingRatio, "damping ratio for fast releases (WWDC18 'reward momentum')", unit: "", range: 0.05...3,
                \.momentumDampingRatio),
            .number(.velocityLimit, "clip on the relative spring velocity |v_rel| (Apple sample: 35)", unit: "1/s", range: 0...1000, \.velocityLimit),
            .number(.epsilon, "settle tolerance of the spring", unit: "pt", range: 0.01...10, \.epsilon),
            .choice(.completionModel, "spring (T4) or hermite (T10, fixed end time)", \.bestCompletion),
            .number(.minimumScale, "scale of the outgoing view at p = 1", unit: "", range: 0...1, \.minimumScale),
            .number(.drawerWidth, "drawer width as a fraction of the screen width", unit: "fraction of W", range: 0.1...1, \.drawerWidth),
            .choice(
                .drawerStyle,
                "reveal: the screen slides right to W − drawerGap over the drawer (the repository's); overlay: a drawerWidth·W panel slides over the screen",
                \.drawerStyle),
            .number(.drawerGap, "reveal: how much of the screen stays visible at the right", unit: "pt", range: 0...1000, \.drawerGap),
            .number(.dimming, "reveal: the mask view's final alpha over the screen", unit: "", range: 0...1, \.dimming),
            .number(.buttonWidth, "width of the button the mask grows from (the demo's 79 pt)", unit: "pt", range: 0...1000, \.buttonWidth),
            .number(.buttonHeight, "height of the button the mask grows from (the demo's 48 pt)", unit: "pt", range: 0...1000, \.buttonHeight),
            .number(.buttonX, "x of the button centre the circle grows from", unit: "fraction of W", range: 0...1, \.buttonX),
            .number(.buttonY, "y of the button centre the circle grows from", unit: "fraction of H", range: 0...1, \.buttonY),
            .number(.cornerRadius, "corner radius of the presented view", unit: "pt", range: 0...200, \.cornerRadius),
            .number(.presentingScale, "scale of the presenting snapshot at p = 1", unit: "", range: 0.5...1, \.presentingScale),
            .number(.finalY, "top of the presented view's final frame", unit: "fraction of H", range: 0...1, \.finalY),
            .number(.parallax, "how far the view underneath moves, as a fraction of W", unit: "fraction of W", range: 0...1, \.parallax)
        ]
        var byKey: [ParameterKey: ParameterSpec] = [:]
        for spec in specs {
            precondition(byKey[spec.key] == nil, "duplicate parameter key \(spec.key)")
            byKey[spec.key] = spec
        }
        precondition(byKey.count == ParameterKey.allCases.count, "every parameter key has its spec")
        return byKey
    }()
}
