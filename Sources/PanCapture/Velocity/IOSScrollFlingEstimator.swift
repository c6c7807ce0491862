internal import PanTrace

/// Flutter's `IOSScrollViewFlingVelocityTracker`: its approximation of the velocity an iOS
/// scroll view reports when the finger lifts.
///
/// Source: `packages/flutter/lib/src/gestures/velocity_tracker.dart` (blob `322dde6c`,
/// flutter commit `9d96df23`), `_previousVelocityAt` and `getVelocityEstimate`. Not a
/// ``VelocityStrategy`` (it models a scroll view's fling, not a pan's velocity); kept so the
/// Flutter vectors that exercise it can be checked, and for comparison.
///
/// The estimate is a weighted average of the last three inter-sample velocities:
/// `0.6·v(−2) + 0.35·v(−1) + 0.05·v(0)`, where `v(k)` is the velocity between the samples
/// at positions `k − 1` and `k` counted from the newest (0), and a missing sample or a zero
/// time step contributes zero. Samples are kept 20 deep like the base tracker.
enum IOSScrollFlingEstimator {
    /// The estimate's velocity, `Velocity.zero` when it equals `Offset.zero` (inherited
    /// `getVelocity`).
    ///
    /// Flutter asserts on an empty tracker; here an empty ring gives zero.
    static func velocity(of samples: borrowing SampleRing) -> PanVector {
        guard !samples.isEmpty else {
            return .zero
        }
        let a = previousVelocity(at: -2, in: samples)
        let b = previousVelocity(at: -1, in: samples)
        let c = previousVelocity(at: 0, in: samples)
        // Evaluated left to right, per component, as Dart's `Offset` operators do.
        let x = a.x * 0.6 + b.x * 0.35 + c.x * 0.05
        let y = a.y * 0.6 + b.y * 0.35 + c.y * 0.05
        if x == 0, y == 0 {
            return .zero
        }
        return PanVector(x: x, y: y)
    }

    /// `_previousVelocityAt(index)`: `(end − start) * 1000 / (dt.toDouble() / 1000)` with
    /// `dt` in whole microseconds, so the result is per second.
    private static func previousVelocity(at offset: Int, in samples: borrowing SampleRing)
        -> PanVector
    {
        let end = samples.count - 1 + offset
        let start = end - 1
        guard start >= 0 else {
            return .zero
        }
        let dt =
            FlutterEstimator.microseconds(samples.time(end))
            &- FlutterEstimator.microseconds(samples.time(start))
        guard dt > 0 else {
            return .zero
        }
        let milliseconds = Double(dt) / 1000
        return PanVector(
            x: (samples.x(end) - samples.x(start)) * 1000 / milliseconds,
            y: (samples.y(end) - samples.y(start)) * 1000 / milliseconds)
    }
}
