/// FloatingPanel's release rule, transcribed from `scenee/FloatingPanel` (MIT) at `7efcc769`:
/// `Core.targetState(from:with:)` (`Sources/Core.swift` lines 1055–1107), `project` (1051–1053),
/// `LayoutAdapter.segment(at:forward:)` (`Sources/Layout.swift` 832–857), the removal test in
/// `panningEnd`/`shouldRemove` (`Core.swift` 760–824), and the defaults of
/// `FloatingPanelDefaultBehavior` (`Sources/Behavior.swift` 60–87). docs/MODEL.md §9.3.
///
/// The quirks kept: the projection is the WWDC 2018 "Designing Fluid Interfaces" formula
/// divided and multiplied back by the tip–full span; a segment is found with `<` going down
/// and `<=` going up, so a projection exactly at a detent falls in different segments; with
/// `shouldProjectMomentum` false (the default) the segment is taken at the release position
/// and the projection clamped one detent beyond it; a release with zero velocity takes its
/// direction from where the drag started.
public struct FloatingPanelRule: Sendable, Hashable {
    /// `momentumProjectionRate`: `UIScrollView.DecelerationRate.normal`, 0.998.
    public var projectionRate = 0.998
    /// `redirectionalProgress(from:to:)`: the share of a segment the projection must pass, 0.5.
    public var redirectionalProgress = 0.5
    /// `shouldProjectMomentum(_:to:)`: false unless a behaviour returns true.
    public var projectsMomentum = false
    /// `isRemovalInteractionEnabled`: false by default.
    public var removesOnSwipe = false
    /// `removalInteractionVelocityThreshold`: velocity ÷ distance to hidden, 1/s, 5.5.
    public var removalThreshold = 5.5

    /// The default behaviour.
    public init() {}

    /// Where the panel goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        let y = release.position
        let v = release.velocity
        // panningEnd (760–790): the target is computed first, then the removal test wins.
        if removesOnSwipe {
            let toHidden = abs(y - sheet.closedPosition)
            let vector = toHidden != 0 ? v / toHidden : 0
            if vector >= removalThreshold {
                return DetentDecision(
                    .dismissed, "removed: velocity ÷ distance to hidden = \(Decision.format(vector))/s ≥ \(Decision.format(removalThreshold))")
            }
        }
        return target(from: y, velocity: v, state: release.start, on: sheet)
    }

    /// `targetState(from:with:)`, line by line.
    func target(from currentY: Double, velocity: Double, state: Int, on sheet: SheetLayout) -> DetentDecision {
        let positions = sheet.detents
        let last = positions.count - 1
        guard positions.count > 1 else { return DetentDecision(.detent(state), "one detent: the panel stays") }
        let baseY = abs(positions[last] - positions[0])
        let vecY = velocity / baseY
        var pY = (vecY / 1000.0) * projectionRate / (1.0 - projectionRate) * baseY + currentY
        let distance = currentY - positions[state]
        let forward = velocity == 0 ? distance > 0 : velocity > 0
        var (lower, upper) = Self.segment(at: pY, forward: forward, in: positions)
        var (from, to) = forward ? (lower, upper) : (upper, lower)
        var clamped = false
        if !projectsMomentum {
            (lower, upper) = Self.segment(at: currentY, forward: forward, in: positions)
            // "Equate the segment out of {top,bottom} most state to the {top,bottom} most segment"
            if lower == upper {
                if forward { upper = min(lower + 1, last) } else { lower = max(lower - 1, 0) }
            }
            (from, to) = forward ? (lower, upper) : (upper, lower)
            let before = pY
            if forward {
                pY = max(min(pY, positions[min(to + 1, last)]), positions[from])
            } else {
                pY = max(min(pY, positions[from]), positions[max(to - 1, 0)])
            }
            clamped = pY != before
        }
        let threshold = max(min(redirectionalProgress, 1.0), 0.0)
        let progress = abs(pY - positions[from]) / abs(positions[from] - positions[to])
        let projected = "projected to \(Decision.format(pY)) pt\(clamped ? " (clamped to one detent beyond the release's segment)" : "")"
        if progress > threshold {
            return DetentDecision(
                .detent(to),
                "\(projected): \(Decision.percentText(progress)) of the way from detent \(from) to \(to) > \(Decision.percentText(threshold))")
        }
        return DetentDecision(
            .detent(from),
            "\(projected): \(Decision.percentText(progress)) of the way from detent \(from) to \(to) ≤ \(Decision.percentText(threshold))")
    }

    /// `segment(at:forward:)`: the detents either side of `position`, as indices; at either end
    /// both are the end detent (FloatingPanel's `nil` filled in with the first or last state).
    static func segment(at position: Double, forward: Bool, in positions: [Double]) -> (lower: Int, upper: Int) {
        let upperIndex = forward ? positions.firstIndex { position < $0 } : positions.firstIndex { position <= $0 }
        switch upperIndex {
        case 0: return (0, 0)
        case let index?: return (index - 1, index)
        case nil: return (positions.count - 1, positions.count - 1)
        }
    }
}

extension FloatingPanelRule: SheetRule {
    /// The behaviour's settings.
    public static let parameters: [DetentParameter<Self>] = [
        .number("projectionRate", \.projectionRate, range: 0...0.9999, "momentumProjectionRate: the deceleration rate of the projection"),
        .number("redirectionalProgress", \.redirectionalProgress, range: 0...1, "redirectionalProgress(from:to:): the share of a segment to pass"),
        .flag("projectMomentum", \.projectsMomentum, "shouldProjectMomentum(_:to:): project past the next detent"),
        .flag("removal", \.removesOnSwipe, "isRemovalInteractionEnabled: a fast swipe down removes the panel"),
        .number("removalThreshold", \.removalThreshold, range: 0...1000, unit: "1/s", "removalInteractionVelocityThreshold")
    ]
}
