/// Everything about a release that a decision needs, computed once per trace.
///
/// It depends on the progress mapping (so on the preset and screen) but not on any decision
/// parameter, so a tuner can evaluate many policies against one `ReleaseState` with the
/// non-allocating ``DecisionPolicy/decide(_:)``. Inputs are docs/MODEL.md §1.5.
public struct ReleaseState: Sendable, Hashable, Codable {
    /// The progress the decision reads, `p0` (after clamping or rubber-banding): the release
    /// callback's own, or the last `changed` value, as the preset's ``CallbackReading`` says.
    public var progress: Double
    /// The progress the transition shows at release, where the completion starts (UIKit's
    /// `percentComplete`: the last value given to `update(_:)`). Equal to ``progress`` unless
    /// the decision reads the release callback while only `changed` moves the transition.
    public var startProgress: Double
    /// Whether a `changed` callback came before the release (the swipe articles' decision
    /// flag is set only there).
    public var hasChanged: Bool
    /// The gesture velocity vector in pt/s, as recorded or estimated.
    public var velocity: Vector2
    /// Velocity along the transition axis, pt/s, positive toward finish (`v`).
    public var axisVelocity: Double
    /// Velocity across the transition axis, pt/s (unsigned direction: as recorded).
    public var crossVelocity: Double
    /// `L`, the points per unit of progress.
    public var distance: Double
    /// The gain `g` of the mapping (so that `v_p = g·v/L`).
    public var gain: Double
    /// The phase of the release sample (`ended` or `cancelled`).
    public var phase: GesturePhase
    /// The time of the release sample, s.
    public var time: Double
    /// The time of the last sample that moved the finger, s (for the stopped-finger gate).
    public var lastMoveTime: Double

    /// Creates a release state directly.
    public init(
        progress: Double,
        velocity: Vector2,
        axisVelocity: Double,
        crossVelocity: Double,
        distance: Double,
        gain: Double = 1,
        phase: GesturePhase,
        time: Double,
        lastMoveTime: Double,
        startProgress: Double? = nil,
        hasChanged: Bool = true
    ) {
        precondition(distance > 0, "distance must be positive")
        self.progress = progress
        self.startProgress = startProgress ?? progress
        self.hasChanged = hasChanged
        self.velocity = velocity
        self.axisVelocity = axisVelocity
        self.crossVelocity = crossVelocity
        self.distance = distance
        self.gain = gain
        self.phase = phase
        self.time = time
        self.lastMoveTime = lastMoveTime
    }

    /// Computes the release state of `sample` through `mapping`, reading the callbacks as
    /// `reading` says (docs/MODEL.md §1.4, §1.5).
    ///
    /// - Parameters:
    ///   - sample: the `ended` or `cancelled` sample (its velocity is used, and its
    ///     translation when the reading asks for the release callback's progress).
    ///   - shownProgress: the progress the last `changed` left (nil when there was none: the
    ///     mapping's start progress).
    ///   - hasChanged: whether any `changed` callback came before the release.
    ///   - lastMoveTime: when the finger last moved; defaults to the sample's own time.
    ///   - mapping: the preset's progress mapping.
    ///   - reading: the preset's reading of the callbacks.
    public init(
        sample: GestureInput, shownProgress: Double?, hasChanged: Bool, lastMoveTime: Double? = nil,
        mapping: ProgressMapping, reading: CallbackReading
    ) {
        let lift = mapping.progress(for: sample.translation)
        let start: Double
        let decided: Double
        if reading.progressSource == .lift {
            start = lift
            decided = lift
        } else {
            start = shownProgress ?? mapping.startProgress
            decided = reading.decidesOnReleaseCallback ? lift : start
        }
        self.init(
            progress: decided,
            velocity: sample.velocity,
            axisVelocity: mapping.axisVelocity(for: sample.velocity),
            crossVelocity: mapping.crossComponent(of: sample.velocity),
            distance: mapping.distance,
            gain: mapping.gain,
            phase: sample.phase,
            time: sample.time,
            lastMoveTime: lastMoveTime ?? sample.time,
            startProgress: start,
            hasChanged: hasChanged
        )
    }

    /// Computes the release state of `sample` through `mapping` from the lift's own
    /// translation (``ReleaseProgress/lift``).
    ///
    /// - Parameters:
    ///   - sample: the `ended` or `cancelled` sample (its translation and velocity are used).
    ///   - lastMoveTime: when the finger last moved; defaults to the sample's own time.
    ///   - mapping: the preset's progress mapping.
    public init(sample: GestureInput, lastMoveTime: Double? = nil, mapping: ProgressMapping) {
        self.init(
            sample: sample, shownProgress: nil, hasChanged: true, lastMoveTime: lastMoveTime, mapping: mapping,
            reading: CallbackReading(progressSource: .lift))
    }

    /// `v_p = g · v / L`, progress per second.
    @inlinable
    public var progressVelocity: Double { gain * axisVelocity / distance }

    /// A copy with the velocity (vector and components) scaled by `factor`, for the
    /// flip-prone metric (±10 % velocity noise).
    public func withVelocity(scaledBy factor: Double) -> ReleaseState {
        var copy = self
        copy.velocity = velocity.scaled(by: factor)
        copy.axisVelocity = axisVelocity * factor
        copy.crossVelocity = crossVelocity * factor
        return copy
    }
}
