extension FlutterSheetRule {
    /// `_SnappingSimulation` (`packages/flutter/lib/src/widgets/draggable_scrollable_sheet.dart`):
    /// with no `snapAnimationDuration`, a straight line to the snap size at the fling's speed
    /// toward it, never slower than `minimumSpeed`, 1600 logical px/s; a fling away from the
    /// target moves at 1600.
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        let target = sheet.position(of: outcome)
        let toward = target > release.position ? release.velocity : -release.velocity
        let speed = max(1600, toward)
        return SheetSettle(
            from: release.position, to: target, velocity: release.velocity, motion: .constantSpeed(speed),
            summary: "_SnappingSimulation: a straight line at \(Decision.format(speed)) px/s (at least 1600)")
    }
}
