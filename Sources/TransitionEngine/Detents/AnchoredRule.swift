/// Jetpack Compose's `anchoredDraggable` release rule, `AnchoredDraggableState.computeTarget`
/// (`compose/foundation/foundation/src/commonMain/kotlin/androidx/compose/foundation/gestures/AnchoredDraggable.kt`),
/// with the foundation's thresholds or Material 3 sheets'. docs/MODEL.md §9.3.
///
/// At the settled anchor nothing moves. A fling at least as fast as the velocity threshold goes
/// to the closest anchor in its direction from the current offset, so it never skips one;
/// a slower release goes on to the neighbouring anchor in the drag's direction only once it is
/// past the positional threshold of the gap to it.
public struct AnchoredRule: Sendable, Hashable {
    /// `velocityThreshold`, dp/s (= points per second): 125 in both.
    public var velocityThreshold = 125.0
    /// The positional threshold as a share of the gap (foundation: 0.5), used when
    /// ``fixedThreshold`` is 0.
    public var positionalFraction = 0.5
    /// A positional threshold in dp, whatever the gap (Material 3 sheets: 56); 0 for none.
    public var fixedThreshold = 0.0

    /// `AnchoredDraggableDefaults`: half the gap, 125 dp/s.
    public static let foundation = AnchoredRule()

    /// Material 3 sheets: 56 dp, 125 dp/s.
    public static let material3Sheet: AnchoredRule = {
        var rule = AnchoredRule()
        rule.fixedThreshold = 56
        return rule
    }()

    /// The foundation's defaults.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        // `AnchoredDraggableState` coerces every drag into minAnchor…maxAnchor: the offset at a
        // release is never past an end anchor.
        let offset = min(max(release.position, sheet.detents[0]), sheet.detents[sheet.lastIndex])
        let settled = sheet.detents[release.start]
        if settled == offset { return DetentDecision(.detent(release.start), "at the settled anchor") }
        if abs(release.velocity) >= abs(velocityThreshold) {
            let target = Self.closestAnchor(to: offset, forward: release.velocity > 0, in: sheet.detents)
            return DetentDecision(
                .detent(target),
                "|velocity| \(FloatingPanelRule.short(abs(release.velocity))) ≥ \(FloatingPanelRule.short(velocityThreshold)) pt/s: closest anchor that way")
        }
        let neighbor = Self.closestAnchor(to: offset, forward: offset - settled > 0, in: sheet.detents)
        let distance = abs(settled - sheet.detents[neighbor])
        let threshold = abs(fixedThreshold > 0 ? fixedThreshold : distance * positionalFraction)
        let travelled = abs(settled - offset)
        if travelled <= threshold {
            return DetentDecision(
                .detent(release.start),
                "slow release \(FloatingPanelRule.short(travelled)) pt from the settled anchor ≤ threshold \(FloatingPanelRule.short(threshold)) pt")
        }
        return DetentDecision(
            .detent(neighbor),
            "slow release \(FloatingPanelRule.short(travelled)) pt from the settled anchor > threshold \(FloatingPanelRule.short(threshold)) pt")
    }

    /// `DraggableAnchors.closestAnchor(position, searchUpwards)`: the nearest anchor at or past
    /// `position` in the direction; when there is none, the first anchor (`minByOrNull` over
    /// all-infinite distances keeps the first).
    static func closestAnchor(to position: Double, forward: Bool, in detents: [Double]) -> Int {
        var best = 0
        var bestDelta = Double.infinity
        for (index, anchor) in detents.enumerated() {
            var delta = forward ? anchor - position : position - anchor
            if delta < 0 { delta = .infinity }
            if delta < bestDelta {
                best = index
                bestDelta = delta
            }
        }
        return best
    }
}

extension AnchoredRule: SheetRule {
    /// The thresholds.
    public static let parameters: [DetentParameter<Self>] = [
        .number("velocityThreshold", \.velocityThreshold, range: 0...100_000, unit: "dp/s", "velocityThreshold"),
        .number("positionalFraction", \.positionalFraction, range: 0...1, "positionalThreshold as a share of the gap"),
        .number("positionalThreshold", \.fixedThreshold, range: 0...10_000, unit: "dp", "positionalThreshold in dp (0: use the share)")
    ]
}
