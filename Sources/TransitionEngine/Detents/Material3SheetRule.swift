/// Jetpack Compose Material 3 sheets' release rule: `computeTarget` of Material 3's internal
/// copy of `AnchoredDraggableState` (androidx `compose/material3/material3/src/commonMain/kotlin/androidx/compose/material3/internal/AnchoredDraggable.kt`
/// lines 437–472 at `28d3019c`), with `BottomSheetDefaults.PositionalThreshold` = 56 dp and
/// `VelocityThreshold` = 125 dp (`SheetDefaults.kt` 404–406 at `eff559cc`). docs/MODEL.md §9.3.
///
/// Unlike the foundation's rule it measures from the settled anchor, and takes the direction
/// from where the offset is relative to that anchor, not from the velocity: a release below
/// the start flung back upward is not a fling at all. Ties and a missing anchor go to the
/// earlier anchor (`minByOrNull`).
public struct Material3SheetRule: Sendable, Hashable {
    /// `BottomSheetDefaults.VelocityThreshold`, dp/s: 125.
    public var velocityThreshold = 125.0
    /// `BottomSheetDefaults.PositionalThreshold`, dp: 56.
    public var positionalThreshold = 56.0

    /// Material 3's defaults.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let anchors = sheet.detents
        let offset = min(max(release.position, anchors[0]), anchors[sheet.lastIndex])
        let velocity = release.velocity
        let current = anchors[release.start]
        let threshold = abs(positionalThreshold)
        if current == offset { return DetentDecision(.detent(release.start), "at the settled anchor") }
        if current < offset {
            // "Swiping from lower to upper (positive)": down the screen.
            let upper = AnchoredRule.closestAnchor(to: offset, upwards: true, in: anchors, keepsLater: false)
            if velocity >= velocityThreshold {
                return DetentDecision(
                    .detent(upper), "below the start, velocity ≥ \(Decision.format(velocityThreshold)) pt/s: the next anchor down")
            }
            let absolute = abs(current + threshold)
            return offset < absolute
                ? DetentDecision(.detent(release.start), "below the start by less than \(Decision.format(threshold)) pt: back")
                : DetentDecision(.detent(upper), "below the start by \(Decision.format(threshold)) pt or more: the next anchor down")
        }
        let lower = AnchoredRule.closestAnchor(to: offset, upwards: false, in: anchors, keepsLater: false)
        if velocity <= -velocityThreshold {
            return DetentDecision(
                .detent(lower), "above the start, velocity ≤ −\(Decision.format(velocityThreshold)) pt/s: the next anchor up")
        }
        let absolute = abs(current - threshold)
        // Material 3 treats a negative offset separately; sheet positions are never negative.
        let stays = offset < 0 ? abs(offset) < absolute : offset > absolute
        return stays
            ? DetentDecision(.detent(release.start), "above the start by less than \(Decision.format(threshold)) pt: back")
            : DetentDecision(.detent(lower), "above the start by \(Decision.format(threshold)) pt or more: the next anchor up")
    }
}

extension Material3SheetRule: SheetRule {
    /// The sheet's thresholds.
    public static let parameters: [DetentParameter<Self>] = [
        .number("velocityThreshold", \.velocityThreshold, range: 0...100_000, unit: "dp/s", "BottomSheetDefaults.VelocityThreshold (125)"),
        .number("positionalThreshold", \.positionalThreshold, range: 0...10_000, unit: "dp", "BottomSheetDefaults.PositionalThreshold (56)")
    ]
}
