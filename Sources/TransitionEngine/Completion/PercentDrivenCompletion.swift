/// UIKit `UIPercentDrivenInteractiveTransition` completion: models T1a and T1b
/// (docs/MODEL.md §4.1–4.3).
///
/// Both take `T = |Δ|·D/s`. T1a resumes the transition's own timeline linearly in `p`
/// (so the rendered motion continues through `R`); T1b starts a fresh `completionCurve`
/// segment `p(t) = p0 + Δ·C(t/T)`. Which one UIKit does for classic (non-interruptible)
/// transitions is not documented (docs/MODEL.md §4.11 U2), nor is the cancel duration (U1).
public struct PercentDrivenCompletion: Sendable, Hashable, Codable {
    /// How the remaining segment is shaped.
    public enum Shape: Sendable, Hashable, Codable {
        /// T1a: the original timeline continues (layer-time reimplementations such as
        /// AWPercentDrivenInteractiveTransition). The default.
        case resumeTimeline
        /// T1b: a fresh segment along `completionCurve`.
        case completionCurve(TimingCurve)
    }

    /// How long a cancel takes (not documented for UIKit: docs/MODEL.md §4.11 U1).
    public enum CancelDuration: String, Sendable, Hashable, Codable, CaseIterable {
        /// `p0·D/s`: the distance back, at the same speed (the symmetric reading and what
        /// layer-time reimplementations do). The default.
        case distance
        /// `(1 − p0)·D/s`: the same expression as a finish (as Hero's `D − t_p` does).
        case complement
    }

    /// The transition duration `D`, s.
    public var duration: Double
    /// `completionSpeed`.
    public var speed: CompletionSpeed
    /// T1a or T1b.
    public var shape: Shape
    /// The cancel-duration reading.
    public var cancelDuration: CancelDuration

    /// Creates the model; UIKit's defaults are speed 1 and T1a.
    public init(
        duration: Double,
        speed: CompletionSpeed = .constant(1),
        shape: Shape = .resumeTimeline,
        cancelDuration: CancelDuration = .distance
    ) {
        precondition(duration > 0, "duration must be positive")
        self.duration = duration
        self.speed = speed
        self.shape = shape
        self.cancelDuration = cancelDuration
    }

    /// The completion time from `p0` toward `target`: `|Δ|·D/s` (or `(1 − p0)·D/s` for a
    /// cancel with ``CancelDuration/complement``).
    public func completionTime(from p0: Double, to target: Double) -> Double {
        let s = speed.value(atProgress: p0)
        let distance: Double
        if target == 0 && cancelDuration == .complement {
            distance = abs(1 - p0)
        } else {
            distance = abs(target - p0)
        }
        if case .oneMinusProgress = speed, target == 1, p0 < 1 - CompletionSpeed.minimum {
            // (1 − p0)·D/(1 − p0) = D exactly: the seed rule's documented consequence.
            return duration
        }
        return distance * duration / s
    }
}
