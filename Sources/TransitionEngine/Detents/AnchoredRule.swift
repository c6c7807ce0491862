/// Jetpack Compose foundation's `anchoredDraggable` release rule: `DraggableAnchors.computeTarget`
/// (`compose/foundation/foundation/src/commonMain/kotlin/androidx/compose/foundation/gestures/AnchoredDraggable.kt`
/// lines 1486–1515 at androidx `00670133`, `closestAnchor` 1623–1650, defaults 1527 and 1717–1761).
/// docs/MODEL.md §9.3.
///
/// The settled anchor plays no part. No velocity: the closest anchor (a tie goes to the later
/// anchor: the loop keeps `distance <= minDistance`). At least the velocity threshold: the
/// closest anchor at or past the offset in the velocity's direction, so a fling never skips.
/// Slower: between the anchors either side of the offset, go on in the velocity's direction
/// once the offset is at least the positional threshold of the gap from the anchor behind.
public struct AnchoredRule: Sendable, Hashable {
    /// `AnchoredDraggableMinFlingVelocity`, dp/s (= points per second): 125.
    public var velocityThreshold = 125.0
    /// `AnchoredDraggableDefaults.PositionalThreshold`: half the gap.
    public var positionalFraction = 0.5

    /// The foundation's defaults.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        // `AnchoredDraggableState` coerces every drag into minAnchor…maxAnchor.
        let offset = min(max(release.position, sheet.detents[0]), sheet.detents[sheet.lastIndex])
        let velocity = release.velocity
        let anchors = sheet.detents
        if !(abs(velocity) > 0) {
            var closest = 0
            for (index, anchor) in anchors.enumerated() where abs(offset - anchor) <= abs(offset - anchors[closest]) { closest = index }
            return DetentDecision(.detent(closest), "no velocity: the closest anchor")
        }
        let forward = velocity > 0
        if abs(velocity) >= abs(velocityThreshold) {
            let target = Self.closestAnchor(to: offset, upwards: forward, in: anchors, keepsLater: true)
            return DetentDecision(
                .detent(target),
                "|velocity| \(Decision.format(abs(velocity))) ≥ \(Decision.format(velocityThreshold)) pt/s: the closest anchor that way"
            )
        }
        let left = Self.closestAnchor(to: offset, upwards: false, in: anchors, keepsLater: true)
        let right = Self.closestAnchor(to: offset, upwards: true, in: anchors, keepsLater: true)
        let threshold = abs(abs(anchors[left] - anchors[right]) * positionalFraction)
        let fromStart = abs((forward ? anchors[left] : anchors[right]) - offset)
        let reached = fromStart >= threshold
        let target = reached ? (forward ? right : left) : (forward ? left : right)
        return DetentDecision(
            .detent(target),
            "slow (< \(Decision.format(velocityThreshold)) pt/s): \(Decision.format(fromStart)) pt past the anchor behind "
                + "\(reached ? "≥" : "<") threshold \(Decision.format(threshold)) pt")
    }

    /// `closestAnchor(position, searchUpwards)`: the nearest anchor at or past `position` in the
    /// direction (upwards = larger positions). `keepsLater`: a tie, or no anchor that way, gives
    /// the later anchor (foundation: `distance <= minDistance`); otherwise the earlier
    /// (Material 3's internal copy: `minByOrNull`).
    static func closestAnchor(to position: Double, upwards: Bool, in anchors: [Double], keepsLater: Bool) -> Int {
        var best = -1
        var bestDistance = Double.infinity
        for (index, anchor) in anchors.enumerated() {
            let delta = upwards ? anchor - position : position - anchor
            let distance = delta < 0 ? Double.infinity : delta
            if best == -1 || (keepsLater ? distance <= bestDistance : distance < bestDistance) {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}

extension AnchoredRule: SheetRule {
    /// The thresholds.
    public static let parameters: [DetentParameter<Self>] = [
        .number("velocityThreshold", \.velocityThreshold, range: 0...100_000, unit: "dp/s", "velocityThreshold (125 dp/s)"),
        .number("positionalFraction", \.positionalFraction, range: 0...1, "positionalThreshold as a share of the gap (0.5)")
    ]
}
