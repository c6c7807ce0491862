internal import PanTrace

/// Flutter's `VelocityTracker` (``VelocityStrategy/flutter``): a degree-2 least-squares fit
/// in `Double` over the recent continuous stretch of samples.
///
/// Source: `packages/flutter/lib/src/gestures/velocity_tracker.dart` (blob `322dde6c`,
/// flutter commit `9d96df23`), `VelocityTracker.getVelocityEstimate` and `getVelocity`.
enum FlutterEstimator {
    /// `_assumePointerMoveStoppedMilliseconds`.
    static let assumePointerMoveStoppedMilliseconds: Int64 = 40

    /// `_horizonMilliseconds`.
    static let horizonMilliseconds: Double = 100

    /// `_minSampleSize`: fewer usable samples give a zero estimate.
    static let minimumSampleCount = 3

    /// `precisionErrorTolerance` (`foundation/constants.dart`), used by `lsq_solver.dart`.
    static let precisionErrorTolerance = 1e-10

    /// Flutter's `VelocityEstimate`.
    struct Estimate: Hashable, Sendable {
        /// `pixelsPerSecond`.
        var velocity: PanVector
        /// `xFit.confidence * yFit.confidence` (r² of each axis), or 1.0 when Flutter
        /// could not fit; no Flutter code path gates the velocity on it.
        var confidence: Double
        /// Time from the oldest to the newest sample used, in microseconds.
        var durationMicroseconds: Int64
        /// Newest minus oldest position used.
        var offsetX: Double
        var offsetY: Double

        static let stopped = Estimate(
            velocity: .zero, confidence: 1, durationMicroseconds: 0, offsetX: 0, offsetY: 0)
    }

    /// Flutter's `Duration` has microsecond resolution; its engine timestamps are whole
    /// microseconds, so nanosecond inputs are floored to microseconds before any arithmetic.
    static func microseconds(_ nanoseconds: Int64) -> Int64 {
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// Whether Flutter's sampling stopwatch would report the pointer as stopped.
    ///
    /// `_sinceLastSample.elapsedMilliseconds > _assumePointerMoveStoppedMilliseconds`:
    /// `elapsedMilliseconds` is whole milliseconds (truncated), so 40.9 ms is not stopped.
    static func isStopped(lastSample: Int64, now: Int64) -> Bool {
        let elapsed = now &- lastSample
        return elapsed / 1_000_000 > assumePointerMoveStoppedMilliseconds
    }

    /// `getVelocityEstimate()` without the stopwatch check: `nil` with no samples.
    ///
    /// Walks back from the newest sample and stops at the first sample older than 100 ms
    /// (`age > _horizonMilliseconds`) or more than 40 ms from its newer neighbour
    /// (`delta > _assumePointerMoveStoppedMilliseconds`), both in milliseconds computed as
    /// `inMicroseconds / 1000` in `double`. Duplicate timestamps are kept (delta 0).
    static func estimate(of samples: borrowing SampleRing) -> Estimate? {
        guard !samples.isEmpty else {
            return nil
        }
        let newestIndex = samples.count - 1
        let newestTime = microseconds(samples.time(newestIndex))
        var previousTime = newestTime
        var oldestIndex = newestIndex

        var time = InlineArray<20, Double>(repeating: 0)
        var xs = InlineArray<20, Double>(repeating: 0)
        var ys = InlineArray<20, Double>(repeating: 0)
        var sampleCount = 0

        var index = newestIndex
        while index >= 0 {
            let sampleTime = microseconds(samples.time(index))
            let age = Double(newestTime &- sampleTime) / 1000
            let delta = Double((sampleTime &- previousTime).magnitude) / 1000
            previousTime = sampleTime
            if age > horizonMilliseconds
                || delta > Double(assumePointerMoveStoppedMilliseconds)
            {
                break
            }
            oldestIndex = index
            xs[sampleCount] = samples.x(index)
            ys[sampleCount] = samples.y(index)
            time[sampleCount] = -age
            sampleCount += 1
            index -= 1
        }

        let durationMicroseconds = newestTime &- microseconds(samples.time(oldestIndex))
        let offsetX = samples.x(newestIndex) - samples.x(oldestIndex)
        let offsetY = samples.y(newestIndex) - samples.y(oldestIndex)

        if sampleCount >= minimumSampleCount,
            let fitX = LeastSquaresSolver<Double>.fit(
                x: time, y: xs, count: sampleCount, degree: 2,
                normTolerance: precisionErrorTolerance),
            let fitY = LeastSquaresSolver<Double>.fit(
                x: time, y: ys, count: sampleCount, degree: 2,
                normTolerance: precisionErrorTolerance)
        {
            let confidenceX = LeastSquaresSolver<Double>.confidence(
                x: time, y: xs, count: sampleCount, coefficients: fitX, degree: 2,
                tolerance: precisionErrorTolerance)
            let confidenceY = LeastSquaresSolver<Double>.confidence(
                x: time, y: ys, count: sampleCount, coefficients: fitY, degree: 2,
                tolerance: precisionErrorTolerance)
            // Time is in milliseconds: "convert from pixels/ms to pixels/s".
            return Estimate(
                velocity: PanVector(x: fitX[1] * 1000, y: fitY[1] * 1000),
                confidence: confidenceX * confidenceY,
                durationMicroseconds: durationMicroseconds,
                offsetX: offsetX,
                offsetY: offsetY)
        }

        // "We're unable to make a velocity estimate but we did have at least one valid
        // pointer position."
        return Estimate(
            velocity: .zero, confidence: 1, durationMicroseconds: durationMicroseconds,
            offsetX: offsetX, offsetY: offsetY)
    }

    /// `getVelocity()`: the estimate's velocity, or exactly ``PanVector/zero`` when there is
    /// no estimate or it equals `Offset.zero`.
    ///
    /// `Offset ==` treats −0 as 0, so a (−0, 0) estimate becomes (+0, +0) here too.
    static func velocity(of estimate: Estimate?) -> PanVector {
        guard let estimate, estimate.velocity.x != 0 || estimate.velocity.y != 0 else {
            return .zero
        }
        return estimate.velocity
    }
}
