package import PanCapture

/// Where the velocity of each replayed sample comes from (docs/MODEL.md §8).
///
/// The raw values are what `--set velocity=…` and `--grid velocity=…` accept.
package enum VelocitySource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The velocity stored in the trace (UIKit's `velocity(in:)` for iOS recordings), untouched.
    case recorded
    /// Recomputed from the samples with Android's least-squares tracker.
    case lsq2
    /// Recomputed with Android's impulse (kinetic energy) tracker.
    case impulse
    /// Recomputed with Flutter's `VelocityTracker`.
    case flutter

    /// The parameter key under which the replayer accepts a velocity source.
    package static let parameterKey = "velocity"

    /// The estimator that recomputes velocity, or nil for ``recorded``.
    package var strategy: VelocityStrategy? {
        switch self {
        case .recorded: nil
        case .lsq2: .lsq2
        case .impulse: .impulse
        case .flutter: .flutter
        }
    }
}
