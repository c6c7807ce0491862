extension PresetName {
    private static let percentDrivenKeys: [ParameterKey] = [
        .duration, .completionSpeed, .completionMode, .completionCurve, .cancelDuration, .scrub, .transitionCurve
    ]

    private static let dragKeys: [ParameterKey] = [.direction, .travel, .travelUnit]

    /// The keys this preset exposes, in catalog order: the drag first (docs/MODEL.md §2.3).
    var parameterKeys: [ParameterKey] {
        Self.dragKeys + ownKeys
    }

    private var ownKeys: [ParameterKey] {
        switch self {
        case .zoom:
            [.threshold, .comparison, .cancelledPhase] + Self.percentDrivenKeys + [.minimumScale]
        case .zoomCustom:
            [.threshold, .comparison, .cancelledPhase, .duration, .completionCurve]
        case .drawer:
            [.threshold, .comparison, .cancelledPhase, .stepRate, .snapThreshold, .stepperFinish] + Self.percentDrivenKeys
                + [.drawerStyle, .drawerGap, .dimming, .drawerWidth]
        case .circleReveal:
            [.releaseProgress, .threshold, .comparison, .cancelledPhase] + Self.percentDrivenKeys
                + [.buttonX, .buttonY, .buttonWidth, .buttonHeight]
        case .swipeDismiss, .swipeBack:
            [.threshold, .comparison, .cancelledPhase, .speedRule] + Self.percentDrivenKeys
        case .bouncePresent:
            [
                .releaseProgress, .threshold, .comparison, .cancelledPhase, .response, .dampingRatio, .springVelocity, .springDuration,
                .velocityLimit, .epsilon
            ]
        case .semiModal:
            [
                .releaseProgress, .threshold, .comparison, .cancelledPhase, .response, .dampingRatio, .springVelocity, .springDuration,
                .velocityLimit, .epsilon,
                .cornerRadius, .presentingScale, .finalY
            ]
        case .parallaxPush:
            [.deadBand, .cancelledPhase] + Self.percentDrivenKeys + [.parallax]
        case .uikitPercent:
            [.releaseProgress, .rubberBand, .threshold, .comparison, .cancelledPhase, .speedRule] + Self.percentDrivenKeys + [.parallax]
        case .best:
            [
                .releaseProgress, .rubberBand, .threshold, .decelerationRate, .stopTime, .cancelledPhase, .completionModel, .response,
                .dampingRatio,
                .momentumSpeed, .momentumDampingRatio, .velocityLimit, .epsilon, .duration, .parallax
            ]
        }
    }

    /// The preset's defaults. Each quirk cites its docs/MODEL.md §6 section.
    var defaultSettings: PresetSettings {
        var settings = PresetSettings()
        switch self {
        case .zoom, .zoomCustom:
            // docs/MODEL.md §6.1–6.2: `p = tx / width` clamped (left-edge pop); on ended or
            // cancelled, `if progress > 0.5` finish (zoom) — a cancelled phase goes through the
            // same if/else; transitionDuration 0.4 s, UIView.animate's easeInOut.
            settings.direction = .right
            settings.threshold = 0.5
            settings.comparison = .greaterThan
            settings.cancelledPhase = .decide
            settings.duration = 0.4
            settings.transitionCurve = .easeInOut
            if self == .zoomCustom {
                // The repository's `finishBy(progress < 0.5)` cancels iff p < 0.5: p = 0.5 finishes.
                settings.comparison = .atLeast
            }
        case .drawer:
            // docs/MODEL.md §6.3: `case .cancelled, .ended: if progress > 0.4 { startLink() }`;
            // the repository (grvlv/LVAnimator) gives rate 1/60, progress tx / W, the present
            // duration 0.4 s and the reveal geometry. The former values (0.02/frame, 0.8·W,
            // 0.3 s, an overlay panel) stay reachable through the parameters.
            settings.direction = .right
            settings.travel = 1
            settings.threshold = 0.4
            settings.comparison = .greaterThan
            settings.cancelledPhase = .decide
            settings.stepRate = 1.0 / 60.0
            settings.snapThreshold = 0.98
            // "present和dismiss则是一闪而过直接跳到结束状态": finish() jumps to the end.
            settings.stepperFinish = .jump
            settings.duration = 0.4
            settings.drawerStyle = .reveal
            settings.drawerGap = 50
            settings.dimming = 0.8
        case .circleReveal:
            // docs/MODEL.md §6.4: "over 1.0 s, easeInEaseOut"; the gesture drive (drag left over
            // W) is PanTrace's own; the demo's button is 79 × 48 pt.
            settings.direction = .left
            settings.duration = 1.0
            settings.transitionCurve = .easeInOut
        case .swipeDismiss, .swipeBack:
            // docs/MODEL.md §6.5–6.6: `actionPoint = point.y / (H/2)` (swipe-back: x / (W/2)),
            // clamped; the flag `actionPoint > 0.5` is set only in .changed and read at ended or
            // cancelled; completionSpeed = 1 − percentComplete; dismiss duration 1.5 s.
            settings.direction = self == .swipeDismiss ? .down : .right
            settings.travel = 0.5
            settings.travelUnit = self == .swipeDismiss ? .height : .width
            settings.threshold = 0.5
            settings.comparison = .greaterThan
            settings.cancelledPhase = .decide
            settings.speedRule = .oneMinusProgress
            settings.duration = 1.5
        case .bouncePresent, .semiModal:
            // docs/MODEL.md §6.7–6.8: `animateWithDuration:0.8 … usingSpringWithDamping:0.6
            // initialSpringVelocity:0.0`, 0.8 s being the total duration (§4.7). The gesture
            // drive (drag up over H) is PanTrace's own.
            settings.direction = .up
            settings.travelUnit = .height
            settings.response = 0.8
            settings.dampingRatio = 0.6
            settings.springVelocity = .zero
            settings.springDuration = .total
            settings.cornerRadius = 15
            settings.presentingScale = 0.85
            settings.finalY = 1.0 / 3.0
        case .parallaxPush:
            // docs/MODEL.md §6.9: `pec = fabs(tx / W)`; `Ended || Cancelled: if (vx > 0) cancel
            // else finish` (so a cancelled phase decides too); transitionDuration 0.3 s; linear.
            settings.direction = .left
            settings.deadBand = 0
            settings.cancelledPhase = .decide
            settings.duration = 0.3
            settings.transitionCurve = .linear
            settings.parallax = 0.3
        case .uikitPercent:
            // docs/MODEL.md §6.10 `uikit-percent`: D1 θ = 0.5 + T1a; update only in .changed,
            // as UIKit apps do (releaseProgress = changed).
            settings.threshold = 0.5
            settings.releaseProgress = .changed
        case .best:
            // docs/MODEL.md §6.11 `best`: stopped-finger gate, D5 (d = 0.998, θ = 0.5), T4 critically
            // damped (response 0.4 s; damping 0.8 when |v| ≥ 1200 pt/s), rubber band (docs/MODEL.md §2.2).
            // The release reads the lift's own translation, the freshest position there is.
            settings.releaseProgress = .lift
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
