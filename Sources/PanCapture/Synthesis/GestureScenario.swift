public import PanTrace

/// The kinds of gesture the synthesizer makes, each with the intent it stands for.
///
/// The intent is the generator's own rule (docs/SYNTH.md): the scenario is what the person
/// meant, and the motion is drawn to look like it. A gesture that drags past halfway but
/// comes back (`overshoot-return`) meant cancel even though its peak progress was high.
public enum GestureScenario: String, Sendable, CaseIterable, Codable {
    /// A slow drag most of the way, released nearly at rest: finish.
    case slowComplete = "slow-complete"
    /// A short slow drag, released nearly at rest: cancel.
    case slowAbort = "slow-abort"
    /// A quick flick, released mid-motion at high speed while progress is still low: finish.
    case quickFlick = "quick-flick"
    /// A drag to about halfway, then a quick flick back toward the start: cancel.
    case flickBack = "flick-back"
    /// A short drag, a pause, then a confident drag on: finish.
    case hesitateGo = "hesitate-go"
    /// A drag well past halfway, a pause, then a return toward the start: cancel.
    case overshootReturn = "overshoot-return"

    /// What the person meant.
    public var intent: Intent {
        switch self {
        case .slowComplete, .quickFlick, .hesitateGo: .finish
        case .slowAbort, .flickBack, .overshootReturn: .cancel
        }
    }
}

/// Which transition the synthetic gesture drives.
public enum GestureKind: String, Sendable, CaseIterable, Codable {
    /// An edge swipe from the left edge to go back: along +x, distance = screen width.
    case edgeBack = "edge-back"
    /// A drag down to dismiss a sheet: along +y, distance = half the screen height.
    case swipeDown = "swipe-down"
}
