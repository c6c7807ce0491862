/// A completion that always takes the same time along a curve, whatever `p0` was:
/// `p(t) = p0 + Δ·C(t/T)`.
///
/// This is the `zoom-custom` source (docs/MODEL.md §4.5, §6.2): "on release it animates to scale 0
/// (finish) or back to 1 (cancel) in a fixed 0.4 s whatever p was".
public struct FixedDurationCompletion: Sendable, Hashable, Codable {
    /// The fixed time `T`, s.
    public var duration: Double
    /// The curve `C`; `UIView.animate`'s default is easeInOut.
    public var curve: TimingCurve

    /// Creates the model.
    public init(duration: Double, curve: TimingCurve = .easeInOut) {
        precondition(duration > 0, "duration must be positive")
        self.duration = duration
        self.curve = curve
    }
}
