/// The transition presets of DESIGN.md §4, one per table row (plus its named variants).
public enum PresetName: String, Sendable, Hashable, Codable, CaseIterable {
    /// Interactive zoom pop (UIKit percent-driven, finish on `p > 0.5`).
    case zoom
    /// Zoom pop whose outgoing view scales by `|p − 1|` and completes in a fixed 0.4 s.
    case zoomCustom = "zoom-custom"
    /// A drawer over the screen, finished by a display-link stepper.
    case drawer
    /// A push revealed through a growing circular mask.
    case circleReveal = "circle-reveal"
    /// Modal dismiss by dragging down, `completionSpeed = 1 − p`.
    case swipeDismiss = "swipe-dismiss"
    /// The push variant of `swipe-dismiss`, by dragging right.
    case swipeBack = "swipe-back"
    /// A presentation that comes up on a bouncy spring.
    case bouncePresent = "bounce-present"
    /// A spring presentation to a third of the screen over a scaled snapshot.
    case semiModal = "semi-modal"
    /// A parallax push decided by the sign of the velocity alone.
    case parallaxPush = "parallax-push"
    /// Generic UIKit percent-driven: D1 + T1a, every knob exposed.
    case uikitPercent = "uikit-percent"
    /// PanTrace's recommendation: projection + velocity-matched spring.
    case best

    /// One line for the catalog.
    public var summary: String {
        switch self {
        case .zoom: "Zoom pop from the left edge: outgoing view scales 1 → 0.1; finish iff p > 0.5; UIKit percent-driven (s = 1, easeInOut)."
        case .zoomCustom: "Zoom pop variant: outgoing view scales by |p − 1|; on release animates in a fixed 0.4 s whatever p was."
        case .drawer: "Drawer over the screen: finish iff p > 0.4 by stepping p += rate per display frame until p ≥ 0.98; cancel percent-driven."
        case .circleReveal: "Push revealed through a circular mask from the button centre to the bottom-left corner over 1.0 s, easeInEaseOut."
        case .swipeDismiss: "Modal dismiss by dragging down: p = ty/(H/2); finish iff p > 0.5; completionSpeed = 1 − p; D = 1.5 s."
        case .swipeBack: "Push variant of swipe-dismiss: p = tx/(W/2); the top view moves to x + W."
        case .bouncePresent: "Present from y + H to the final frame in 0.8 s on a spring with damping 0.6."
        case .semiModal: "Spring presentation to y = H/3 with corner radius 15 while the presenting snapshot scales to 0.85."
        case .parallaxPush: "Push by dragging left: incoming from +W, outgoing to −0.3·W, linear; cancel iff vx > 0."
        case .uikitPercent: "Generic UIKit percent-driven transition: D1 (θ = 0.5) + T1a, all parameters exposed."
        case .best: "PanTrace's recommendation: stopped-finger gate, D5 projection (d = 0.998, θ = 0.5), T4 critically damped spring, no velocity jump."
        }
    }

    /// Where the behaviour comes from.
    public var source: String {
        switch self {
        case .zoom: "DESIGN.md §4 row `zoom`; reference/transitions.md §1 (UIPercentDrivenInteractiveTransition defaults)"
        case .zoomCustom: "DESIGN.md §4 row `zoom` (variant `zoom-custom`)"
        case .drawer: "DESIGN.md §4 row `drawer`; reference/transitions.md §8.3 (display-link stepper)"
        case .circleReveal: "DESIGN.md §4 row `circle-reveal`"
        case .swipeDismiss: "DESIGN.md §4 row `swipe-dismiss`; reference/transitions.md §1.2"
        case .swipeBack: "DESIGN.md §4 row `swipe-dismiss` (variant `swipe-back`)"
        case .bouncePresent: "DESIGN.md §4 row `bounce-present` / `semi-modal`; reference/transitions.md §2.4–2.6"
        case .semiModal: "DESIGN.md §4 row `bounce-present` / `semi-modal`"
        case .parallaxPush: "DESIGN.md §4 row `parallax-push`"
        case .uikitPercent: "DESIGN.md §4 row `uikit-percent`; reference/transitions.md §8.2 D1, §8.3 T1a/T1b"
        case .best: "DESIGN.md §4 row `best`; reference/transitions.md §8.2 D5/D10, §8.3 T4/T10, §3.1"
        }
    }

    /// The velocity estimator the preset expects the replayer to use (DESIGN.md §3 names).
    public var velocityEstimator: String {
        self == .best ? "lsq2" : "recorded"
    }
}
