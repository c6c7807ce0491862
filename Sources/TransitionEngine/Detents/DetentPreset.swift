/// A sheet library's release rule with its settings resolved (docs/MODEL.md §9).
///
/// Build one by name with overrides (``init(named:overrides:)``), as `--preset` and `--set`
/// do; ``decide(_:on:)`` is pure arithmetic.
public struct DetentPreset: Sendable, Hashable {
    /// Which library.
    public let name: DetentPresetName
    /// Its rule, with the settings.
    public let rule: DetentRule

    /// The library's defaults.
    public init(_ name: DetentPresetName) {
        self.name = name
        self.rule = DetentRule.defaults(of: name)
    }

    /// The preset called `name` with some settings changed.
    ///
    /// - Throws: ``TransitionEngineError`` for an unknown name or key, a number out of range,
    ///   or a bad `on`/`off`.
    public init(named name: String, overrides: [String: PresetValue] = [:]) throws(TransitionEngineError) {
        guard let preset = DetentPresetName(rawValue: name) else {
            throw .unknownPreset(name, valid: DetentPresetName.allCases.map(\.rawValue))
        }
        self.name = preset
        var rule = DetentRule.defaults(of: preset)
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            try rule.apply(key, value, preset: name)
        }
        self.rule = rule
    }

    /// Where the sheet goes after `release`.
    public func decide(_ release: DetentRelease, on sheet: SheetLayout) -> DetentDecision {
        rule.decide(release, on: sheet)
    }

    /// How the sheet moves to `outcome` after `release`: the library's own animation
    /// (docs/MODEL.md §9.5).
    public func settle(_ release: DetentRelease, to outcome: DetentOutcome, on sheet: SheetLayout, display: SheetDisplay) -> SheetSettle {
        rule.settle(release, to: outcome, on: sheet, display: display)
    }

    /// Why this library cannot drive `sheet`, or nil.
    public func problem(driving sheet: SheetLayout) -> String? {
        rule.problem(driving: sheet).map { "preset '\(name.rawValue)' cannot drive this sheet: \($0)" }
    }

    /// The settings, in catalog order, with their values.
    public var settings: [(key: String, value: PresetValue, unit: String, summary: String)] {
        rule.settings
    }

    /// The smallest change of the release velocity, points per second, that changes the
    /// outcome, looking up to ``marginSearch`` either way; nil when none within it does.
    ///
    /// A rule's outcome is a step function of velocity: the search walks out in 10 pt/s steps
    /// and then halves the step to 0.1 pt/s, so a margin is exact to 0.1 pt/s unless a step
    /// narrower than 10 pt/s hides inside one stride.
    public func velocityMargin(_ release: DetentRelease, on sheet: SheetLayout) -> (change: Double, outcome: DetentOutcome)? {
        let outcome = decide(release, on: sheet).outcome
        let stride = 10.0
        var distance = stride
        while distance <= Self.marginSearch {
            for sign in [-1.0, 1.0] {
                let probe = decide(release.withVelocity(release.velocity + sign * distance), on: sheet).outcome
                guard probe != outcome else { continue }
                var inside = distance - stride
                var outside = distance
                var found = probe
                while outside - inside > 0.1 {
                    let middle = (inside + outside) / 2
                    let mid = decide(release.withVelocity(release.velocity + sign * middle), on: sheet).outcome
                    if mid == outcome { inside = middle } else { outside = middle; found = mid }
                }
                return (sign * outside, found)
            }
            distance += stride
        }
        return nil
    }

    /// How far either way ``velocityMargin(_:on:)`` looks, points per second.
    public static let marginSearch = 10_000.0
}
