/// gorhom/react-native-bottom-sheet's release rule: `snapPoint` (`src/utilities/snapPoint.ts`)
/// called from `handleOnEnd` (`src/hooks/useGestureEventsHandlersDefault.tsx`).
/// docs/MODEL.md §9.3.
///
/// The destination is the candidate nearest `position + 0.2 s × velocity`, among every snap
/// point: there is no skip limit, so a fast flick crosses any number of detents. With
/// `enablePanDownToClose` the closed position is a candidate too, placed first. Ties go to the
/// first candidate in gorhom's order: the closed position, then the snap points from the least
/// expanded up.
public struct GorhomRule: Sendable, Hashable {
    /// The projection time, s: 0.2, hard-coded in `snapPoint.ts`.
    public var projection = 0.2
    /// `enablePanDownToClose`: false by default.
    public var closesOnPanDown = false

    /// The default props.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let point = release.position + projection * release.velocity
        // gorhom's order: closed (when enabled), then the least expanded snap point first.
        var candidates: [DetentOutcome] = closesOnPanDown ? [.dismissed] : []
        candidates += sheet.detents.indices.reversed().map { .detent($0) }
        let deltas = candidates.map { abs(point - sheet.position(of: $0)) }
        let smallest = deltas.min() ?? 0
        let chosen = candidates[deltas.firstIndex(of: smallest) ?? 0]
        return DetentDecision(
            chosen,
            "position + \(Decision.format(projection)) s × velocity = \(Decision.format(point)) pt: nearest is \(chosen)")
    }
}

extension GorhomRule: SheetRule {
    /// The props and the constant a custom `handleOnEnd` would change.
    public static let parameters: [DetentParameter<Self>] = [
        .number("projection", \.projection, range: 0...2, unit: "s", "snapPoint.ts: value + 0.2 × velocity (hard-coded)"),
        .flag("panDownToClose", \.closesOnPanDown, "enablePanDownToClose: the closed position is a snap point")
    ]
}
