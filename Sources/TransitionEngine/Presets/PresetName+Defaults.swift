extension PresetName {
    private static let percentDrivenKeys = [
        "duration", "completionSpeed", "completionMode", "completionCurve", "cancelDuration", "scrub", "transitionCurve",
    ]

    /// The keys this preset exposes, in catalog order.
    var parameterKeys: [String] {
        switch self {
        case .zoom:
            ["threshold", "comparison", "cancelledPhase"] + Self.percentDrivenKeys + ["minimumScale"]
        case .zoomCustom:
            ["threshold", "comparison", "cancelledPhase", "duration", "completionCurve"]
        case .drawer:
            ["threshold", "comparison", "cancelledPhase", "stepRate", "snapThreshold"] + Self.percentDrivenKeys + ["drawerWidth"]
        case .circleReveal:
            ["threshold", "comparison", "cancelledPhase"] + Self.percentDrivenKeys + ["buttonX", "buttonY"]
        case .swipeDismiss, .swipeBack:
            ["threshold", "comparison", "cancelledPhase", "speedRule"] + Self.percentDrivenKeys
        case .bouncePresent:
            ["threshold", "comparison", "cancelledPhase", "response", "dampingRatio", "springVelocity", "springDuration", "velocityLimit", "epsilon"]
        case .semiModal:
            ["threshold", "comparison", "cancelledPhase", "response", "dampingRatio", "springVelocity", "springDuration", "velocityLimit", "epsilon",
             "cornerRadius", "presentingScale", "finalY"]
        case .parallaxPush:
            ["deadBand", "cancelledPhase"] + Self.percentDrivenKeys + ["parallax"]
        case .uikitPercent:
            ["rubberBand", "threshold", "comparison", "cancelledPhase", "speedRule"] + Self.percentDrivenKeys + ["parallax"]
        case .best:
            ["rubberBand", "threshold", "decelerationRate", "stopTime", "cancelledPhase", "completionModel", "response", "dampingRatio",
             "momentumSpeed", "momentumDampingRatio", "velocityLimit", "epsilon", "duration", "parallax"]
        }
    }

    /// The preset's defaults. Each quirk cites its docs/MODEL.md §6 section.
    var defaultSettings: PresetSettings {
        var settings = PresetSettings()
        switch self {
        case .zoom, .zoomCustom:
            // docs/MODEL.md §6.1–6.2 `zoom`: "on ended or cancelled, finish if p > 0.5 else cancel" —
            // strict comparison, and a cancelled phase goes through the same if/else.
            settings.threshold = 0.5
            settings.comparison = .greaterThan
            settings.cancelledPhase = .decide
            // "scales 0.1 → 1 over 0.4 s (easeInOut)"; zoom-custom: "a fixed 0.4 s".
            settings.duration = 0.4
            settings.transitionCurve = .easeInOut
        case .drawer:
            // docs/MODEL.md §6.3 `drawer`: "finish if p > 0.4" (strict), stepper until p ≥ 0.98.
            // The per-frame rate and the cancel duration are not given: 0.02/frame and 0.3 s.
            settings.threshold = 0.4
            settings.comparison = .greaterThan
            settings.stepRate = 0.02
            settings.snapThreshold = 0.98
            settings.duration = 0.3
        case .circleReveal:
            // docs/MODEL.md §6.4 `circle-reveal`: "over 1.0 s, easeInEaseOut".
            settings.duration = 1.0
            settings.transitionCurve = .easeInOut
        case .swipeDismiss, .swipeBack:
            // docs/MODEL.md §6.5 `swipe-dismiss`: "finish iff p > 0.5 at release (a cancelled phase
            // only cancels when p ≤ 0.5, exactly as the source's if/else does); completionSpeed
            // = 1 − percentComplete; dismiss duration 1.5 s".
            settings.threshold = 0.5
            settings.comparison = .greaterThan
            settings.cancelledPhase = .decide
            settings.speedRule = .oneMinusProgress
            settings.duration = 1.5
        case .bouncePresent, .semiModal:
            // docs/MODEL.md §6.7–6.8 `bounce-present` / `semi-modal`: "0.8 s on a spring with damping 0.6";
            // UIView spring animations in the sources start with initial velocity 0.
            settings.response = 0.8
            settings.dampingRatio = 0.6
            settings.springVelocity = .zero
            settings.cornerRadius = 15
            settings.presentingScale = 0.85
            settings.finalY = 1.0 / 3.0
        case .parallaxPush:
            // docs/MODEL.md §6.9 `parallax-push`: "cancel if vx > 0, else finish (the decision uses
            // only the sign of the velocity)"; motion is linear. D is not given: 0.35 s.
            settings.deadBand = 0
            settings.transitionCurve = .linear
            settings.parallax = 0.3
        case .uikitPercent:
            // docs/MODEL.md §6.10 `uikit-percent`: D1 θ = 0.5 + T1a.
            settings.threshold = 0.5
        case .best:
            // docs/MODEL.md §6.11 `best`: stopped-finger gate, D5 (d = 0.998, θ = 0.5), T4 critically
            // damped (response 0.4 s; damping 0.8 when |v| ≥ 1200 pt/s), rubber band (docs/MODEL.md §2.2).
            settings.rubberBand = 0.55
            settings.threshold = 0.5
            settings.decelerationRate = 0.998
            settings.stopTime = 0.040
            settings.response = 0.4
            settings.dampingRatio = 1
            settings.momentumSpeed = 1200
            settings.momentumDampingRatio = 0.8
        }
        return settings
    }
}
