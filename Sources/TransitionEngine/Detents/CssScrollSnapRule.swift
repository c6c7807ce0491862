/// Chromium's CSS scroll snap after a touchscreen fling, for a `scroll-snap-type: y mandatory`
/// sheet (docs/MODEL.md §9.3): the sheet is a scroller whose snap points are the detents.
///
/// Transcribed from Chromium (BSD-3): the fling runs on `PhysicsBasedFlingCurve`
/// (`ui/events/gestures/physics_based_fling_curve.cc`, the Linux and Windows default through
/// `kExperimentalFlingAnimation`, 96 ppi); `SnapFlingController::HandleGestureScrollUpdate`
/// (`cc/input/snap_fling_controller.cc`) watches its inertial scroll updates and, once one has
/// decayed enough, `SnapFlingCurve::EstimateDisplacement` (`cc/input/snap_fling_curve.cc`,
/// `kSnapFlingDecayPrediction`, on by default) predicts the rest as `delta / (1 − ratio)`; the
/// snap point is then the one strictly ahead of the scroller, in the fling's direction, nearest
/// the predicted end (`SnapSelectionStrategy::CreateForDisplacement`, `scroll_snap_data.cc`
/// `FindClosestValidArea`), with `scroll-snap-stop: always` forcing the first point ahead. A
/// release that is no fling (|v| ≤ 30 px/s), or whose updates never decay enough, snaps to the
/// point nearest where the scroll stops.
///
/// What the sources leave to the machine — when the first inertial frame comes after the lift
/// and the frame interval — are settings (`firstFrameDelay`, `frameInterval`), measured on the
/// closed loop in Chromium (docs/DETENTS.md).
public struct CssScrollSnapRule: Sendable, Hashable {
    /// Seconds from the lift to the first inertial scroll update.
    public var firstFrameDelay = 0.008
    /// Seconds between inertial scroll updates (the display's frame).
    public var frameInterval = 1.0 / 60
    /// `scroll-snap-stop: always` on every snap point.
    public var stopsAlways = false
    /// The scroller's viewport height, px; the screen's when 0. The fling's distance is capped
    /// at three viewports.
    public var viewportHeight = 0.0
    /// The slowest release that flings, px/s (`gesture_configuration`'s minimum fling velocity, 30).
    public var minimumFling = 30.0
    /// The touch slop, px: the scroll starts once the finger is this far from its down point and
    /// does not move by that first stretch (the release's translation, measured from the down
    /// point, is shortened by it). 15 in Chromium's gesture configuration for touchscreens.
    public var touchSlop = 15.0
    /// The fling curve's pixels per inch (its deceleration is 2.7559e-5 × ppi px/ms²): 96.
    public var pixelsPerInch = 96.0

    /// Chromium's defaults on a 60 Hz display.
    public init() {}

