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
        let bits = value.bitPattern
        let field = Int((bits >> 52) & 0x7ff)
        guard field != 0x7ff else {
            nonFinite += value
            hasNonFinite = true
            return
        }
        guard bits << 1 != 0 else { return }
        let fraction = bits & 0x000f_ffff_ffff_ffff
        // value = mantissa · 2^(max(field, 1) − 1075) = mantissa · 2^position units of 2^−1074.
        let mantissa = field == 0 ? fraction : fraction | (1 << 52)
        let position = field == 0 ? 0 : field - 1
        let limb = position >> 5
        let shift = UInt64(position & 31)
        // mantissa · 2^shift is below 2^85: its low 64 bits, and the rest.
        let lowBits = mantissa << shift
        let highBits = (mantissa >> 1) >> (63 - shift)
        // Two's complement of the digits for a negative value: d → (d ^ m) − m with m = 0 or −1.
        let sign = -Int64(bitPattern: bits >> 63)
        let digit0 = (Int64(lowBits & 0xffff_ffff) ^ sign) &- sign
        let digit1 = (Int64(lowBits >> 32) ^ sign) &- sign
        let digit2 = (Int64(highBits) ^ sign) &- sign
        // `limb + 2` is at most 66: the largest finite field, 2046, gives limb 63.
        limbs[limb] &+= digit0
        limbs[limb + 1] &+= digit1
        limbs[limb + 2] &+= digit2
        low = Swift.min(low, limb)
        high = Swift.max(high, limb + 2)
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

    /// Bounds on the sum's bits as exponents of two: every set bit of the exact sum lies in
    /// `low..<high` (nil for an empty or non-finite sum). For ``FixedSum``'s scale.
    var bitBounds: (low: Int, high: Int)? {
        guard !hasNonFinite, low <= high else { return nil }
        var first = low
        while first <= high && limbs[first] == 0 { first += 1 }
        guard first <= high else { return nil }
        // Carries only move up, so the lowest nonzero limb's low bits are the sum's (up to 32).
        let zeros = Swift.min(limbs[first].trailingZeroBitCount, 32)
        // A limb holds at most 63 bits of magnitude; 31 more for the carries 2³¹ additions make.
        return (32 * first - 1074 + zeros, 32 * high - 1074 + 63 + 31)
    }

    /// The exact sum as an integer count of `2^unit`, or nil when it is not a whole number of
    /// them or does not fit in 127 bits.
    func fixedPoint(unit: Int) -> Int128? {
        guard !hasNonFinite else { return nil }
        guard low <= high else { return 0 }
        // Resolved carries leave every limb one digit (negated, for a negative sum), so each
        // limb's bits below the unit are the sum's.
        var resolved = self
        _ = resolved.rounded()
        var total: Int128 = 0
        for index in resolved.low...resolved.high where resolved.limbs[index] != 0 {
            let shift = 32 * index - 1074 - unit
            let limb = Int128(resolved.limbs[index])
            let term: Int128
            if shift >= 0 {
                guard shift < 127 else { return nil }
                let (product, overflow) = limb.multipliedReportingOverflow(by: Int128(1) << shift)
                guard !overflow else { return nil }
                term = product
            } else {
                guard -shift < 64, resolved.limbs[index] & ((1 << Int64(-shift)) - 1) == 0 else { return nil }
                term = limb >> -shift
            }
            let (sum, overflow) = total.addingReportingOverflow(term)
            guard !overflow else { return nil }
            total = sum
        }
        return total
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
