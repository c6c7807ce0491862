import Foundation

extension FloatingPanelRule {
    /// `springDecelerationRate`: `UIScrollView.DecelerationRate.fast` + 0.001 = 0.991
    /// (`Sources/Behavior.swift` 64–66).
    static let springDecelerationRate = 0.991
    /// `springResponseTime`: 0.4 s (`Sources/Behavior.swift` 68–70).
    static let springResponseTime = 0.4

    /// `NumericSpringAnimator` (`Sources/Core.swift` 1380–1490), started by `move(to:with:)`
    /// (945–975) with the pan's velocity: damping ratio `ln(0.991) / (−2π · (1/0.4) · 0.001)` ≈
    /// 0.576 when |v| > 300 pt/s, else 1; ω = 2π / 0.4; one implicit step per display frame
    /// (`targetTimestamp − timestamp`), in which the velocity is updated from the position
    /// already stepped (the source's order, kept); done once within one device pixel of the
    /// target and moving less than one, when the panel is laid out exactly at its state.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let target = sheet.position(of: outcome)
        let frequency = 1 / Self.springResponseTime
        let zeta = abs(release.velocity) > 300 ? log(Self.springDecelerationRate) / (-2 * Double.pi * frequency * 0.001) : 1
        let omega = 2 * Double.pi * frequency
        let h = 1 / display.refreshRate
        let pixel = 1 / display.scale
        var x = release.position
        var v = release.velocity
        var positions: [Double] = []
        while positions.count < SheetSettle.frameLimit {
            let previous = x
            let f = 1 + 2 * h * zeta * omega
            let h2o2 = h * h * omega * omega
            let det = f + h2o2
            x = (f * x + h * v + h2o2 * target) / det
            v = (v + h * omega * omega * (target - x)) / det
            positions.append(x)
            if abs(target - x) <= pixel, abs(previous - x) / pixel <= 1 { break }
        }
        positions[positions.count - 1] = target
        return SheetSettle(
            from: release.position, to: target, velocity: release.velocity, motion: .frames(interval: h, positions: positions),
            summary:
                "NumericSpringAnimator: ζ \(Decision.format(zeta)), response \(Decision.format(Self.springResponseTime)) s, stepped at \(Decision.format(display.refreshRate)) Hz"
        )
    }
}
