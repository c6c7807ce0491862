/// The transition presets of docs/MODEL.md §6.
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
        case .zoomCustom:
            "Zoom pop variant: outgoing view scales by |p − 1|; finish iff p ≥ 0.5; on release animates in a fixed 0.4 s whatever p was."
        case .drawer:
            "Drawer: the screen slides right to W − 50 over the drawer; finish iff p > 0.4 by stepping p += 1/60 per display frame until p ≥ 0.98, then finish() jumps to the end; cancel percent-driven."
        case .circleReveal:
            "Push revealed through an oval mask from the button centre to the button frame outset by its distance to the bottom-left corner over 1.0 s, easeInEaseOut."
        case .swipeDismiss: "Modal dismiss by dragging down: p = ty/(H/2); finish iff p > 0.5; completionSpeed = 1 − p; D = 1.5 s."
        case .swipeBack: "Push variant of swipe-dismiss: p = tx/(W/2); the top view moves to x + W."
        case .bouncePresent: "Present from y + H to the final frame on a UIView spring of 0.8 s total with damping 0.6."
        case .semiModal: "Spring presentation to the frame (0, H/3, W, H) with corner radius 15 while the presenting snapshot scales to 0.85."
        case .parallaxPush: "Push by dragging left: incoming from +W, outgoing to −0.3·W, linear, 0.3 s; cancel iff vx > 0 (ended or cancelled)."
        case .uikitPercent: "Generic UIKit percent-driven transition: D1 (θ = 0.5) + T1a, all parameters exposed."
        case .best:
            "PanTrace's recommendation: stopped-finger gate, D5 projection (d = 0.998, θ = 0.5), T4 critically damped spring, no velocity jump."
        }
    }

    /// Where the behaviour comes from.
    public var source: String {
        switch self {
        case .zoom: "docs/MODEL.md §6.1; 《iOS 自定義頁面的切換動畫與交互動畫 By Swift》, zhangao0086/iOS_AnimatedTransition"
        case .zoomCustom: "docs/MODEL.md §6.2; 《iOS 自定義頁面的切換動畫與交互動畫 By Swift》, zhangao0086/iOS_AnimatedTransition"
        case .drawer: "docs/MODEL.md §6.3; 《Swift版抽屉效果,自定义转场动画管理器》, grvlv/LVAnimator"
        case .circleReveal: "docs/MODEL.md §6.4; 《iOS转场动画(Push)》, RookieAngry/Demo_PushTransition"
        case .swipeDismiss: "docs/MODEL.md §6.5; 《iOS-转场动画》"
        case .swipeBack: "docs/MODEL.md §6.6; 《iOS-转场动画》"
        case .bouncePresent: "docs/MODEL.md §6.7, §4.7; 《iOS-转场动画》"
        case .semiModal: "docs/MODEL.md §6.8; 《iOS-转场动画》"
        case .parallaxPush: "docs/MODEL.md §6.9; LHNavigationController (by Leo)"
        case .uikitPercent: "docs/MODEL.md §6.10 (D1 §3.2, T1a/T1b §4.2–4.3); Apple, UIPercentDrivenInteractiveTransition"
        case .best: "docs/MODEL.md §6.11 (gate §3.8, D5 §3.6, T4 §4.8, T10 §4.10)"
        }
    }

    /// The velocity estimator the preset expects the replayer to use (docs/MODEL.md §8 names).
    public var velocityEstimator: String {
        self == .best ? "lsq2" : "recorded"
    }
}
