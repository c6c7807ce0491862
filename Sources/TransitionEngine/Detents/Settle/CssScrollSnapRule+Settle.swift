import Foundation

extension CssScrollSnapRule {
    /// Chromium's ratio between one snap-curve delta and the next on desktop: 0.92
    /// (`cc/input/snap_fling_curve.cc`; 0.9 on Android).
    static let snapCurveRatio = 0.92
    /// `kFrameTime` of the snap curve: 16 ms.
    static let snapCurveFrame = 0.016

    /// The scroller's motion after the release, frame by frame: the inertial updates it
    /// applied (clamped to the scroller), then, when the snap was predicted during the fling,
    /// `SnapFlingCurve` (`cc/input/snap_fling_curve.cc`): a geometric series of deltas, each
    /// 0.92 of the last, over `ceil(−ln(1 − d(1 − 1/0.92)) / ln 0.92)` frames of 16 ms, ending
    /// on the target once within one pixel or out of time; when the snap came at the scroll's
    /// end instead (no fling, or a fling that ran out), the programmatic scroll animation
    /// (`cc/animation/scroll_offset_animation_curve.cc`, delta-based): ease-in-out over
    /// `min(√|Δ|, 42) / 60` s. Which curve Chromium runs for a snap at the scroll's end is a
    /// reading of its source, not checked in the browser loop.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let plan = plan(release, on: sheet)
        let bottom = sheet.detents[sheet.lastIndex]
        let low = plan.snaps.min() ?? 0
        let high = plan.snaps.max() ?? 0
        let target = bottom - sheet.position(of: outcome)
        var offsets = plan.flingOffsets.map { min(max($0, low), high) }
        let from = offsets.last ?? min(max(plan.start, low), high)
        let summary: String
        if plan.predicted {
            let distance = abs(target - from)
            let ratio = Self.snapCurveRatio
            let frames = distance > 0 ? (-log(1 - distance * (1 - 1 / ratio)) / log(ratio)).rounded(.up) : 0
            let first = frames > 0 ? distance * (1 - ratio) / (1 - pow(ratio, frames)) : 0
            let duration = min(frames * Self.snapCurveFrame, 5)
            let direction: Double = target >= from ? 1 : -1
            var current = from
            var time = 0.0
            while offsets.count < SheetSettle.frameLimit {
                if time >= duration || abs(current - target) < 1 {
                    offsets.append(target)
                    break
                }
                let sum = first * (1 - pow(ratio, time / Self.snapCurveFrame + 1)) / (1 - ratio)
                current = from + direction * min(sum, distance)
                offsets.append(current)
                time += frameInterval
            }
            summary = "SnapFlingCurve over \(Int(frames)) frames of 16 ms after \(plan.flingOffsets.count) inertial updates"
        } else {
            let duration = min(abs(target - from).squareRoot(), 42) / 60
            let easing = SettleEasing.bezier(CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
            var time = frameInterval
            while time < duration, offsets.count < SheetSettle.frameLimit {
                offsets.append(from + (target - from) * easing.value(at: time / duration))
                time += frameInterval
            }
            offsets.append(target)
            summary = "programmatic scroll, ease-in-out over \(Decision.format(duration * 1000)) ms at the scroll's end"
        }
        return SheetSettle(
            from: release.position, to: bottom - target, velocity: release.velocity,
            motion: .frames(interval: frameInterval, positions: offsets.map { bottom - $0 }), summary: summary)
    }
}
