/// Version 3's prediction of a translation column from its velocity column (docs/FORMAT.md
/// §4.2): between two samples a pan moves about the mean of their velocities times the time
/// between them, so what is left to code is the hand's tremor and the velocity's own noise
/// rather than the motion itself. On the synthetic benchmark corpus this takes translation x
/// from 5.8 to 4.4 bits a value (BENCHMARKS.md).
///
/// The prediction is integer arithmetic that wraps, so any value decodes to the same samples
/// on every machine; a multiplier that predicts badly only costs bits, and the encoder then
/// keeps the column on its own.
enum VelocityPrediction {
    /// The multiplier's fixed-point position: it holds the grid's scale × 2⁴⁰.
    static let shift: Int64 = 40
    static let half: Int64 = 1 << 39
    /// The largest multiplier: keeps the products of ordinary values far from wrapping.
    static let maximumMultiplier: Int64 = 1 << 48

    /// `M` with `(v[i−1] + v[i]) · Δt · M / 2⁴⁰` ≈ the translation ticks moved between two
    /// samples `Δt` time ticks apart; nil when the grid makes that useless (a multiplier
    /// below 1 or too large to keep the products small). The grid decides it, so a file does
    /// not store it; the binary64 operations are spelled out in docs/FORMAT.md §4.2, and IEEE
    /// 754 rounds each the same way everywhere.
    static func multiplier(for grid: SampleGrid) -> Int64? {
        let scale =
            Double(grid.timeTickNanoseconds) * Double(grid.positionTicksPerPoint)
            / (2 * Double(grid.velocityTicksPerPointPerSecond) * 1e9)
        let m = (scale * 0x1p40).rounded()
        guard m >= 1, m < Double(maximumMultiplier) else { return nil }
        return Int64(m)
    }

    /// The translation ticks predicted between two samples, rounded (wrapping arithmetic).
    @inline(__always)
    static func step(_ v0: Int64, _ v1: Int64, _ dt: Int64, _ multiplier: Int64) -> Int64 {
        let sum: Int64 = v0 &+ v1
        let product: Int64 = sum &* dt &* multiplier
        return (product &+ half) &>> shift
    }

    /// `x[i] − x[i−1] − step(v[i−1], v[i], t[i] − t[i−1])` for every i from 1: n − 1 values.
    static func residuals(_ x: [Int64], time t: [Int64], velocity v: [Int64], multiplier m: Int64) -> [Int64] {
        precondition(x.count == t.count && x.count == v.count, "columns of one chunk")
        guard x.count > 1 else { return [] }
        var out: [Int64] = []
        out.reserveCapacity(x.count - 1)
        for i in 1..<x.count {
            let moved: Int64 = x[i] &- x[i - 1]
            let dt: Int64 = t[i] &- t[i - 1]
            out.append(moved &- step(v[i - 1], v[i], dt, m))
        }
        return out
    }
}

/// A translation column and how a version 3 chunk writes it: on its own, or as its first
/// value and what velocity leaves unexplained after it, whichever is smaller.
struct TranslationPlan {
    let values: [Int64]
    let plain: ColumnCoding.Choice
    let plainBytes: Int
    private(set) var predicted: (residuals: [Int64], choice: ColumnCoding.Choice)?

    init(_ values: [Int64]) {
        self.values = values
        plain = ColumnCoding.choose(values)
        plainBytes = ColumnCoding.size(values, plain)
    }

    /// Keeps the velocity prediction if it makes the column smaller.
    mutating func considerVelocity(time: [Int64], velocity: [Int64], multiplier: Int64) {
        guard values.count > 2 else { return }
        let residuals = VelocityPrediction.residuals(values, time: time, velocity: velocity, multiplier: multiplier)
        let choice = ColumnCoding.choose(residuals)
        let bytes = ColumnCoding.varintBytes(ColumnCoding.zigzag(values[0])) + ColumnCoding.size(residuals, choice)
        if bytes < plainBytes { predicted = (residuals, choice) }
    }

    func write(into w: inout ByteWriter) {
        if let predicted {
            w.signed(values[0])
            ColumnCoding.encode(predicted.residuals, choice: predicted.choice, into: &w)
        } else {
            ColumnCoding.encode(values, choice: plain, into: &w)
        }
    }
}
