internal import PanTrace

/// Android's `ImpulseVelocityTrackerStrategy` (``VelocityStrategy/impulse``), in 32-bit
/// `Float` like the original.
///
/// Source: AOSP `libs/input/VelocityTracker.cpp` (blob `613a0df0`, Android 15),
/// `ImpulseVelocityTrackerStrategy::getVelocity` and `kineticEnergyToVelocity`, whose
/// comment derives the model: the screen is a unit mass; the finger's work on it is
/// `W = Σ v·dv`, so the release velocity is `v = sign(W)·√(2|W|)`. Per segment `i`
/// (oldest to newest) with `v_i = Δx_i / Δt_i`:
///
///     W += (v_i − v(W)) · |v_i|        where v(W) = sign(W)·√(2|W|)
///
/// and after the first segment `W` is halved, the "initial condition, case 2)": the
/// screen is assumed already moving at `v_1`, so it starts with energy `½·v_1²`.
enum ImpulseEstimator {
    /// `static constexpr float sqrt2 = 1.41421356237;` rounded to float.
    static let sqrt2: Float = 1.41421356237

    /// The velocity at the newest sample, or `nil` with no samples (`std::nullopt`).
    ///
    /// One sample gives zero, not `nil`: Android's loop does not run and
    /// `kineticEnergyToVelocity(0)` is 0.
    static func velocity(of samples: borrowing SampleRing) -> PanVector? {
        guard !samples.isEmpty else {
            return nil
        }
        var workX: Float = 0
        var workY: Float = 0
        for index in 0..<(samples.count - 1) {
            // `SECONDS_PER_NANO * (nextMvt.eventTime - mvt.eventTime)`: the int64 delta is
            // rounded to float, then multiplied in float.
            let deltaT =
                AndroidVelocityTracking.secondsPerNanosecond
                * Float(samples.time(index + 1) &- samples.time(index))
            workX = accumulate(
                workX, from: Float(samples.x(index)), to: Float(samples.x(index + 1)),
                over: deltaT, isFirst: index == 0)
            workY = accumulate(
                workY, from: Float(samples.y(index)), to: Float(samples.y(index + 1)),
                over: deltaT, isFirst: index == 0)
        }
        return PanVector(
            x: Double(kineticEnergyToVelocity(workX)),
            y: Double(kineticEnergyToVelocity(workY)))
    }

    /// One segment of Android's work sum.
    private static func accumulate(
        _ work: Float, from position: Float, to nextPosition: Float, over deltaT: Float,
        isFirst: Bool
    ) -> Float {
        let vprev = kineticEnergyToVelocity(work)
        let vcurr = (nextPosition - position) / deltaT
        var work = work + (vcurr - vprev) * abs(vcurr)
        if isFirst {
            // `work *= 0.5;` promotes to double and back; halving is exact either way.
            work *= 0.5
        }
        return work
    }

    /// `kineticEnergyToVelocity`: `(work < 0 ? -1.0 : 1.0) * sqrtf(fabsf(work)) * sqrt2`.
    ///
    /// Android evaluates the product in `double` and returns `float`; the product of two
    /// floats is exact in double, so one float multiplication rounds identically.
    static func kineticEnergyToVelocity(_ work: Float) -> Float {
        let sign: Float = work < 0 ? -1 : 1
        return sign * abs(work).squareRoot() * sqrt2
    }
}
