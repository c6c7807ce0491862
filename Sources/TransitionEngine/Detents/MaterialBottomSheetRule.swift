/// Material Components for Android's `BottomSheetBehavior`: the drag callback's
/// `onViewReleased` and `shouldHide`
/// (`lib/java/com/google/android/material/bottomsheet/BottomSheetBehavior.java`).
/// docs/MODEL.md §9.3.
///
/// Two detents are a `fitToContents` sheet (expanded, collapsed); three are a sheet with
/// `fitToContents = false` (expanded, half expanded, collapsed). Android works in pixels: the
/// position and velocity are multiplied by ``density``, the view's top is an integer, and the
/// significant velocity (500) is in pixels per second whatever the screen. Quirks kept: any
/// upward velocity expands with no speed term; a release that reads as 0 (every release under
/// the minimum fling, through `ViewDragHelper`) takes the "nearest" branch, which compares a
/// position with a distance (`currentTop < |currentTop − collapsedOffset|`); moving down never
/// expands.
public struct MaterialBottomSheetRule: Sendable, Hashable {
    /// Pixels per dp of the screen replayed on (2.625: a 420 dpi phone).
    public var density = 2.625
    /// `significantVelocityThreshold`, px/s: `DEFAULT_SIGNIFICANT_VEL_THRESHOLD` = 500.
    public var significantVelocity = 500.0
    /// `hideable`: false.
    public var hideable = false
    /// `skipCollapsed`: false. When true (and hideable), `shouldHide` says yes at once.
    public var skipsCollapsed = false
    /// `HIDE_FRICTION`: the hide test projects 0.1 s of velocity.
    public var hideFriction = 0.1
    /// `HIDE_THRESHOLD`: 0.5 of the peek height.
    public var hideThreshold = 0.5

    /// The defaults.
    public init() {}

    /// Where the sheet goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let fitToContents = sheet.detents.count == 2
        let px = { (points: Double) in Int((points * density).rounded()) }
        let expanded = px(sheet.detents[0])
        let half = fitToContents ? expanded : px(sheet.detents[1])
        let collapsed = px(sheet.detents[sheet.lastIndex])
        let parentHeight = px(sheet.screenHeight)
        // ViewDragHelper.Callback.clampViewPositionVertical: expanded…(hideable ? parent : collapsed).
        let top = min(max(px(release.position), expanded), hideable ? parentHeight : collapsed)
        let yvel = release.velocity * density
        // A sheet replay reads the vertical velocity only, so the "mostly horizontal" branch
        // (|xvel| > |yvel|) never fires (docs/MODEL.md §9.3).
        let xvel = 0.0
        let halfIndex = fitToContents ? 0 : 1
        let last = sheet.lastIndex
        if yvel < 0 {
            if fitToContents { return DetentDecision(.detent(0), "moving up (yvel < 0), fit to contents: expanded") }
            return top > half
                ? DetentDecision(.detent(halfIndex), "moving up (yvel < 0) from below half: half expanded")
                : DetentDecision(.detent(0), "moving up (yvel < 0) from above half: expanded")
        }
        if hideable, shouldHide(top: top, yvel: yvel, collapsed: collapsed, parentHeight: parentHeight) {
            let releasedLow = top > (parentHeight + expanded) / 2
            if (abs(xvel) < abs(yvel) && yvel > significantVelocity) || releasedLow {
                return DetentDecision(.dismissed, releasedLow ? "hideable, released low: hidden" : "hideable, fast downward swipe: hidden")
            }
            if fitToContents { return DetentDecision(.detent(0), "hideable but not fast or low, fit to contents: expanded") }
            return abs(top - expanded) < abs(top - half)
                ? DetentDecision(.detent(0), "hideable but not fast or low: expanded is nearer")
                : DetentDecision(.detent(halfIndex), "hideable but not fast or low: half expanded is nearer")
        }
        if yvel == 0 || abs(xvel) > abs(yvel) {
            if fitToContents {
                return abs(top - expanded) < abs(top - collapsed)
                    ? DetentDecision(.detent(0), "no velocity (under the minimum fling reads as 0): expanded is nearer")
                    : DetentDecision(.detent(last), "no velocity (under the minimum fling reads as 0): collapsed is nearer")
            }
            if top < half {
                // The quirk: a position compared with a distance.
                return top < abs(top - collapsed)
                    ? DetentDecision(.detent(0), "no velocity, above half: top < |top − collapsed| (a position against a distance): expanded")
                    : DetentDecision(.detent(halfIndex), "no velocity, above half: top ≥ |top − collapsed|: half expanded")
            }
            return abs(top - half) < abs(top - collapsed)
                ? DetentDecision(.detent(halfIndex), "no velocity, below half: half expanded is nearer")
                : DetentDecision(.detent(last), "no velocity, below half: collapsed is nearer")
        }
        if fitToContents { return DetentDecision(.detent(last), "moving down, fit to contents: collapsed") }
        return abs(top - half) < abs(top - collapsed)
            ? DetentDecision(.detent(halfIndex), "moving down: half expanded is nearer than collapsed")
            : DetentDecision(.detent(last), "moving down: collapsed is nearer than half expanded")
    }

    /// `shouldHide` (lines 1784–1798): always with `skipCollapsed`; never above the collapsed
    /// offset; else `|top + yvel × HIDE_FRICTION − collapsedOffset| / peek > HIDE_THRESHOLD`.
    func shouldHide(top: Int, yvel: Double, collapsed: Int, parentHeight: Int) -> Bool {
        if skipsCollapsed { return true }
        if top < collapsed { return false }
        let peek = Double(parentHeight - collapsed)
        let newTop = Double(top) + yvel * hideFriction
        return abs(newTop - Double(collapsed)) / peek > hideThreshold
    }
}

extension MaterialBottomSheetRule: SheetRule {
    /// The behaviour's settings.
    public static let parameters: [DetentParameter<Self>] = [
        .number("density", \.density, range: 0.5...8, unit: "px/dp", "the screen's density"),
        .number("significantVelocity", \.significantVelocity, range: 0...100_000, unit: "px/s", "significantVelocityThreshold (500)"),
        .flag("hideable", \.hideable, "hideable"),
        .flag("skipCollapsed", \.skipsCollapsed, "skipCollapsed: a release down hides rather than collapses"),
        .number("hideFriction", \.hideFriction, range: 0...10, unit: "s", "HIDE_FRICTION (0.1)"),
        .number("hideThreshold", \.hideThreshold, range: 0...10, "HIDE_THRESHOLD (0.5)")
    ]

    /// Expanded and collapsed, with half expanded between them when there are three.
    public func problem(driving sheet: SheetLayout) -> String? {
        (2...3).contains(sheet.detents.count)
            ? nil : "BottomSheetBehavior has two or three detents (expanded, half expanded, collapsed), the sheet has \(sheet.detents.count)"
    }
}
