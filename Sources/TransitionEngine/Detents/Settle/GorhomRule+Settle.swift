import Foundation

extension GorhomRule {
    /// `ANIMATION_CONFIGS` on iOS (`src/constants.ts` 71–83): Reanimated's `withSpring` with
    /// damping 500, stiffness 1000, mass 3, overshoot clamping, rest thresholds of 10 pt and
    /// 10 pt/s; `handleOnEnd` passes half the release velocity (`velocityY / 2`,
    /// `src/hooks/useGestureEventsHandlersDefault.tsx`). The damping ratio is 4.56, and
    /// Reanimated solves every ζ ≥ 1 with the critically damped formula at ω0 = √(k/m)
    /// (`criticallyDampedSpringCalculations`, `springUtils.ts`), so the sheet eases in faster
    /// than an overdamped spring would; it checks each frame and stops, at the target, once it
    /// is within 10 pt and slower than 10 pt/s, or past the target. (On Android gorhom uses
    /// `withTiming` 250 ms `Easing.out(Easing.exp)` instead; PanTrace models iOS.)
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let target = sheet.position(of: outcome)
        let (mass, stiffness, damping) = (3.0, 1000.0, 500.0)
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        let omega0 = (stiffness / mass).squareRoot()
        let omega1 = omega0 * (max(0, 1 - zeta * zeta)).squareRoot()
        let velocity = release.velocity / 2
        let x0 = target - release.position
        let v0 = -velocity
        let h = 1 / display.refreshRate
        var positions: [Double] = []
        while positions.count < SheetSettle.frameLimit {
            let t = h * Double(positions.count + 1)
            let position: Double
            let speed: Double
            if zeta < 1 {
                let envelope = exp(-zeta * omega0 * t)
                let fragment = envelope * (sin(omega1 * t) * ((v0 + zeta * omega0 * x0) / omega1) + x0 * cos(omega1 * t))
                position = target - fragment
                speed = zeta * omega0 * fragment - envelope * (cos(omega1 * t) * (v0 + zeta * omega0 * x0) - omega1 * x0 * sin(omega1 * t))
            } else {
                let envelope = exp(-omega0 * t)
                position = target - envelope * (x0 + (v0 + omega0 * x0) * t)
                speed = envelope * (v0 * (t * omega0 - 1) + t * x0 * omega0 * omega0)
            }
            let overshooting = (position > target && release.position < target) || (position < target && release.position > target)
            if overshooting || (abs(speed) < 10 && abs(target - position) < 10) {
                positions.append(target)
                break
            }
            positions.append(position)
        }
        return SheetSettle(
            from: release.position, to: target, velocity: velocity, motion: .frames(interval: h, positions: positions),
            summary:
                "Reanimated withSpring (damping 500, stiffness 1000, mass 3; ζ \(Decision.format(zeta)) solved as critical), half the release velocity, rests within 10 pt"
        )
    }
}
