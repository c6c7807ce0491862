/// slackhq/PanModal's release rule: `respond(to:)` on `.ended` in
/// `PanModal/Presentation/PanModalPresentationController.swift`, with the defaults of
/// `PanModalPresentable+Defaults.swift`. docs/MODEL.md §9.3.
///
/// Two detents: long form (0) and short form (1). Faster than `1000 × (1 −
/// snapMovementSensitivity)` pt/s, up goes to long form and down to short form when the panel
/// is above it and nearer long form than the bottom, else it dismisses; slower, the nearest of
/// the bottom, short form and long form.
public struct PanModalRule: Sendable, Hashable {
    /// `snapMovementSensitivity`: 0.7, so the gate is 300 pt/s.
    public var snapMovementSensitivity = 0.7
    /// `allowsDragToDismiss`: true.
    public var allowsDragToDismiss = true

    /// The defaults.
    public init() {}

    /// Where the panel goes.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        // `adjust(toYPosition:)` keeps the panel at or below long form (anchorModalToLongForm).
        let y = max(release.position, sheet.detents[0])
        let longForm = sheet.detents[0]
        let shortForm = sheet.detents[sheet.lastIndex]
        let bottom = sheet.closedPosition
        let gate = 1000 * (1 - snapMovementSensitivity)
        // isVelocityWithinSensitivityRange: (|v| − 1000 × (1 − sensitivity)) > 0.
        if abs(release.velocity) - gate > 0 {
            if release.velocity < 0 { return DetentDecision(.detent(0), "fling up faster than \(Decision.format(gate)) pt/s: long form") }
            if (Self.nearest(to: y, in: [longForm, bottom]) == longForm && y < shortForm) || !allowsDragToDismiss {
                return DetentDecision(.detent(sheet.lastIndex), "fling down from nearer long form, above short form: short form")
            }
            return DetentDecision(.dismissed, "fling down faster than \(Decision.format(gate)) pt/s: dismiss")
        }
        let position = Self.nearest(to: y, in: [bottom, shortForm, longForm])
        if position == longForm { return DetentDecision(.detent(0), "slow release: long form is nearest") }
        if position == shortForm || !allowsDragToDismiss { return DetentDecision(.detent(sheet.lastIndex), "slow release: short form is nearest") }
        return DetentDecision(.dismissed, "slow release: the bottom is nearest")
    }

    /// `nearest(to:inValues:)`: `values.min(by: { abs(number − $0) < abs(number − $1) })`, the
    /// first of equals.
    static func nearest(to number: Double, in values: [Double]) -> Double {
        values.min { abs(number - $0) < abs(number - $1) } ?? number
    }
}

extension PanModalRule: SheetRule {
    /// The presentable's settings.
    public static let parameters: [DetentParameter<Self>] = [
        .number("snapMovementSensitivity", \.snapMovementSensitivity, range: 0...1, "snapMovementSensitivity"),
        .flag("allowsDragToDismiss", \.allowsDragToDismiss, "allowsDragToDismiss")
    ]

    /// PanModal has a long form and a short form.
    public func problem(driving sheet: SheetLayout) -> String? {
        sheet.detents.count == 2 ? nil : "PanModal has two detents (long form, short form), the sheet has \(sheet.detents.count)"
    }
}
