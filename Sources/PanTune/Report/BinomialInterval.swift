internal import Foundation

/// An exact (Clopper–Pearson) confidence interval for a proportion: `correct` successes out of
/// `trials`.
///
/// The interval holds every `p` that a two-sided binomial test at level `1 − confidence` would
/// not reject: the lower end solves `P(X ≥ k; n, p) = α/2`, the upper `P(X ≤ k; n, p) = α/2`,
/// with the ends at 0 for `k = 0` and 1 for `k = n` (C. J. Clopper and E. S. Pearson, "The use
/// of confidence or fiducial limits illustrated in the case of the binomial", Biometrika 26,
/// 1934). It is conservative: it covers the true accuracy at least `confidence` of the time.
/// Each end is found by bisection on the binomial sum, to 1e-12.
package struct BinomialInterval: Sendable, Hashable, Codable {
    /// The confidence level, e.g. 0.95.
    package var level: Double
    /// The lower end, 0…1.
    package var low: Double
    /// The upper end, 0…1.
    package var high: Double

    enum CodingKeys: String, CodingKey { case level, low, high }

    /// The interval for `correct` of `trials` at `level`.
    ///
    /// - Precondition: `0 ≤ correct ≤ trials`, `0 < level < 1`.
    package init(correct: Int, trials: Int, level: Double = 0.95) {
        precondition(correct >= 0 && correct <= trials, "correct must lie within 0…trials")
        precondition(level > 0 && level < 1, "level must lie in (0, 1)")
        self.level = level
        guard trials > 0 else {
            (low, high) = (0, 1)
            return
        }
        let tail = (1 - level) / 2
        var logFactorials = [0.0]
        logFactorials.reserveCapacity(trials + 1)
        for i in 1...trials { logFactorials.append(logFactorials[i - 1] + log(Double(i))) }
        // P(X ≤ k − 1) = 1 − α/2 at the lower end; P(X ≤ k) = α/2 at the upper. Both sums fall
        // as p rises.
        low = correct == 0 ? 0 : Self.solve(atMost: correct - 1, target: 1 - tail, logFactorials: logFactorials)
        high = correct == trials ? 1 : Self.solve(atMost: correct, target: tail, logFactorials: logFactorials)
    }

    /// `P(X ≤ k)` for `X ~ Binomial(n, p)`, summed in log space; `logFactorials[i]` is `ln i!`
    /// for `i` in `0...n`.
    static func cumulative(atMost k: Int, p: Double, logFactorials: [Double]) -> Double {
        let n = logFactorials.count - 1
        if p <= 0 { return 1 }
        if p >= 1 { return k >= n ? 1 : 0 }
        let logP = log(p), logQ = log1p(-p)
        func logTerm(_ i: Int) -> Double {
            logFactorials[n] - logFactorials[i] - logFactorials[n - i] + Double(i) * logP + Double(n - i) * logQ
        }
        // The terms rise to the mode ⌊(n + 1)p⌋ and fall after it; those below e⁻⁸⁰ of the
        // largest summed (< 2⁻¹¹⁵ of it, 10⁴ of them still far under an ulp of the sum) are
        // skipped without calling `exp`, which is most of the cost at 10⁴ traces.
        let peak = min(k, Int((Double(n + 1) * p).rounded(.down)))
        let cutoff = logTerm(peak) - 80
        // The terms over the cutoff are one run around the peak: below it they rise, after it
        // they fall. The run's first term is found walking down from the peak, and the sum
        // goes up from it and stops where the terms fall under the cutoff, adding the same
        // terms in the same order as a walk over all of 0…k would (the same bits), without
        // the walk: at 10⁵ traces about 2,000 terms, not 10⁵, at each of the bisection's steps.
        var first = peak
        while first > 0, logTerm(first - 1) > cutoff { first -= 1 }
        var sum = 0.0
        for i in first...k {
            let exponent = logTerm(i)
            guard exponent > cutoff else {
                if i > peak { break }
                continue
            }
            sum += exp(exponent)
        }
        return min(sum, 1)
    }

    /// The `p` in (0, 1) where `P(X ≤ k; n, p)` equals `target`.
    private static func solve(atMost k: Int, target: Double, logFactorials: [Double]) -> Double {
        var lower = 0.0, upper = 1.0
        while upper - lower > 1e-12 {
            let middle = (lower + upper) / 2
            if cumulative(atMost: k, p: middle, logFactorials: logFactorials) > target { lower = middle } else { upper = middle }
        }
        return (lower + upper) / 2
    }
}
