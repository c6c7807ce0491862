/// The `drawer` seed's completion: `p += rate` on every display frame until `p ≥ 0.98`,
/// then `finish()`, which on the drawer's present and dismiss jumps straight to the end
/// state; a cancel goes through the percent-driven path (docs/MODEL.md §4.4, §6.3).
///
/// The drawer article (《Swift版抽屉效果,自定义转场动画管理器》, grvlv) says why it steps at
/// all: with present and dismiss, `finish()` "一闪而过直接跳到结束状态" (flashes past, jumping
/// straight to the end state), so its display link calls `update` frame by frame up to 0.98
/// and only then `finish()`, whose jump covers the last step.
///
/// This model is frame-rate dependent on purpose, because the seed code is: at 120 Hz it
/// finishes twice as fast as at 60 Hz. Its trajectory is therefore built for a given display
/// frame rate; the metrics flag it.
public struct DisplayLinkStepper: Sendable, Hashable, Codable {
    /// The progress added per display frame.
    public var rate: Double
    /// The progress at or above which the stepper snaps to 1 (0.98 in the seed).
    public var snapThreshold: Double
    /// The percent-driven model used for cancels, and for the finish after the snap frame.
    public var cancel: PercentDrivenCompletion
    /// When false (the default, the drawer article), the stepper jumps to 1 on the snap frame,
    /// as `finish()` does on a present or dismiss; when true, the snap frame's `finish()`
    /// completes percent-driven from the last stepped value in `(1 − p)·D/s` (one more
    /// 8–15 ms at the drawer's defaults), as it would on a push or pop.
    public var finishesPercentDriven: Bool

    /// Creates the model.
    public init(rate: Double, snapThreshold: Double = 0.98, cancel: PercentDrivenCompletion, finishesPercentDriven: Bool = false) {
        precondition(rate > 0, "stepper rate must be positive")
        self.rate = rate
        self.snapThreshold = snapThreshold
        self.cancel = cancel
        self.finishesPercentDriven = finishesPercentDriven
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

    /// The completion time at `frameRate` Hz: the snap frame over the frame rate, plus the
    /// percent-driven finish from the last stepped value when ``finishesPercentDriven``.
    /// `shown` is the progress shown before the first frame (used when the first frame snaps).
    public func completionTime(from p0: Double, frameRate: Double, shown: Double? = nil) -> Double {
        let frames = snapFrame(from: p0)
        guard finishesPercentDriven else { return Double(frames) / frameRate }
        let last = frames > 1 ? p0 + Double(frames - 1) * rate : (shown ?? p0)
        return Double(frames) / frameRate + cancel.completionTime(from: last, to: 1)
    }
}
