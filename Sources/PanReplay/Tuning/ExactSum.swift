/// A sum of doubles kept exactly, rounded once when read.
///
/// The tuner's means (margin, completion time, discontinuity) are sums over traces. The
/// per-decision sweep adds them in trace order; the sorted sweep (``ThresholdSweep``) gets
/// them from running sums over traces sorted by their statistic. Rounded sums in two orders
/// differ in the last bits, so both paths keep the sum exactly and round it once, to the
/// nearest double (ties to even): the same value whatever the order.
///
/// A finite double is `m·2^(e−1075)` with a 53-bit integer `m`, so it is an integer number
/// of units `2^−1074` below `2^1024`: 2,098 bits, held here as 32-bit digits in 67 signed
/// 64-bit limbs (a superaccumulator, as in "Fast exact summation using small and large
/// superaccumulators", 2015). An addition touches three limbs; carries are resolved only
/// when the sum is read, which 2³¹ additions cannot overflow. A non-finite term is summed
/// apart (infinities and NaN give the same result in any order) and then dominates.
struct ExactSum: Sendable {
    private static let limbCount = 67
    private var limbs = InlineArray<67, Int64>(repeating: 0)
    /// The lowest and highest limb touched, so reading skips the empty ones.
    private var low = 67
    private var high = -1
    private var nonFinite = 0.0
    private var hasNonFinite = false

    init() {}

    /// Adds `value` (exactly, when finite).
    @inline(__always)
    mutating func add(_ value: Double) {
        guard value.isFinite else {
            nonFinite += value
            hasNonFinite = true
            return
        }
        let bits = value.bitPattern
        let field = Int((bits >> 52) & 0x7ff)
        let fraction = bits & 0x000f_ffff_ffff_ffff
        guard field != 0 || fraction != 0 else { return }
        let mantissa = field == 0 ? fraction : fraction | (1 << 52)
        // value = mantissa · 2^(max(field, 1) − 1075) = mantissa · 2^position units of 2^−1074.
        let position = max(field, 1) - 1
        let limb = position >> 5
        let wide = UInt128(mantissa) << UInt128(position & 31)
        let digit0 = Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: wide) & 0xffff_ffff)
        let digit1 = Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: wide >> 32) & 0xffff_ffff)
        let digit2 = Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: wide >> 64))
        if bits >> 63 == 0 {
            limbs[limb] &+= digit0
            limbs[limb + 1] &+= digit1
            limbs[limb + 2] &+= digit2
        } else {
            limbs[limb] &-= digit0
            limbs[limb + 1] &-= digit1
            limbs[limb + 2] &-= digit2
        }
        low = min(low, limb)
        high = max(high, limb + 2)
    }

    /// Adds `value · count` exactly (`fma` gives the product's rounding error exactly, as
    /// long as it does not underflow, which the tuner's thresholds and counts never do).
    @inline(__always)
    mutating func add(_ value: Double, times count: Int) {
        let factor = Double(count)
        let product = value * factor
        add(product)
        if product.isFinite { add((-product).addingProduct(value, factor)) }
    }

    /// Adds every term of `other`.
    mutating func add(_ other: ExactSum, times factor: Int64 = 1) {
        if other.hasNonFinite {
            nonFinite += Double(factor) * other.nonFinite
            hasNonFinite = true
        }
        guard other.low <= other.high else { return }
        for index in other.low...other.high { limbs[index] &+= other.limbs[index] &* factor }
        low = min(low, other.low)
        high = max(high, other.high)
    }

    /// The sum rounded to the nearest double.
    var value: Double {
        var copy = self
        return copy.rounded()
    }

    /// The sum rounded to the nearest double; resolves the carries in place (the sum is unchanged).
    mutating func rounded() -> Double {
        if hasNonFinite { return nonFinite }
        guard low <= high else { return 0 }
        // Resolve carries so every limb below the top holds a digit in [0, 2³²).
        let top = Self.limbCount - 1
        var index = low
        while index < top {
            let carry = limbs[index] >> 32
            limbs[index] &-= carry << 32
            limbs[index + 1] &+= carry
            if index >= high && carry == 0 { break }
            index += 1
        }
        high = Swift.max(index, high)
        var isNegative = false
        if limbs[high] < 0 {
            // Only the top limb can be negative: negate the digits (two's complement).
            isNegative = true
            var borrow: Int64 = 0
            for position in low...high {
                var negated = -limbs[position] - borrow
                borrow = 0
                if negated < 0 {
                    negated += 1 << 32
                    borrow = 1
                }
                limbs[position] = negated
            }
        }
        var head = high
        while head >= low && limbs[head] == 0 { head -= 1 }
        guard head >= low else {
            if isNegative { self = ExactSum() }
            return 0
        }
        func digit(_ position: Int) -> UInt64 { position >= low ? UInt64(limbs[position]) : 0 }
        // The top 64 bits, left-aligned, and a sticky bit for everything below them, so the
        // conversion's single rounding to 53 bits is the correct one.
        let upper = digit(head) << 32 | digit(head - 1)
        let shift = upper.leadingZeroBitCount
        let next = digit(head - 2)
        var window = upper << UInt64(shift)
        var sticky = false
        if shift > 0 {
            window |= next >> UInt64(32 - shift)
            sticky = next & ((1 << UInt64(32 - shift)) - 1) != 0
        } else {
            sticky = next != 0
        }
        if !sticky && head - 3 >= low {
            for position in low...(head - 3) where limbs[position] != 0 {
                sticky = true
                break
            }
        }
        if sticky { window |= 1 }
        let magnitude = Double(sign: .plus, exponent: 32 * (head - 1) - 1074 - shift, significand: Double(window))
        if isNegative {
            // Restore the sum's sign in the limbs (they now hold its magnitude).
            for position in low...high { limbs[position] = -limbs[position] }
        }
        return isNegative ? -magnitude : magnitude
    }
}
