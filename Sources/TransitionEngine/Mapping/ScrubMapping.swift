/// How timeline progress `p` becomes what is drawn: `R(p)` in docs/MODEL.md §2.4.
///
/// Whether UIKit scrubs `UIView`-block animators linearly or through their own curve is
/// not documented (docs/MODEL.md §4.11 U3), so both are offered. The default is ``linear``, the documented
/// behaviour ("during the interactive portion of the animation the timing curve is linear",
/// `completionCurve` docs, and `scrubsLinearly = true` for property animators).
public enum ScrubMapping: String, Sendable, Hashable, Codable, CaseIterable {
    /// `R(p) = p`.
    case linear
    /// `R(p) = F(p)`, the transition's own timing curve (layer-time scrubbing, as in Hero and
    /// AWPercentDrivenInteractiveTransition).
    case curve

    /// `R(p)` for the transition curve `curve`. Outside [0, 1] (rubber band, spring overshoot)
    /// the excess is added linearly: `R(p) = F(clamp(p)) + (p − clamp(p))`.
    @inlinable
    public func rendered(_ progress: Double, curve: TimingCurve) -> Double {
        switch self {
        case .linear:
            return progress
        case .curve:
            let clamped = min(max(progress, 0), 1)
            return curve.value(at: clamped) + (progress - clamped)
        }
    }

    /// `R'(p)`, used to convert progress velocity into rendered velocity.
    @inlinable
    public func slope(at progress: Double, curve: TimingCurve) -> Double {
        switch self {
        case .linear:
            return 1
        case .curve:
            return progress < 0 || progress > 1 ? 1 : curve.slope(at: progress)
        }
    }
}
