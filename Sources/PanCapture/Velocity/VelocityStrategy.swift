public import PanTrace

/// How a ``VelocityTracker`` turns recent pointer positions into a release velocity.
///
/// Each strategy reproduces one platform's estimator, quirks included, and is checked
/// against that platform's own unit tests (AOSP `frameworks/native/libs/input/tests/VelocityTracker_test.cpp`, Flutter `packages/flutter/test/gestures/velocity_tracker_test.dart`). The raw values are
/// the names the CLI accepts (`pantrace velocity --strategy lsq2|impulse|flutter`).
///
/// Sources read:
/// - Android: AOSP `platform/frameworks/native` `libs/input/VelocityTracker.cpp`
///   (blob `613a0df0`) and `include/input/VelocityTracker.h` (blob `ee744554`), as of
///   LineageOS `lineage-22.0` (Android 15) tip `27bc1ca1`.
/// - Flutter: `packages/flutter/lib/src/gestures/velocity_tracker.dart` (blob `322dde6c`)
///   and `lsq_solver.dart` (blob `9e7d438a`) at flutter commit `9d96df23`.
public enum VelocityStrategy: String, CaseIterable, Hashable, Sendable {
    /// Android's `LeastSquaresVelocityTrackerStrategy` of degree 2, unweighted: the default
    /// for the X and Y axes.
    ///
    /// Keeps at most 20 samples, drops samples more than 100 ms older than the newest when a
    /// sample is added, replaces a sample whose timestamp equals the previous one, and
    /// forgets the history when a sample arrives more than 40 ms after the previous one.
    /// The velocity is the slope at the newest sample of the least-squares parabola through
    /// position versus age, computed in `float` (32-bit) as Android does. One sample gives no
    /// velocity; two give the slope of a line. No velocity when the lift comes more than
    /// 40 ms after the last move, or on cancel.
    case lsq2

    /// Android's `ImpulseVelocityTrackerStrategy`: the velocity of a unit mass pushed by the
    /// finger, from the kinetic energy the finger's movements delivered.
    ///
    /// Same history rules as ``lsq2`` (20 samples, 100 ms horizon, duplicate timestamps
    /// replaced, history forgotten after a 40 ms pause). With one sample the velocity is
    /// zero rather than absent, as in Android.
    case impulse

    /// Flutter's `VelocityTracker` (touch): an unweighted least-squares parabola solved in
    /// 64-bit floating point.
    ///
    /// Keeps the last 20 samples, duplicates included. At query time it walks back from the
    /// newest sample and stops at a sample more than 100 ms older than the newest or more
    /// than 40 ms apart from its successor. Fewer than 3 usable samples, or a fit with
    /// linearly dependent columns, give zero velocity; so does a lift more than 40 ms after
    /// the last move. The fit's confidence (r² of x times r² of y) is computed but, as in
    /// Flutter's `getVelocity`, never gates the velocity.
    case flutter

    /// The strategy Android uses for the X and Y axes when none is requested
    /// (`VelocityTracker::Strategy::DEFAULT`).
    public static let androidDefault: VelocityStrategy = .lsq2
}

extension VelocitySource {
    /// The estimator that recomputes velocity, or nil for ``VelocitySource/recorded``.
    public var strategy: VelocityStrategy? {
        switch self {
        case .recorded: nil
        case .lsq2: .lsq2
        case .impulse: .impulse
        case .flutter: .flutter
        }
    }
}

extension VelocityStrategy {
    /// The velocity source this estimator is.
    public var source: VelocitySource {
        switch self {
        case .lsq2: .lsq2
        case .impulse: .impulse
        case .flutter: .flutter
        }
    }
}
