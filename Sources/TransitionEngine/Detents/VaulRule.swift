/// vaul's release rule for a bottom drawer: `onRelease` in `src/use-snap-points.ts` (lines
/// 159–225) with snap points, `onRelease` in `src/index.tsx` (600–663) without, at
/// `emilkowalski/vaul@3e97aac6`. docs/MODEL.md §9.3.
///
/// vaul's "velocity" is not an estimate: it is the distance from the pointer's down to its lift
/// over the whole press in ms, hold included (``DetentVelocityGate/pressMean``); here it arrives
/// in points per second and is read back as px/ms. Every comparison is strict. The closed
/// position is never the nearest candidate: with snap points a drag closes only through the
/// fast branch, or by stepping down from the least expanded point.
public struct VaulRule: Sendable, Hashable {
    /// Above this press speed, px/ms, a release jumps to an end: 2 (`use-snap-points.ts`).
    public var fastVelocity = 2.0
    /// `VELOCITY_THRESHOLD`, px/ms: above it a short drag steps one snap point (0.4).
    public var velocityThreshold = 0.4
    /// A step needs a drag shorter than this share of the window's height: 0.4.
    public var stepDragFraction = 0.4
    /// `closeThreshold` without snap points: the share of the drawer's height a drag down must
    /// cover to close (`CLOSE_THRESHOLD`, 0.25).
    public var closeThreshold = 0.25
    /// `snapToSequentialPoint`: turns off the fast branch (false).
    public var snapsSequentially = false
    /// `dismissible`: true.
    public var dismissible = true

    /// The drawer's defaults.
    public init() {}

    /// Where the drawer goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let speed = abs(release.velocity) / 1000  // px/ms, never negative
        // draggedDistance: positive toward open (up), as `distMoved` for a bottom drawer.
        let dragged = sheet.detents[release.start] - release.position
        if sheet.detents.count == 1 { return withoutSnapPoints(speed: speed, dragged: dragged, on: sheet) }
        // vaul counts snap points from the least open; PanTrace's index 0 is the most open.
        let last = sheet.lastIndex
        let active = last - release.start
        let speedText = "\(format3(speed)) px/ms"
        let up = dragged > 0
        if !snapsSequentially, speed > fastVelocity, !up {
            return dismissible
                ? DetentDecision(.dismissed, "press speed \(speedText) > \(fastVelocity) down: close")
                : DetentDecision(.detent(last), "press speed \(speedText) > \(fastVelocity) down, not dismissible: the first snap point")
        }
        if !snapsSequentially, speed > fastVelocity, up {
            return DetentDecision(.detent(0), "press speed \(speedText) > \(fastVelocity) up: the last snap point")
        }
        if speed > velocityThreshold, abs(dragged) < sheet.screenHeight * stepDragFraction {
            if up {
                if active == last { return DetentDecision(.detent(0), "press speed \(speedText) > \(velocityThreshold) up at the last snap point") }
                return DetentDecision(
                    .detent(release.start - 1),
                    "press speed \(speedText) > \(velocityThreshold), drag under \(Int(stepDragFraction * 100)) % of the window: one snap point up")
            }
            if active == 0 {
                // closeDrawer() runs, then snapToPoint(offset[-1]) with no point: the drawer
                // closes (when not dismissible the step has nowhere to go and it stays).
                return dismissible
                    ? DetentDecision(.dismissed, "press speed \(speedText) > \(velocityThreshold) down from the first snap point: close")
                    : DetentDecision(.detent(last), "press speed \(speedText) > \(velocityThreshold) down from the first snap point, not dismissible")
            }
            return DetentDecision(
                .detent(release.start + 1),
                "press speed \(speedText) > \(velocityThreshold), drag under \(Int(stepDragFraction * 100)) % of the window: one snap point down")
        }
        // reduce(|curr − cur| < |prev − cur| ? curr : prev) from vaul's first (least open) point:
        // a tie keeps the less open one.
        var closest = last
        for index in sheet.detents.indices.reversed().dropFirst()
        where abs(sheet.detents[index] - release.position) < abs(sheet.detents[closest] - release.position) {
            closest = index
        }
        return DetentDecision(.detent(closest), "press speed \(speedText): the snap point closest to the release")
    }

    /// `index.tsx` `onRelease` for a drawer with no snap points (one detent here).
    private func withoutSnapPoints(speed: Double, dragged: Double, on sheet: SheetLayout) -> DetentDecision {
        if dragged > 0 { return DetentDecision(.detent(0), "dragged toward open: reset") }
        if speed > velocityThreshold, dismissible { return DetentDecision(.dismissed, "press speed > \(velocityThreshold) px/ms: close") }
        let visible = sheet.screenHeight - sheet.detents[0]
        if abs(dragged) >= visible * closeThreshold, dismissible {
            return DetentDecision(.dismissed, "dragged \(Int(closeThreshold * 100)) % of the drawer's height or more: close")
        }
        return DetentDecision(.detent(0), "reset")
    }

    private func format3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension VaulRule: SheetRule {
    /// The drawer's props and constants.
    public static let parameters: [DetentParameter<Self>] = [
        .number("fastVelocity", \.fastVelocity, range: 0...100, unit: "px/ms", "the end-jump speed (2)"),
        .number("velocityThreshold", \.velocityThreshold, range: 0...100, unit: "px/ms", "VELOCITY_THRESHOLD (0.4)"),
        .number("stepDragFraction", \.stepDragFraction, range: 0...1, "a step needs a drag under this share of the window (0.4)"),
        .number("closeThreshold", \.closeThreshold, range: 0...1, "closeThreshold without snap points (0.25)"),
        .flag("snapToSequentialPoint", \.snapsSequentially, "snapToSequentialPoint"),
        .flag("dismissible", \.dismissible, "dismissible")
    ]
}
