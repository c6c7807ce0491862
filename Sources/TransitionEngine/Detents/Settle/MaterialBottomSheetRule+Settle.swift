import Foundation

extension MaterialBottomSheetRule {
    /// `startSettling` → `ViewDragHelper.settleCapturedViewAt` (androidx
    /// `customview/widget/ViewDragHelper.java`, `forceSettleCapturedViewAt`,
    /// `computeSettleDuration`, `computeAxisDuration`): the velocity clamped as in the release
    /// (under the minimum fling it is 0, over the maximum capped); with a velocity the time is
    /// `4 · round(1000 · d / |v|)` ms, where `d = W/2 + W/2 · sin((min(1, |Δ|/W) − 0.5) · 0.15π)`
    /// and `W` the parent's width; without, `(|Δ| / range + 1) · 256` ms, the range the parent's
    /// height when hideable, else the collapsed offset; at most 600 ms. The scroller moves along
    /// `sInterpolator`, `(u − 1)⁵ + 1`. All in whole pixels at the screen's density.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let px = { (points: Double) in Int((points * density).rounded()) }
        let expanded = px(sheet.detents[0])
        let collapsed = px(sheet.detents[sheet.lastIndex])
        let parentHeight = px(sheet.screenHeight)
        let top = min(max(px(release.position), expanded), hideable ? parentHeight : collapsed)
        let target = outcome.index.map { px(sheet.detents[$0]) } ?? parentHeight
        let minimum = Int(DetentVelocityGate.minimumFling * density + 0.5)
        let maximum = Int(DetentVelocityGate.maximumFling * density + 0.5)
        var velocity = Int(release.velocity * density)
        if abs(velocity) < minimum { velocity = 0 } else if abs(velocity) > maximum { velocity = velocity > 0 ? maximum : -maximum }
        let delta = target - top
        let milliseconds: Int
        if delta == 0 {
            milliseconds = 0
        } else {
            let width = px(display.width)
            let half = Float(width / 2)
            let ratio = min(1, Float(abs(delta)) / Float(width))
            // distanceInfluenceForSnapDuration: `f -= 0.5f; f *= 0.3f * Math.PI / 2.0f` (a float
            // times a double, stored back as a float), then `(float) Math.sin(f)`.
            let centred = Float(Double(ratio - 0.5) * (Double(Float(0.3)) * Double.pi / 2))
            let distance = half + half * Float(sin(Double(centred)))
            if velocity != 0 {
                milliseconds = min(4 * Int((1000 * abs(distance / Float(abs(velocity)))).rounded()), 600)
            } else {
                let range = Float(abs(delta)) / Float(hideable ? parentHeight : collapsed)
                milliseconds = min(Int((range + 1) * 256), 600)
            }
        }
        return SheetSettle(
            from: Double(top) / density, to: Double(target) / density, velocity: Double(velocity) / density,
            motion: .timed(duration: Double(milliseconds) / 1000, easing: .quinticOut),
            summary: "ViewDragHelper settle \(milliseconds) ms, quintic ease-out")
    }
}