    /// Where the scroller snaps.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        plan(release, on: sheet).decision
    }

    /// What the scroller does after a release: where it snaps, and the scroll offsets of the
    /// inertial updates it applied before the snap took over (each a frame).
    struct Plan {
        /// Scroll offsets: the sheet's top at the least expanded detent is offset 0; a finger
        /// moving up scrolls forward.
        var snaps: [Double]
        /// The scroll offset at the release (the drag less the touch slop).
        var start: Double
        /// The decision.
        var decision: DetentDecision
        /// The scroll offset after each inertial update applied before the snap; empty when
        /// the release did not fling.
        var flingOffsets: [Double]
        /// Whether the snap came from a prediction during the fling (`SnapFlingCurve`) rather
        /// than at the scroll's end.
        var predicted: Bool
    }

    /// The release replayed the way Chromium's compositor sees it.
    func plan(_ release: DetentRelease, on sheet: SheetLayout) -> Plan {
        let bottom = sheet.detents[sheet.lastIndex]
        let snaps = sheet.detents.map { bottom - $0 }
        let start = bottom - scrolledTop(release, on: sheet)
        let velocity = -release.velocity
        guard abs(velocity) > minimumFling else {
            let index = Self.nearest(to: start, in: snaps)
            let decision = DetentDecision(
                .detent(index), "no fling (|v| ≤ \(Decision.format(minimumFling)) px/s): the snap point nearest the release")
            return Plan(snaps: snaps, start: start, decision: decision, flingOffsets: [], predicted: false)
        }
        let fling = PhysicsFling(
            velocity: min(max(velocity, -Self.maximumFling), Self.maximumFling),
            viewport: viewportHeight > 0 ? viewportHeight : sheet.screenHeight, pixelsPerInch: pixelsPerInch)
        var applied = 0.0
        var previous: Double?
        var decaying = 0
        var time = firstFrameDelay
        var last = 0.0
        var offsets: [Double] = []
        while time < fling.duration {
            let offset = fling.offset(at: time)
            let delta = offset - last
            last = offset
            time += frameInterval
            guard abs(delta) > 0.1 else { continue }
            if let previous, delta * delta < previous * previous { decaying += 1 } else { decaying = 0 }
            defer { previous = delta }
            guard let previous, let displacement = Self.estimate(delta, previous: previous, allowsSlowDecay: decaying >= 3) else {
                applied += delta
                offsets.append(start + applied)
                continue
            }
            let current = start + applied
            let index = choose(from: current, displacement: displacement, snaps: snaps)
            let decision = DetentDecision(
                .detent(index),
                "fling \(Decision.format(velocity)) px/s; predicted \(Decision.format(displacement)) px more from \(Decision.format(current)): snap point \(index)"
            )
            return Plan(snaps: snaps, start: start, decision: decision, flingOffsets: offsets, predicted: true)
        }
        // No update decayed enough to predict: the fling runs out and the scroll snaps where it stops.
        let end = min(max(start + fling.distance, snaps.min() ?? 0), snaps.max() ?? 0)
        let index = Self.nearest(to: end, in: snaps)
        let decision = DetentDecision(
            .detent(index), "fling \(Decision.format(velocity)) px/s ran out at \(Decision.format(end)): the nearest snap point")
        return Plan(snaps: snaps, start: start, decision: decision, flingOffsets: offsets, predicted: false)
    }

    /// Where the scroller's content (the sheet's top edge) is at the lift. The scroll starts
    /// once the finger has moved more than the touch slop from where it went down, less the
    /// slop; from then on it follows the finger, and it stops at its ends (the least and most
    /// expanded detents) while the finger goes on: a finger that drags past an end and comes back
    /// moves the scroller from that end (`path`). Without a path, the net drag less the slop.
    func scrolledTop(_ release: DetentRelease, on sheet: SheetLayout) -> Double {
        let from = sheet.detents[release.start]
        guard !release.path.isEmpty else {
            let dragged = release.position - from
            return from + (dragged < 0 ? min(dragged + touchSlop, 0) : max(dragged - touchSlop, 0))
        }
        let low = sheet.detents[0]
        let high = sheet.detents[sheet.lastIndex]
        var top = from
        var scrolling = false
        var previous = 0.0
        for translation in release.path {
            if !scrolling {
                guard abs(translation) > touchSlop else { continue }
                scrolling = true
                top = min(max(from + translation - (translation > 0 ? touchSlop : -touchSlop), low), high)
            } else {
                top = min(max(top + translation - previous, low), high)
            }
            previous = translation
        }
        return top
    }

    /// `CreateForDisplacement` and `FindClosestValidArea`: the snap offset strictly ahead of
    /// `current` in the displacement's direction nearest `current + displacement`; none ahead,
    /// the nearest to `current`; with snap-stop, the first ahead unless another is strictly nearer.
    func choose(from current: Double, displacement: Double, snaps: [Double]) -> Int {
        let target = current + displacement
        let ahead = Self.documentOrder(snaps).filter { index in
            let gap = snaps[index] - current
            return gap != 0 && (gap > 0) == (displacement > 0)
        }
        guard !ahead.isEmpty else { return Self.nearest(to: current, in: snaps) }
        // Ties go to the first in document order.
        var best = ahead[0]
        for index in ahead.dropFirst() where abs(snaps[index] - target) < abs(snaps[best] - target) { best = index }
        guard stopsAlways else { return best }
        var stop = ahead[0]
        for index in ahead.dropFirst() where abs(snaps[index] - current) < abs(snaps[stop] - current) { stop = index }
        return abs(snaps[best] - current) < abs(snaps[stop] - current) ? best : stop
    }

    /// `SnapFlingCurve::EstimateDisplacement` with the decay prediction: `delta / (1 − f)` once
    /// `f = |delta| / |previous|` is under 0.96, or under 1 after three decaying updates (f at
    /// most 0.99); else none.
    static func estimate(_ delta: Double, previous: Double, allowsSlowDecay: Bool) -> Double? {
        let previousLength = abs(previous)
        guard previousLength > 0 else { return nil }
        let ratio = abs(delta) / previousLength
        guard ratio < 0.96 || (allowsSlowDecay && ratio < 1) else { return nil }
        return delta / (1 - min(ratio, 0.99))
    }

    /// The snap point nearest `offset`; of equals, the first in document order.
    static func nearest(to offset: Double, in snaps: [Double]) -> Int {
        let order = documentOrder(snaps)
        var best = order[0]
        for index in order.dropFirst() where abs(snaps[index] - offset) < abs(snaps[best] - offset) { best = index }
        return best
    }

    /// The snap points in document order, which Chromium's searches keep on ties. PanTrace takes a
    /// sheet's page to list them by scroll offset, the least expanded (offset 0) first, as the
    /// page of `make test-snap` does; a page that lists them otherwise differs only on exact ties.
    static func documentOrder(_ snaps: [Double]) -> [Int] {
        snaps.indices.sorted { snaps[$0] < snaps[$1] }
    }

    /// The largest fling velocity, px/s.
    static let maximumFling = 17_000.0
}

