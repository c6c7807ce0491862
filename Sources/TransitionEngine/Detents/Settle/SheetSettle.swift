import Foundation

/// How a released sheet moves from where the finger left it to where its library's rule sent it
/// (docs/MODEL.md §9.5): a value, no clock, no I/O.
///
/// Each library animates in its own way, transcribed from its own animation code: a spring
/// stepped frame by frame (FloatingPanel), a closed-form spring with rest thresholds checked each
/// frame (Reanimated under gorhom, Compose Material 3), a fixed duration along an easing (vaul's
/// CSS transition, Android's `ViewDragHelper` scroller, UIKit's duration spring under PanModal,
/// Compose's tween, Chromium's programmatic scroll), a constant speed (Flutter) or a fling that
/// hands over to Chromium's snap curve. Positions are the sheet's top edge in points from the
/// top of the screen; time is seconds from the release.
public struct SheetSettle: Sendable, Hashable {
    /// The shape of the motion.
    public enum Motion: Sendable, Hashable {
        /// `duration` seconds along `easing`, then exactly at the target.
        case timed(duration: Double, easing: SettleEasing)
        /// Positions one frame apart, from the first frame after the release; the last is the
        /// target (FloatingPanel's `NumericSpringAnimator`, Reanimated's spring, Chromium's
        /// fling and snap curve: each decides on a frame that it is done).
        case frames(interval: Double, positions: [Double])
        /// A damped spring from `from` with the release velocity, until `duration` (Compose's
        /// spring: its settle estimate), then exactly at the target.
        case spring(Spring, duration: Double)
        /// A constant speed, points per second, until the target (Flutter's
        /// `_SnappingSimulation`).
        case constantSpeed(Double)
    }

    /// Where the sheet's top edge is at the release, points.
    public let from: Double
    /// Where it comes to rest, points: a detent, or the bottom of the screen for a dismiss.
    public let to: Double
    /// The release velocity the motion starts from, points per second, positive downward.
    public let velocity: Double
    /// The motion.
    public let motion: Motion
    /// The library's words for it, e.g. `NumericSpringAnimator, ζ 0.576, response 0.4 s`.
    public let summary: String

    /// A settle.
    public init(from: Double, to: Double, velocity: Double, motion: Motion, summary: String) {
        self.from = from
        self.to = to
        self.velocity = velocity
        self.motion = motion
        self.summary = summary
    }

    /// Seconds from the release until the sheet is at rest on its target.
    public var duration: Double {
        switch motion {
        case .timed(let duration, _): duration
        case .frames(let interval, let positions): interval * Double(positions.count)
        case .spring(_, let duration): duration
        case .constantSpeed(let speed): speed > 0 ? abs(to - from) / speed : 0
        }
    }

    /// The sheet's top edge `t` seconds after the release: `from` before the motion starts, `to`
    /// once it is done.
    public func position(at t: Double) -> Double {
        guard t > 0 else { return from }
        guard t < duration else { return to }
        switch motion {
        case .timed(let duration, let easing):
            return from + (to - from) * easing.value(at: t / duration)
        case .frames(let interval, let positions):
            // The frame on screen at `t`: frame k is shown from (k + 1)·interval.
            let shown = Int((t / interval).rounded(.down)) - 1
            return shown < 0 ? from : positions[min(shown, positions.count - 1)]
        case .spring(let spring, _):
            return to + spring.oscillator(displacement: from - to, velocity: velocity).displacement(at: t)
        case .constantSpeed(let speed):
            return from + (to > from ? speed : -speed) * t
        }
    }

    /// The positions at `rate` frames a second from the release (the first at `1 / rate`) until
    /// the sheet rests, the last exactly at `to`; at most `limit` of them (cut short, the last
    /// is still `to`).
    public func positions(rate: Double, limit: Int = 2_400) -> [Double] {
        guard rate > 0, duration > 0, limit > 0 else { return [to] }
        let count = min(Int((duration * rate).rounded(.up)), limit)
        var positions = (1...max(count, 1)).map { position(at: Double($0) / rate) }
        positions[positions.count - 1] = to
        return positions
    }
}

/// The easing of a fixed-duration settle: the share of the way covered at a share of the time.
public enum SettleEasing: Sendable, Hashable {
    /// A CSS `cubic-bezier` (vaul's `0.32, 0.72, 0, 1`; Compose's `FastOutSlowInEasing`;
    /// Chromium's ease-in-out).
    case bezier(CubicBezier)
    /// Reanimated's `Easing.out(Easing.exp)`: `1 − 2^(−10u)`, which stops 0.1 % short at u = 1
    /// (`withTiming` then sets the target).
    case exponentialOut
    /// androidx `ViewDragHelper`'s `sInterpolator`: `(u − 1)⁵ + 1`.
    case quinticOut
    /// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity: 0 …)`
    /// read as PanTrace reads every UIKit duration spring (docs/MODEL.md §4.7): the envelope
    /// is 0.1 % of the distance at the duration, `ω0 = ln 1000 / (min(ζ, 1) · D)`.
    case durationSpring(dampingRatio: Double)

    /// The share of the way covered at `u` ∈ [0, 1] of the time.
    public func value(at u: Double) -> Double {
        let u = min(max(u, 0), 1)
        switch self {
        case .bezier(let bezier):
            return TimingCurve.custom(bezier).value(at: u)
        case .exponentialOut:
            return 1 - pow(2, -10 * u)
        case .quinticOut:
            let t = u - 1
            return t * t * t * t * t + 1
        case .durationSpring(let ratio):
            // In units of the duration (D = 1), starting at rest one whole distance away.
            let spring = Spring(response: Spring.uiKitResponse(duration: 1, dampingRatio: max(ratio, 0.01)), dampingRatio: ratio)
            return 1 - spring.oscillator(displacement: 1, velocity: 0).displacement(at: u)
        }
    }
}

/// What a settle needs to know about the screen beyond the sheet: its width (Android's settle
/// time reads the parent's width), its refresh rate (the libraries that step per frame) and its
/// scale (FloatingPanel stops within one device pixel).
public struct SheetDisplay: Sendable, Hashable {
    /// The screen's width, points.
    public var width: Double
    /// Frames a second.
    public var refreshRate: Double
    /// Device pixels per point.
    public var scale: Double

    /// A display: an iPhone's 60 Hz and 3 px per point unless told.
    public init(width: Double, refreshRate: Double = 60, scale: Double = 3) {
        self.width = width
        self.refreshRate = refreshRate
        self.scale = scale
    }
}

extension SheetSettle {
    /// The most frames a stepped settle computes (40 s at 60 Hz): a bound on the work one
    /// release can ask for.
    static let frameLimit = 2_400
}

extension SheetLayout {
    /// Where the sheet's top edge rests for `outcome`: the detent's position, or the bottom of
    /// the screen for a dismiss.
    public func position(of outcome: DetentOutcome) -> Double {
        outcome.index.map { detents[$0] } ?? closedPosition
    }
}
