extension Material3SheetRule {
    /// Compose Material 3's sheets animate with the motion scheme's default spatial spring
    /// (`MotionSchemeKeyTokens.DefaultSpatial` in the standard scheme: damping ratio 0.9,
    /// stiffness 700) from the release velocity; the animation ends, on its target, once
    /// Compose's spring is within `Spring.DefaultDisplacementThreshold` (0.01) of it.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let target = sheet.position(of: outcome)
        let spring = Spring(stiffness: 700, damping: 2 * 0.9 * 700.0.squareRoot())
        let duration = spring.oscillator(displacement: release.position - target, velocity: release.velocity).settleTime(epsilon: 0.01)
        return SheetSettle(
            from: release.position, to: target, velocity: release.velocity, motion: .spring(spring, duration: duration),
            summary: "spring ζ 0.9, stiffness 700, from the release velocity")
    }
}
