extension VaulRule {
    /// `TRANSITIONS` (`src/constants.ts` 1–4): every snap is a CSS `transform` transition of
    /// 0.5 s along `cubic-bezier(0.32, 0.72, 0, 1)` (`src/index.tsx`), whatever the velocity.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        SheetSettle(
            from: release.position, to: sheet.position(of: outcome), velocity: release.velocity,
            motion: .timed(duration: 0.5, easing: .bezier(CubicBezier(x1: 0.32, y1: 0.72, x2: 0, y2: 1))),
            summary: "CSS transition 0.5 s cubic-bezier(0.32, 0.72, 0, 1), velocity not carried")
    }
}
