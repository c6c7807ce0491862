/// The velocity gates applied before any decision rule (docs/MODEL.md §3.8).
///
/// In order: a stopped-finger gate (velocity 0 when the last move is more than
/// ``stopTime`` before the release, Android's `ASSUME_POINTER_STOPPED_TIME` = 40 ms), a floor
/// (components below ``floor`` become 0, Android's minimum fling velocity 50 pt/s), and a
/// clamp (components beyond ``maximum`` are capped, 8000 pt/s). Floor and clamp act per
/// component, as `ViewDragHelper.clampMag` does per axis. A nil value disables a gate.
public struct VelocityGates: Sendable, Hashable, Codable {
    /// The stopped-finger time, s.
    public var stopTime: Double?
    /// The floor, pt/s.
    public var floor: Double?
    /// The clamp, pt/s.
    public var maximum: Double?

    /// Creates gates; all are off by default (UIKit parity).
    public init(stopTime: Double? = nil, floor: Double? = nil, maximum: Double? = nil) {
        self.stopTime = stopTime
        self.floor = floor
        self.maximum = maximum
    }

    /// No gates: the recorded velocity is used untouched.
    public static let none = VelocityGates()

    /// Android's values: stop 0.040 s, floor 50 pt/s, clamp 8000 pt/s.
    public static let android = VelocityGates(stopTime: 0.040, floor: 50, maximum: 8000)

    /// The release with its velocity gated; `isGated` says whether anything changed.
    public func apply(to release: ReleaseState) -> (release: ReleaseState, isGated: Bool) {
        var gated = release
        if let stopTime, release.time - release.lastMoveTime > stopTime {
            gated.velocity = .zero
            gated.axisVelocity = 0
            gated.crossVelocity = 0
        } else {
            gated.velocity = Vector2(x: gate(release.velocity.x), y: gate(release.velocity.y))
            gated.axisVelocity = gate(release.axisVelocity)
            gated.crossVelocity = gate(release.crossVelocity)
        }
        let isGated = gated.velocity != release.velocity || gated.axisVelocity != release.axisVelocity
        return (gated, isGated)
    }

    private func gate(_ component: Double) -> Double {
        var value = component
        if let floor, abs(value) < floor { value = 0 }
        if let maximum, abs(value) > maximum { value = value < 0 ? -maximum : maximum }
        return value
    }
}
