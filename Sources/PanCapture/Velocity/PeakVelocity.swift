public import PanTrace

/// A gesture's peak speed that a start-of-gesture artefact cannot set.
///
/// The speed Android's `lsq2` tracker reports at each sample, recomputed from the samples'
/// translations (AOSP `LeastSquaresVelocityTrackerStrategy`: degree 2, the last 100 ms), from
/// the third sample of the gesture on; the largest of those, in points per second. The
/// velocities recorded in the file are not used: a recorder's first velocity is often an
/// estimate from one or two touches, tens of thousands of pt/s, sometimes the wrong way.
public enum PeakVelocity {
    /// The first sample whose estimate counts (0-based): two samples before it give the fit
    /// something to stand on.
    public static let firstCountedSample = 2

    /// The peak speed of `samples`, pt/s; 0 for fewer than three samples.
    public static func of(_ samples: [PanSample]) -> Double {
        var feeder = VelocityFeeder(strategy: .lsq2)
        var peak = 0.0
        for (index, sample) in samples.enumerated() {
            let nanoseconds = Int64((sample.time * 1e9).rounded())
            let phase: VelocitySample.Phase = index == 0 ? .down : .move
            _ = feeder.feed(VelocitySample(nanoseconds: nanoseconds, x: sample.translation.x, y: sample.translation.y, phase: phase))
            guard index >= firstCountedSample, !sample.phase.isTerminal,
                let velocity = feeder.tracker.velocity(atNanoseconds: nanoseconds)
            else { continue }
            peak = max(peak, velocity.magnitude)
        }
        return peak
    }
}
