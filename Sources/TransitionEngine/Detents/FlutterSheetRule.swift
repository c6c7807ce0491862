/// Flutter's `DraggableScrollableSheet` with `snap: true`: `_SnappingSimulation._getSnapSize`
/// (`packages/flutter/lib/src/widgets/draggable_scrollable_sheet.dart`). docs/MODEL.md §9.3.
///
/// Flutter works in the sheet's extent (its height above the bottom, growing upward), so a
/// detent at position `y` is the extent `H − y`. The next size is the first snap size at or
/// above the current extent. A velocity within the tolerance goes to the nearer of it and the
/// one below (the one above on a tie); otherwise the sheet goes one size in the velocity's
/// direction, never further.
public struct FlutterSheetRule: Sendable, Hashable {
    /// `tolerance.velocity`, logical px/s: a velocity this small or smaller is no velocity.
    /// The scroll physics' default, `1 / (0.050 × devicePixelRatio)`, is 20 ÷ the ratio.
    public var velocityTolerance = 20.0 / 3.0

    /// The defaults on a 3× screen.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let height = sheet.screenHeight
        // Snap sizes ascending = detents from the least expanded up.
        let order = Array(sheet.detents.indices.reversed())
        let sizes = order.map { height - sheet.detents[$0] }
        // The extent is kept between the sheet's min and max sizes while dragging.
        let current = min(max(height - release.position, sizes[0]), sizes[sizes.count - 1])
        // Flutter's velocity is the scroll's: positive when the sheet grows (the finger moves up).
        let velocity = -release.velocity
        // The extent is clamped, so some size is at or above it.
        let next = sizes.firstIndex { $0 >= current } ?? sizes.count - 1
        if next == 0 { return DetentDecision(.detent(order[0]), "at or below the smallest snap size") }
        if sizes[next] == current { return DetentDecision(.detent(order[next]), "exactly at a snap size") }
        let previous = next - 1
        if abs(velocity) <= velocityTolerance {
            let chosen = current - sizes[previous] < sizes[next] - current ? previous : next
            return DetentDecision(.detent(order[chosen]), "no fling (|v| ≤ \(Decision.format(velocityTolerance)) px/s): nearest snap size")
        }
        if velocity < 0 { return DetentDecision(.detent(order[previous]), "fling down: the next snap size below") }
        return DetentDecision(.detent(order[next]), "fling up: the next snap size above")
    }
}

extension FlutterSheetRule: SheetRule {
    /// The tolerance.
    public static let parameters: [DetentParameter<Self>] = [
        .number("velocityTolerance", \.velocityTolerance, range: 0...10_000, unit: "px/s", "the scroll physics' tolerance.velocity")
    ]
}
