/// The `drawer` seed's completion: `p += rate` on every display frame until `p ≥ 0.98`,
/// then snap to done; a cancel goes through the percent-driven path (docs/MODEL.md §4.4, §6.3).
///
/// This model is frame-rate dependent on purpose, because the seed code is: at 120 Hz it
/// finishes twice as fast as at 60 Hz. Its trajectory is therefore built for a given display
/// frame rate; the metrics flag it.
public struct DisplayLinkStepper: Sendable, Hashable, Codable {
    /// The progress added per display frame.
    public var rate: Double
    /// The progress at or above which the stepper snaps to 1 (0.98 in the seed).
    public var snapThreshold: Double
    /// The percent-driven model used for cancels.
    public var cancel: PercentDrivenCompletion

    /// Creates the model.
    public init(rate: Double, snapThreshold: Double = 0.98, cancel: PercentDrivenCompletion) {
        precondition(rate > 0, "stepper rate must be positive")
        self.rate = rate
        self.snapThreshold = snapThreshold
        self.cancel = cancel
    }

    /// The display frame (1-based) on which the stepper snaps, reproducing the seed's
    /// floating-point accumulation `p += rate`.
    public func snapFrame(from p0: Double) -> Int {
        var p = p0
        var frames = 0
        repeat {
            p += rate
            frames += 1
        } while p < snapThreshold && frames < 1_000_000
        return frames
    }

    /// The completion time at `frameRate` Hz: the snap frame over the frame rate.
    public func completionTime(from p0: Double, frameRate: Double) -> Double {
        Double(snapFrame(from: p0)) / frameRate
    }
}
