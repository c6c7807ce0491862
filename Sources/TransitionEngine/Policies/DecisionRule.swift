// `log` (for the exact exponential projection, D5x) is libm; Glibc is imported for that
// math function only.
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A progress threshold and how it is compared (`p0 ≥ θ` or the strict `p0 > θ`).
public struct Threshold: Sendable, Hashable, Codable {
    /// θ.
    public var value: Double
    /// `≥` (the D1 definition) or `>` (several sources' `if p > 0.5`).
    public var comparison: Decision.Comparison

    /// Creates a threshold; inclusive (`≥`) unless told otherwise.
    public init(_ value: Double, _ comparison: Decision.Comparison = .atLeast) {
        self.value = value
        self.comparison = comparison
    }
}

/// The finish/cancel rules D1–D6 of docs/MODEL.md §3.2–§3.7.
public enum DecisionRule: Sendable, Hashable, Codable {
    /// What D6 does inside its dead-band.
    public enum DirectionFallback: Sendable, Hashable, Codable {
        /// Fall back to D1 (MDC when v = 0).
        case threshold(Threshold)
        /// Finish (keep the transition's forward direction, Material Motion; or the
        /// `parallax-push` source's `else` branch).
        case finish
        /// Cancel.
        case cancel
    }

    /// D1: `q = 1 ⇔ p0 ≥ θ` (or `>`).
    case threshold(Threshold)
    /// D2: if `‖v⃗‖ ≥ V_f` (and, if required, the axis dominates: `|v_axis| ≥ |v_cross|`),
    /// finish iff `v > 0`; else D1.
    case flickOrThreshold(flickSpeed: Double, threshold: Threshold, requiresDominantAxis: Bool)
    /// D3 (Flutter `Dismissible`): fling iff `p0 ≠ 0 ∧ |v| ≥ V_min ∧ |v| − |v_cross| ≥ V_delta`,
    /// then finish iff `v > 0`; else D1.
    case dominantAxisFling(minimumVelocity: Double, minimumVelocityDelta: Double, threshold: Threshold)
    /// D4: `q = 1 ⇔ p0 + h·v_p ≥ θ`.
    case lookAhead(horizon: Double, threshold: Threshold)
    /// D5: `p0 + (v_p/1000)·d/(1−d) ≥ θ` (WWDC18); with `isExact`, D5x: `h = −1/(1000 ln d)`.
    case projection(decelerationRate: Double, threshold: Threshold, isExact: Bool)
    /// D6: if `|v| > V_dir`, finish iff `v > 0`; else the fallback.
    case direction(deadBand: Double, fallback: DirectionFallback)

    /// UIKit's `UIScrollView.DecelerationRate.normal`, 0.998 per ms (docs/MODEL.md §3.6).
    public static let normalDecelerationRate = 0.998
    /// UIKit's `UIScrollView.DecelerationRate.fast`, 0.99 per ms (docs/MODEL.md §3.6).
    public static let fastDecelerationRate = 0.99

    /// The look-ahead of the WWDC18 projection, `d / (1000 (1 − d))` s (0.499 s at 0.998).
    public static func projectionHorizon(decelerationRate d: Double) -> Double {
        d / (1000 * (1 - d))
    }

    /// The exact exponential time constant `−1 / (1000 ln d)` s (0.4995 s at 0.998).
    public static func exactProjectionHorizon(decelerationRate d: Double) -> Double {
        -1 / (1000 * log(d))
    }

    /// A short identifier: `"D1"` … `"D6"` (`"D5x"` for the exact projection).
    public var identifier: String {
        switch self {
        case .threshold: "D1"
        case .flickOrThreshold: "D2"
        case .dominantAxisFling: "D3"
        case .lookAhead: "D4"
        case .projection(_, _, let isExact): isExact ? "D5x" : "D5"
        case .direction: "D6"
        }
    }

    /// Applies the rule to an already gated release. Never allocates.
    func evaluate(_ release: ReleaseState, isGated: Bool) -> Decision {
        let p0 = release.progress
        let v = release.axisVelocity
        let vp = release.progressVelocity

        func make(_ finish: Bool, _ basis: Decision.Basis, _ statistic: Double, _ threshold: Double, _ comparison: Decision.Comparison) -> Decision {
            Decision(
                outcome: finish ? .finish : .cancel,
                basis: basis,
                statistic: statistic,
                threshold: threshold,
                comparison: comparison,
                axisVelocity: v,
                progressVelocity: vp,
                isVelocityGated: isGated
            )
        }
        func progressTest(_ basis: Decision.Basis, _ statistic: Double, _ threshold: Threshold) -> Decision {
            make(threshold.comparison.passes(statistic, threshold.value), basis, statistic, threshold.value, threshold.comparison)
        }

        switch self {
        case .threshold(let threshold):
            return progressTest(.progress, p0, threshold)
        case .flickOrThreshold(let flickSpeed, let threshold, let requiresDominantAxis):
            let speed = release.velocity.length
            let isOnAxis = !requiresDominantAxis || abs(v) >= abs(release.crossVelocity)
            if speed >= flickSpeed && isOnAxis && v != 0 {
                return make(v > 0, .flick, speed, flickSpeed, .atLeast)
            }
            return progressTest(.progress, p0, threshold)
        case .dominantAxisFling(let minimumVelocity, let minimumVelocityDelta, let threshold):
            // |v| ≥ V_min ∧ |v| − |v_cross| ≥ V_delta ⇔ |v| ≥ max(V_min, |v_cross| + V_delta).
            let needed = max(minimumVelocity, abs(release.crossVelocity) + minimumVelocityDelta)
            if p0 != 0 && abs(v) >= needed && v != 0 {
                return make(v > 0, .fling, abs(v), needed, .atLeast)
            }
            return progressTest(.progress, p0, threshold)
        case .lookAhead(let horizon, let threshold):
            return progressTest(.lookAhead, p0 + horizon * vp, threshold)
        case .projection(let rate, let threshold, let isExact):
            let horizon =
                isExact
                ? Self.exactProjectionHorizon(decelerationRate: rate)
                : Self.projectionHorizon(decelerationRate: rate)
            return progressTest(.projection, p0 + horizon * vp, threshold)
        case .direction(let deadBand, let fallback):
            if abs(v) > deadBand {
                return make(v > 0, .direction, abs(v), deadBand, .greaterThan)
            }
            switch fallback {
            case .threshold(let threshold):
                return progressTest(.progress, p0, threshold)
            case .finish:
                return make(true, .fallback, v, deadBand, .greaterThan)
            case .cancel:
                return make(false, .fallback, v, deadBand, .greaterThan)
            }
        }
    }
}
