/// Maps a pan translation to transition progress, and a pan velocity to axis velocity.
///
/// `p = p_start + g · sign · translation_axis / L` (docs/MODEL.md §2.1), then
/// clamped to [0, 1] or rubber-banded past the ends (docs/MODEL.md §2.2) as ``overflow`` says.
public struct ProgressMapping: Sendable, Hashable, Codable {
    /// The screen axis a transition follows.
    public enum Axis: String, Sendable, Hashable, Codable {
        /// Horizontal.
        case x
        /// Vertical.
        case y
    }

    /// What happens to progress outside [0, 1].
    public enum Overflow: Sendable, Hashable, Codable {
        /// Clamp to [0, 1] (UIKit `update(_:)` inputs are usually clamped by the app).
        case clamp
        /// Rubber-band the excess with coefficient `c` over a dimension of one full
        /// progress unit (i.e. `d = L` in points).
        case rubberBand(coefficient: Double)
        /// Leave it unbounded.
        case none
    }

    /// The axis.
    public var axis: Axis
    /// +1 when a positive translation moves toward finish, −1 otherwise.
    public var sign: Double
    /// The distance `L` in points that maps to a progress change of 1.
    public var distance: Double
    /// Progress when the translation is zero (non-zero after a re-grab).
    public var startProgress: Double
    /// The gain `g` applied to translation.
    public var gain: Double
    /// When true, the magnitude of the axis translation is used (`p = |tx| / W` in the
    /// `parallax-push` source); velocity is then signed by ``sign``.
    public var usesMagnitude: Bool
    /// Clamp, rubber-band or leave unbounded.
    public var overflow: Overflow

    /// Creates a mapping.
    ///
    /// - Precondition: `distance > 0` and `sign` is ±1.
    public init(
        axis: Axis,
        sign: Double = 1,
        distance: Double,
        startProgress: Double = 0,
        gain: Double = 1,
        usesMagnitude: Bool = false,
        overflow: Overflow = .clamp
    ) {
        precondition(distance > 0, "progress distance must be positive")
        precondition(sign == 1 || sign == -1, "sign must be ±1")
        self.axis = axis
        self.sign = sign
        self.distance = distance
        self.startProgress = startProgress
        self.gain = gain
        self.usesMagnitude = usesMagnitude
        self.overflow = overflow
    }

    /// The component of `vector` along ``axis``.
    @inlinable
    public func axisComponent(of vector: Vector2) -> Double {
        axis == .x ? vector.x : vector.y
    }

    /// The component of `vector` across ``axis``.
    @inlinable
    public func crossComponent(of vector: Vector2) -> Double {
        axis == .x ? vector.y : vector.x
    }

    /// Progress before clamping or rubber-banding.
    public func rawProgress(for translation: Vector2) -> Double {
        let along = axisComponent(of: translation)
        let signed = usesMagnitude ? abs(along) : sign * along
        return startProgress + gain * signed / distance
    }

    /// Progress for a cumulative translation, clamped or rubber-banded.
    public func progress(for translation: Vector2) -> Double {
        let raw = rawProgress(for: translation)
        switch overflow {
        case .none:
            return raw
        case .clamp:
            return min(max(raw, 0), 1)
        case .rubberBand(let coefficient):
            let band = RubberBand(coefficient: coefficient, dimension: 1)
            if raw > 1 { return 1 + band.offset(for: raw - 1) }
            if raw < 0 { return band.offset(for: raw) }
            return raw
        }
    }

    /// Velocity along the axis in pt/s, positive toward finish (`v` in docs/MODEL.md §2.1).
    public func axisVelocity(for velocity: Vector2) -> Double {
        sign * axisComponent(of: velocity)
    }

    /// `v_p = g · v / L`, progress per second.
    public func progressVelocity(for velocity: Vector2) -> Double {
        gain * axisVelocity(for: velocity) / distance
    }

    /// The same mapping, continuing from `progress` (used when a completion is re-grabbed).
    public func continuing(from progress: Double) -> ProgressMapping {
        var copy = self
        copy.startProgress = progress
        return copy
    }
}
