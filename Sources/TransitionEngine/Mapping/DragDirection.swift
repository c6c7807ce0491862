/// The drag that drives a transition's progress: an axis and the way along it that moves
/// toward finish (docs/MODEL.md §2.3).
public enum DragDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// `+x`.
    case right
    /// `−x`.
    case left
    /// `+y` (UIKit's y grows downward).
    case down
    /// `−y`.
    case up

    /// The screen axis.
    public var axis: ProgressMapping.Axis {
        switch self {
        case .right, .left: .x
        case .down, .up: .y
        }
    }

    /// +1 when a positive translation moves toward finish, else −1.
    public var sign: Double {
        switch self {
        case .right, .down: 1
        case .left, .up: -1
        }
    }

    /// `+x`, `−x`, `+y` or `−y`.
    public var signedAxis: String {
        (sign > 0 ? "+" : "−") + axis.rawValue
    }

    /// The direction along `axis` with `sign`.
    public init(axis: ProgressMapping.Axis, sign: Double) {
        switch axis {
        case .x: self = sign >= 0 ? .right : .left
        case .y: self = sign >= 0 ? .down : .up
        }
    }
}

/// Which pan callbacks move an interactive transition, and so which progress a release reads
/// (docs/MODEL.md §1.3, §1.4).
public enum ReleaseProgress: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only `changed` moves it, as every UIKit article calls `update(_:)` only in `.changed`:
    /// `began` leaves it at its start, and the release reads the last `changed` value (UIKit's
    /// `percentComplete`).
    case changed
    /// Every callback moves it, the `began` and the lift included; the release reads the
    /// lift's own translation.
    case lift
}
