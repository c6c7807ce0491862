/// One setting of a detent rule that `--set KEY=VALUE` may change (docs/MODEL.md §9.2).
public struct DetentParameter<Rule>: Sendable {
    /// What values the setting takes.
    public enum Allowed: Sendable, Hashable {
        /// A number in this range.
        case range(ClosedRange<Double>)
        /// `on` or `off`.
        case flag
    }

    /// The key, e.g. `redirectionalProgress`.
    public let key: String
    /// The unit, or empty.
    public let unit: String
    /// The values it takes.
    public let allowed: Allowed
    /// One line: what it is in the library.
    public let summary: String
    let read: @Sendable (Rule) -> PresetValue
    let write: @Sendable (inout Rule, PresetValue) -> Void

    /// A numeric setting stored at `path`.
    static func number(
        _ key: String, _ path: any WritableKeyPath<Rule, Double> & Sendable, range: ClosedRange<Double>, unit: String = "", _ summary: String
    ) -> Self {
        Self(
            key: key, unit: unit, allowed: .range(range), summary: summary,
            read: { .number($0[keyPath: path]) },
            write: { rule, value in rule[keyPath: path] = value.number ?? rule[keyPath: path] })
    }

    /// An on/off setting stored at `path`.
    static func flag(_ key: String, _ path: any WritableKeyPath<Rule, Bool> & Sendable, _ summary: String) -> Self {
        Self(
            key: key, unit: "", allowed: .flag, summary: summary,
            read: { .choice($0[keyPath: path] ? "on" : "off") },
            write: { rule, value in rule[keyPath: path] = value.description == "on" })
    }

    /// Checks `value` and writes it into `rule`.
    func apply(_ value: PresetValue, to rule: inout Rule, preset: String) throws(TransitionEngineError) {
        switch (allowed, value) {
        case (.range(let range), .number(let number)):
            guard number.isFinite, range.contains(number) else {
                throw .outOfRange(key, value: number, range: range, unit: unit, preset: preset)
            }
            write(&rule, value)
        case (.range, .choice(let text)):
            throw .expectedNumber(key, value: text, preset: preset)
        case (.flag, .choice(let text)):
            guard ["on", "off"].contains(text) else { throw .invalidChoice(key, value: text, choices: ["on", "off"], preset: preset) }
            write(&rule, value)
        case (.flag, .number(let number)):
            throw .invalidChoice(key, value: "\(number)", choices: ["on", "off"], preset: preset)
        }
    }
}