/// `PhysicsBasedFlingCurve` at 96 ppi: a cubic Bézier from 0 to the fling's distance.
struct PhysicsFling {
    let distance: Double
    let duration: Double
    let curve: CubicBezier?

    init(velocity: Double, viewport: Double, pixelsPerInch: Double = 96) {
        // Deceleration 2.7559e-5 × ppi px/ms²: the distance v² / 2a, capped at three viewports.
        let deceleration = pixelsPerInch * 2.7559e-5
        let speed = abs(velocity) / 1000
        var distance = speed * speed / (2 * deceleration)
        distance = min(distance, (viewport * 3).rounded(.down))
        self.distance = velocity < 0 ? -distance : distance
        duration = min(2, abs(velocity) / 2300)
        guard distance > 0, duration > 0 else {
            curve = nil
            return
        }
        let slope = abs(velocity * duration / distance)
        var x1 = 0.2
        var y1 = 1.0
        if slope * x1 < 1 { y1 = x1 * slope } else { x1 = y1 / slope }
        curve = CubicBezier(x1: x1, y1: y1, x2: 0.55, y2: 1)
    }

    func offset(at time: Double) -> Double {
        guard let curve, time < duration else { return distance }
        return distance * curve.value(at: time / duration)
    }
}

extension CssScrollSnapRule: SheetRule {
    /// The page's and the machine's settings.
    public static let parameters: [DetentParameter<Self>] = [
        .flag("snapStopAlways", \.stopsAlways, "scroll-snap-stop: always on every snap point"),
        .number("firstFrameDelay", \.firstFrameDelay, range: 0...0.1, unit: "s", "from the lift to the first inertial scroll update"),
        .number("frameInterval", \.frameInterval, range: 0.001...0.1, unit: "s", "between inertial scroll updates"),
        .number("viewportHeight", \.viewportHeight, range: 0...100_000, unit: "px", "the scroller's height (0: the screen's)"),
        .number("minimumFling", \.minimumFling, range: 0...10_000, unit: "px/s", "the slowest release that flings (30)"),
        .number("touchSlop", \.touchSlop, range: 0...1000, unit: "px", "the stretch of a drag before the scroll moves (15)"),
        .number("pixelsPerInch", \.pixelsPerInch, range: 1...1000, unit: "ppi", "the fling curve's pixels per inch (96)")
    ]
}
