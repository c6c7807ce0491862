/// The outcome of a finish/cancel decision, with what decided it and by how much.
///
/// `Decision` holds only numbers and enums, so making one never allocates; ``reason`` is
/// built on demand for display.
public struct Decision: Sendable, Hashable, Codable {
    /// Which way the transition goes.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Complete the transition (`q = 1`).
        case finish
        /// Return to the start (`q = 0`).
        case cancel

        /// The completion target `q`.
        @inlinable
        public var target: Double { self == .finish ? 1 : 0 }
    }

    /// The statistic the deciding test compared with its threshold.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// Progress at release (D1).
        case progress
        /// Progress plus a linear look-ahead `h·v_p` (D4).
        case lookAhead
        /// WWDC18 momentum projection (D5).
        case projection
        /// Speed ‖v⃗‖ against a flick threshold; the sign of `v` then decided (D2).
        case flick
        /// Axis speed against Flutter's fling thresholds; the sign then decided (D3).
        case fling
        /// Axis velocity against a dead-band; its sign decided (D6).
        case direction
        /// A fixed fallback (D6 inside its dead-band with a fixed fallback).
        case fallback
        /// The gesture was `cancelled` and the policy cancels on that phase.
        case cancelledPhase
        /// No `changed` callback came before the release, and the policy's flag is set only
        /// there (``DecisionPolicy/requiresChange``).
        case noChange
    }

    /// How the statistic was compared with the threshold.
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// `statistic ≥ threshold` means finish.
        case atLeast
        /// `statistic > threshold` means finish (e.g. the `zoom` source's `p > 0.5`).
        case greaterThan

        /// Whether `statistic` passes.
        @inlinable
        public func passes(_ statistic: Double, _ threshold: Double) -> Bool {
            self == .atLeast ? statistic >= threshold : statistic > threshold
        }
    }

    /// Finish or cancel.
    public var outcome: Outcome
    /// What was compared.
    public var basis: Basis
    /// The value of the deciding statistic (progress units, or pt/s for velocity bases).
    public var statistic: Double
    /// The threshold it was compared with.
    public var threshold: Double
    /// The comparison used.
    public var comparison: Comparison
    /// How far the statistic was from its threshold, `|statistic − threshold|`, in the
    /// statistic's unit (0 for ``Basis/cancelledPhase`` and ``Basis/fallback``).
    public var margin: Double
    /// The axis velocity after the D10 gates, pt/s (what completion models use).
    public var axisVelocity: Double
    /// The progress velocity after the D10 gates, 1/s.
    public var progressVelocity: Double
    /// True when a D10 gate changed the velocity.
    public var isVelocityGated: Bool

    /// Creates a decision.
    public init(
        outcome: Outcome,
        basis: Basis,
        statistic: Double,
        threshold: Double,
        comparison: Comparison,
        axisVelocity: Double,
        progressVelocity: Double,
        isVelocityGated: Bool = false
    ) {
        self.outcome = outcome
        self.basis = basis
        self.statistic = statistic
        self.threshold = threshold
        self.comparison = comparison
        switch basis {
        case .cancelledPhase, .fallback, .noChange: margin = 0
        default: margin = abs(statistic - threshold)
        }
        self.axisVelocity = axisVelocity
        self.progressVelocity = progressVelocity
        self.isVelocityGated = isVelocityGated
    }

    /// The completion target `q`.
    @inlinable
    public var target: Double { outcome.target }

    /// True when the statistic is a velocity in pt/s rather than a progress.
    public var isVelocityBased: Bool {
        switch basis {
        case .flick, .fling, .direction: true
        default: false
        }
    }

    /// A one-line explanation, e.g. `"projected 0.62 ≥ 0.5 → finish"`.
    public var reason: String {
        let passed = comparison.passes(statistic, threshold)
        let symbol: String
        switch comparison {
        case .atLeast: symbol = passed ? "≥" : "<"
        case .greaterThan: symbol = passed ? ">" : "≤"
        }
        let (value, limit) = Self.formatPair(statistic, threshold)
        let verdict = outcome.rawValue
        switch basis {
        case .progress:
            return "progress \(value) \(symbol) \(limit) → \(verdict)"
        case .lookAhead:
            return "look-ahead \(value) \(symbol) \(limit) → \(verdict)"
        case .projection:
            return "projected \(value) \(symbol) \(limit) → \(verdict)"
        case .flick:
            return "flick: speed \(value) pt/s \(symbol) \(limit) pt/s, velocity \(Self.format(axisVelocity)) pt/s → \(verdict)"
        case .fling:
            return "fling: axis speed \(value) pt/s \(symbol) \(limit) pt/s, velocity \(Self.format(axisVelocity)) pt/s → \(verdict)"
        case .direction:
            return "direction: |v| \(value) pt/s \(symbol) \(limit) pt/s, velocity \(Self.format(axisVelocity)) pt/s → \(verdict)"
        case .fallback:
            return "velocity inside the dead-band (\(value) pt/s) → \(verdict) by default"
        case .cancelledPhase:
            return "gesture cancelled → cancel"
        case .noChange:
            return "no changed callback before the release → cancel"
        }
    }

    /// Formats a number with at most `digits` decimals (two by default), without Foundation.
    static func format(_ value: Double, digits: Int = 2) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() && abs(rounded) < 1e15 {
            return String(Int(rounded))
        }
        return "\(rounded)"
    }

    /// A share as a whole percentage, `42 %` (a sheet rule's reason).
    static func percentText(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction.isNaN ? "no distance" : "∞" }
        return "\(format(fraction * 100, digits: 0)) %"
    }

    /// Formats two numbers with just enough decimals (2 to 6) to tell them apart, so a reason
    /// never reads "0.5 < 0.5".
    static func formatPair(_ first: Double, _ second: Double) -> (String, String) {
        var digits = 2
        while digits < 6 && first != second && format(first, digits: digits) == format(second, digits: digits) {
            digits += 1
        }
        return (format(first, digits: digits), format(second, digits: digits))
    }

    /// JSON keys in snake_case, the one key style of PanTrace's JSON (docs/PROTOCOL.md §4).
    private enum CodingKeys: String, CodingKey {
        case outcome, basis, statistic, threshold, comparison, margin
        case axisVelocity = "axis_velocity", progressVelocity = "progress_velocity", isVelocityGated = "is_velocity_gated"
    }
}
