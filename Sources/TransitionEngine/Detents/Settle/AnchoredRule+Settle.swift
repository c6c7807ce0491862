extension AnchoredRule {
    /// `AnchoredDraggableState` animates with the `snapAnimationSpec` the app passes; Compose's
    /// foundation gives no default. PanTrace uses `tween(300, FastOutSlowInEasing)`, the spec
    /// of Compose's own anchored-drag samples: a reading, not the library's word.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        SheetSettle(
            from: release.position, to: sheet.position(of: outcome), velocity: release.velocity,
            motion: .timed(duration: 0.3, easing: .bezier(CubicBezier(x1: 0.4, y1: 0, x2: 0.2, y2: 1))),
            summary: "tween 300 ms FastOutSlowInEasing (the app's snapAnimationSpec; Compose sets none)")
    }
}
