/// Where a gesture's velocity comes from: the platform's own, as recorded, or one of the
/// estimators PanTrace reproduces (docs/MODEL.md §8). Its raw value is the one spelling at every
/// edge: a recording's `velocitySource`, `--set velocity=…` and `--grid velocity=…`, a setting
/// file, a live source's `velocity`, the wire's `load` and the viewer.
public enum VelocitySource: String, CaseIterable, Sendable, Hashable, Codable {
    /// The velocity stored with each sample (UIKit's `velocity(in:)` for iOS recordings), untouched.
    case recorded
    /// Recomputed from the samples with Android's least-squares tracker.
    case lsq2
    /// Recomputed with Android's impulse (kinetic energy) tracker.
    case impulse
    /// Recomputed with Flutter's `VelocityTracker`.
    case flutter

    /// The names as alternatives, for help and messages: `recorded|lsq2|impulse|flutter`.
    public static let choices = allCases.map(\.rawValue).joined(separator: "|")
}
