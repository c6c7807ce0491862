/// What a detent rule reads when the finger lifts (docs/MODEL.md §9.1).
///
/// Positions are the sheet's top edge in points from the top of the screen; velocities are
/// points per second, positive downward (toward the closed sheet), already read the way the
/// library reads them (its estimator and its gate: `PanReplay` does that part).
public struct DetentRelease: Sendable, Hashable {
    /// The detent the sheet rested at when the drag began.
    public var start: Int
    /// Where the sheet's top edge is at the release.
    public var position: Double
    /// The release velocity, points per second, positive downward.
    public var velocity: Double
    /// From the finger's first sample to its lift, seconds (vaul's press time).
    public var pressDuration: Double
    /// The finger's vertical translation from the touch-down at each sample up to the release,
    /// points, positive downward; empty when not known. A rule whose sheet stops at its ends
    /// while the finger goes on (a scroller clamped to its range) walks it.
    public var path: [Double]

    /// A release.
    public init(start: Int, position: Double, velocity: Double, pressDuration: Double = 0, path: [Double] = []) {
        self.start = start
        self.position = position
        self.velocity = velocity
        self.pressDuration = pressDuration
        self.path = path
    }

    /// The same release read at another velocity: how a margin is found.
    public func withVelocity(_ velocity: Double) -> Self {
        var copy = self
        copy.velocity = velocity
        return copy
    }
}

/// Where a released sheet goes.
public enum DetentOutcome: Sendable, Hashable, CustomStringConvertible {
    /// It settles at the detent with this index.
    case detent(Int)
    /// It closes (the library's dismiss or hide).
    case dismissed

    /// The detent's index, or nil when the sheet closes.
    public var index: Int? {
        if case .detent(let index) = self { return index }
        return nil
    }

    /// `detent 2` or `dismissed`.
    public var description: String {
        switch self {
        case .detent(let index): "detent \(index)"
        case .dismissed: "dismissed"
        }
    }
}

/// A rule's choice and why, in words.
public struct DetentDecision: Sendable, Hashable {
    /// Where the sheet goes.
    public var outcome: DetentOutcome
    /// Why, naming the branch of the library's rule that chose it.
    public var reason: String

    /// A decision.
    public init(_ outcome: DetentOutcome, _ reason: String) {
        self.outcome = outcome
        self.reason = reason
    }
}
