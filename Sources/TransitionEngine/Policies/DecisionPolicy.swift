/// A complete finish/cancel policy: D10 gates, a rule D1–D6, and what a `cancelled` phase does.
public struct DecisionPolicy: Sendable, Hashable, Codable {
    /// What a release in the `cancelled` phase does.
    public enum CancelledPhaseHandling: String, Sendable, Hashable, Codable, CaseIterable {
        /// Always cancel (the default, docs/MODEL.md §3.9).
        case cancel
        /// Decide with the rule, like `ended` (Hero's examples, and the `zoom` and
        /// `swipe-dismiss` sources' `case .ended, .cancelled:` if/else).
        case decide
    }

    /// The rule.
    public var rule: DecisionRule
    /// The velocity gates applied first.
    public var gates: VelocityGates
    /// What a `cancelled` release does.
    public var cancelledPhase: CancelledPhaseHandling
    /// When true, a release with no `changed` callback before it cancels, as the swipe
    /// article's flag, set only in `.changed`, is still false (docs/MODEL.md §6.5).
    public var requiresChange: Bool

    /// Creates a policy.
    public init(rule: DecisionRule, gates: VelocityGates = .none, cancelledPhase: CancelledPhaseHandling = .cancel, requiresChange: Bool = false) {
        self.rule = rule
        self.gates = gates
        self.cancelledPhase = cancelledPhase
        self.requiresChange = requiresChange
    }

    /// Decides a release. Pure, and free of heap allocation, so a tuner can call it in a
    /// tight loop over (trace × parameter) points.
    public func decide(_ release: ReleaseState) -> Decision {
        let (gated, isGated) = gates.apply(to: release)
        // A cancel the rule never sees: a cancelled gesture, or a release with no `changed`.
        func cancel(_ basis: Decision.Basis) -> Decision {
            Decision(
                outcome: .cancel, basis: basis, statistic: gated.progress, threshold: 0, comparison: .atLeast,
                axisVelocity: gated.axisVelocity, progressVelocity: gated.progressVelocity, isVelocityGated: isGated)
        }
        if release.phase == .cancelled && cancelledPhase == .cancel { return cancel(.cancelledPhase) }
        if requiresChange && !release.hasChanged { return cancel(.noChange) }
        return rule.evaluate(gated, isGated: isGated)
    }
}
