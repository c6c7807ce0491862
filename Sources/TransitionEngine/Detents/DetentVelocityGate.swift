/// What a library does to the estimator's velocity before its rule reads it
/// (docs/MODEL.md §9.1).
public enum DetentVelocityGate: String, Sendable, Hashable, Codable, CaseIterable {
    /// Read as estimated.
    case none
    /// vaul: not an estimate at all but the mean over the whole press, |distance| ÷ (lift −
    /// first sample), signed by the drag (`src/index.tsx` `onRelease`).
    case pressMean = "press-mean"
    /// androidx `ViewDragHelper.releaseViewForPointerUp` → `clampMag(v, minVelocity,
    /// maxVelocity)`: a magnitude under the minimum fling velocity (50 dp/s) is 0, one over the
    /// maximum (8000 dp/s) is capped.
    case androidClamp = "android-clamp"
    /// Flutter's `DragGestureRecognizer`: the velocity is 0 unless the release is a fling
    /// (|v| > `kMinFlingVelocity`, 50 logical px/s), and capped at `kMaxFlingVelocity` (8000).
    case flutterFling = "flutter-fling"

    /// Android's and Flutter's minimum fling velocity, dp/s (= points per second).
    public static let minimumFling = 50.0
    /// Android's and Flutter's maximum fling velocity, dp/s.
    public static let maximumFling = 8000.0

    /// The velocity the rule reads, points per second, positive downward.
    ///
    /// - Parameters:
    ///   - estimated: the estimator's release velocity.
    ///   - distance: how far the sheet moved from the first sample to the lift, points.
    ///   - pressDuration: seconds from the first sample to the lift.
    public func velocity(estimated: Double, distance: Double, pressDuration: Double) -> Double {
        switch self {
        case .none:
            return estimated
        case .pressMean:
            // vaul divides by the press time in ms; a zero-length press would divide by zero,
            // which JavaScript makes Infinity: kept, so the end-jump branch takes it.
            guard pressDuration > 0 else { return distance == 0 ? 0 : (distance > 0 ? .infinity : -.infinity) }
            return distance / pressDuration
        case .androidClamp:
            // ViewDragHelper.clampMag: `absValue < absMin → 0`, `absValue > absMax → ±absMax`.
            let magnitude = abs(estimated)
            if magnitude < Self.minimumFling { return 0 }
            if magnitude > Self.maximumFling { return estimated > 0 ? Self.maximumFling : -Self.maximumFling }
            return estimated
        case .flutterFling:
            let magnitude = abs(estimated)
            if !(magnitude > Self.minimumFling) { return 0 }
            return min(max(estimated, -Self.maximumFling), Self.maximumFling)
        }
    }
}
