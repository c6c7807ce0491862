/// Every parameter any preset has, by the one name it has at every edge: `--set` and `--grid`,
/// a setting file, the wire's `load` and the viewer. Its raw value is that name. A preset exposes
/// a subset of them (``PresetCatalog``); ``stage`` says what part of the model each one enters.
public enum ParameterKey: String, CaseIterable, Sendable, Hashable, Codable {
    // The drag and the progress mapping.
    case direction, travel, travelUnit, releaseProgress, rubberBand
    // The decision rule.
    case threshold, comparison, cancelledPhase, decelerationRate, deadBand
    // The velocity gate.
    case stopTime
    // The completion.
    case duration, completionSpeed, speedRule, completionMode, completionCurve, cancelDuration, scrub, transitionCurve
    case stepRate, snapThreshold, stepperFinish
    case response, dampingRatio, springVelocity, springDuration, momentumSpeed, momentumDampingRatio, velocityLimit, epsilon
    case completionModel
    // What the transition shows.
    case minimumScale, drawerWidth, drawerStyle, drawerGap, dimming, buttonWidth, buttonHeight, buttonX, buttonY
    case cornerRadius, presentingScale, finalY, parallax

    /// What part of the model a parameter enters.
    public enum Stage: Sendable, Hashable {
        /// The progress mapping or the reading of the callbacks (`Preset.mapping(screen:)`,
        /// `Preset.reading`): it changes the release state itself.
        case mapping
        /// Only the decision rule (`DecisionPolicy.rule` and its cancelled-phase handling).
        case decisionRule
        /// The velocity gate the decision applies before its rule (`VelocityGates`).
        case velocityGate
        /// How the transition completes after the decision: duration, speed, curve, spring.
        case completion
        /// What the transition draws, not when it finishes.
        case geometry
    }

    /// What part of the model this parameter enters.
    public var stage: Stage {
        switch self {
        case .direction, .travel, .travelUnit, .releaseProgress, .rubberBand: .mapping
        case .threshold, .comparison, .cancelledPhase, .decelerationRate, .deadBand: .decisionRule
        case .stopTime: .velocityGate
        case .duration, .completionSpeed, .speedRule, .completionMode, .completionCurve, .cancelDuration, .scrub, .transitionCurve,
            .stepRate, .snapThreshold, .stepperFinish, .response, .dampingRatio, .springVelocity, .springDuration, .momentumSpeed,
            .momentumDampingRatio, .velocityLimit, .epsilon, .completionModel:
            .completion
        case .minimumScale, .drawerWidth, .drawerStyle, .drawerGap, .dimming, .buttonWidth, .buttonHeight, .buttonX, .buttonY,
            .cornerRadius, .presentingScale, .finalY, .parallax:
            .geometry
        }
    }
}
