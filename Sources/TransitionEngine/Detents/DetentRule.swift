/// One library's rule, as a value (docs/MODEL.md §9.3).
public enum DetentRule: Sendable, Hashable {
    /// scenee/FloatingPanel.
    case floatingPanel(FloatingPanelRule)
    /// emilkowalski/vaul.
    case vaul(VaulRule)
    /// Material Components' `BottomSheetBehavior`.
    case materialBottomSheet(MaterialBottomSheetRule)
    /// Compose foundation's `anchoredDraggable`.
    case anchored(AnchoredRule)
    /// Compose Material 3 sheets (their internal copy of `AnchoredDraggableState`).
    case material3Sheet(Material3SheetRule)
    /// Flutter's `DraggableScrollableSheet`.
    case flutterSheet(FlutterSheetRule)
    /// gorhom/react-native-bottom-sheet.
    case gorhom(GorhomRule)
    /// slackhq/PanModal.
    case panModal(PanModalRule)
    /// Chromium's CSS scroll snap.
    case cssScrollSnap(CssScrollSnapRule)

    static func defaults(of name: DetentPresetName) -> Self {
        switch name {
        case .floatingpanel: .floatingPanel(FloatingPanelRule())
        case .vaul: .vaul(VaulRule())
        case .mdcBottomsheet: .materialBottomSheet(MaterialBottomSheetRule())
        case .composeAnchored: .anchored(AnchoredRule())
        case .m3Sheet: .material3Sheet(Material3SheetRule())
        case .flutterSheet: .flutterSheet(FlutterSheetRule())
        case .gorhom: .gorhom(GorhomRule())
        case .panmodal: .panModal(PanModalRule())
        case .cssScrollSnap: .cssScrollSnap(CssScrollSnapRule())
        }
    }

    /// Where the sheet goes after `release`.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        switch self {
        case .floatingPanel(let rule): rule.decide(release, on: sheet)
        case .vaul(let rule): rule.decide(release, on: sheet)
        case .materialBottomSheet(let rule): rule.decide(release, on: sheet)
        case .anchored(let rule): rule.decide(release, on: sheet)
        case .material3Sheet(let rule): rule.decide(release, on: sheet)
        case .flutterSheet(let rule): rule.decide(release, on: sheet)
        case .gorhom(let rule): rule.decide(release, on: sheet)
        case .panModal(let rule): rule.decide(release, on: sheet)
        case .cssScrollSnap(let rule): rule.decide(release, on: sheet)
        }
    }

    /// How the sheet moves to `outcome` after `release` (docs/MODEL.md §9.5).
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        switch self {
        case .floatingPanel(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .vaul(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .materialBottomSheet(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .anchored(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .material3Sheet(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .flutterSheet(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .gorhom(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .panModal(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        case .cssScrollSnap(let rule): rule.settle(release, to: outcome, on: sheet, display: display)
        }
    }

    /// Why the library cannot drive `sheet`, or nil.
    public func problem(driving sheet: SheetLayout) -> String? {
        switch self {
        case .floatingPanel(let rule): rule.problem(driving: sheet)
        case .vaul(let rule): rule.problem(driving: sheet)
        case .materialBottomSheet(let rule): rule.problem(driving: sheet)
        case .anchored(let rule): rule.problem(driving: sheet)
        case .material3Sheet(let rule): rule.problem(driving: sheet)
        case .flutterSheet(let rule): rule.problem(driving: sheet)
        case .gorhom(let rule): rule.problem(driving: sheet)
        case .panModal(let rule): rule.problem(driving: sheet)
        case .cssScrollSnap(let rule): rule.problem(driving: sheet)
        }
    }

    var settings: [(key: String, value: PresetValue, unit: String, summary: String)] {
        switch self {
        case .floatingPanel(let rule): Self.settings(of: rule)
        case .vaul(let rule): Self.settings(of: rule)
        case .materialBottomSheet(let rule): Self.settings(of: rule)
        case .anchored(let rule): Self.settings(of: rule)
        case .material3Sheet(let rule): Self.settings(of: rule)
        case .flutterSheet(let rule): Self.settings(of: rule)
        case .gorhom(let rule): Self.settings(of: rule)
        case .panModal(let rule): Self.settings(of: rule)
        case .cssScrollSnap(let rule): Self.settings(of: rule)
        }
    }

    mutating func apply(_ key: String, _ value: PresetValue, preset: String) throws(TransitionEngineError) {
        switch self {
        case .floatingPanel(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .floatingPanel(rule)
        case .vaul(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .vaul(rule)
        case .materialBottomSheet(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .materialBottomSheet(rule)
        case .anchored(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .anchored(rule)
        case .material3Sheet(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .material3Sheet(rule)
        case .flutterSheet(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .flutterSheet(rule)
        case .gorhom(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .gorhom(rule)
        case .panModal(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .panModal(rule)
        case .cssScrollSnap(var rule): try Self.apply(key, value, to: &rule, preset: preset); self = .cssScrollSnap(rule)
        }
    }

    private static func settings<Rule: SheetRule>(of rule: Rule) -> [(key: String, value: PresetValue, unit: String, summary: String)] {
        Rule.parameters.map { ($0.key, $0.read(rule), $0.unit, $0.summary) }
    }

    private static func apply<Rule: SheetRule>(_ key: String, _ value: PresetValue, to rule: inout Rule, preset: String) throws(TransitionEngineError)
    {
        guard let parameter = Rule.parameters.first(where: { $0.key == key }) else {
            throw .unknownParameter(key, preset: preset, valid: Rule.parameters.map(\.key))
        }
        try parameter.apply(value, to: &rule, preset: preset)
    }
}
