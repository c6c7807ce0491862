internal import PanTrace

/// Android's `LeastSquaresVelocityTrackerStrategy` with degree 2 and no weighting
/// (``VelocityStrategy/lsq2``), in 32-bit `Float` like the original.
///
/// Source: AOSP `libs/input/VelocityTracker.cpp` (blob `613a0df0`, Android 15),
/// `LeastSquaresVelocityTrackerStrategy::getVelocity` and
/// `solveUnweightedLeastSquaresDeg2`.
///
/// Android stores positions as `float` (`PointerCoords`) and computes every sum in `float`;
/// this port converts each position to `Float` and performs the same operations in the same
/// order, so its results are bit-identical to a build of that file without floating-point
/// contraction (no fused multiply-add, which Swift never introduces on its own).
enum LeastSquaresEstimator {
    /// The velocity at the newest sample, or `nil` where Android returns `std::nullopt`.
    ///
    /// Android picks `degree = min(2, size - 1)`: no velocity from one sample, the general
    /// Gram–Schmidt solver for a line through two samples, and the closed-form quadratic
    /// for three or more.
    static func velocity(of samples: borrowing SampleRing) -> PanVector? {
        switch samples.count {
        case 0, 1:
            return nil
        case 2:
            return linearVelocity(of: samples)
        default:
            return quadraticVelocity(of: samples)
        }
    }

    /// `solveUnweightedLeastSquaresDeg2`: fits `position = a·t² + b·t + c` over
    /// `t = −age` in seconds and returns `b`, the slope at the newest sample.
    ///
    /// The centred sums (`Sxx = Σx² − (Σx)²/n`, …) and the Cramer's-rule quotient
    /// `(Sxy·Sx2x2 − Sx2y·Sxx2) / (Sxx·Sx2x2 − Sxx2²)` are Android's, evaluated in the same
    /// order; a zero denominator gives no velocity, as in Android. The age-only sums are
    /// shared by both axes, which Android computes twice with identical results.
    private static func quadraticVelocity(of samples: borrowing SampleRing) -> PanVector? {
        let count = samples.count
        let newest = samples.newestTime
        var sxi: Float = 0
        var sxi2: Float = 0
        var sxi3: Float = 0
        var sxi4: Float = 0
        var sumX = AxisSums()
        var sumY = AxisSums()

        for index in 0..<count {
            let age = newest &- samples.time(index)
            // `float xi = -age * SECONDS_PER_NANO;`: the int64 is rounded to float first.
            let xi = Float(0 &- age) * AndroidVelocityTracking.secondsPerNanosecond
            let xi2 = xi * xi
            let xi3 = xi2 * xi
            let xi4 = xi3 * xi
            sxi += xi
            sxi2 += xi2
            sumX.add(position: Float(samples.x(index)), xi: xi, xi2: xi2)
            sumY.add(position: Float(samples.y(index)), xi: xi, xi2: xi2)
            sxi3 += xi3
            sxi4 += xi4
        }

        // `sxi*sxi / count`: `count` (size_t) converts to float for the division.
        let n = Float(count)
        let sxx = sxi2 - sxi * sxi / n
        let sxx2 = sxi3 - sxi * sxi2 / n
        let sx2x2 = sxi4 - sxi2 * sxi2 / n
        let denominator = sxx * sx2x2 - sxx2 * sxx2
        if denominator == 0 {
            return nil
        }

        func slope(_ sums: AxisSums) -> Float {
            let sxy = sums.sxiyi - sxi * sums.syi / n
            let sx2y = sums.sxi2yi - sxi2 * sums.syi / n
            return (sxy * sx2x2 - sx2y * sxx2) / denominator
        }
        return PanVector(x: Double(slope(sumX)), y: Double(slope(sumY)))
    }

    /// The degree-1 case (exactly two samples): Android's general `solveLeastSquares` with
    /// `n = 2`, fed newest first, returning the slope `outB[1]`.
    private static func linearVelocity(of samples: borrowing SampleRing) -> PanVector? {
        let count = samples.count
        let newest = samples.newestTime
        var time = InlineArray<20, Float>(repeating: 0)
        var xs = InlineArray<20, Float>(repeating: 0)
        var ys = InlineArray<20, Float>(repeating: 0)
        // "Iterate over movement samples in reverse time order": index 0 is the newest.
        for k in 0..<count {
            let index = count - 1 - k
            let age = newest &- samples.time(index)
            // `time.push_back(-age * 0.000000001f)`; same float as SECONDS_PER_NANO.
            time[k] = Float(0 &- age) * AndroidVelocityTracking.secondsPerNanosecond
            xs[k] = Float(samples.x(index))
            ys[k] = Float(samples.y(index))
        }
        // `if (norm < 0.000001f)`: vectors are linearly dependent, no solution.
        let tolerance: Float = 0.000001
        guard
            let fitX = LeastSquaresSolver<Float>.fit(
                x: time, y: xs, count: count, degree: 1, normTolerance: tolerance),
            let fitY = LeastSquaresSolver<Float>.fit(
                x: time, y: ys, count: count, degree: 1, normTolerance: tolerance)
        else {
            return nil
        }
        return PanVector(x: Double(fitX[1]), y: Double(fitY[1]))
    }

    /// The position-dependent sums of one axis (`syi`, `sxiyi`, `sxi2yi`).
    private struct AxisSums {
        var syi: Float = 0
        var sxiyi: Float = 0
        var sxi2yi: Float = 0

        mutating func add(position yi: Float, xi: Float, xi2: Float) {
            sxiyi += xi * yi
            sxi2yi += xi2 * yi
            syi += yi
        }
    }
}
