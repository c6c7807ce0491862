/// Exact sums as integers: doubles whose set bits all lie within 126 bits of each other are
/// whole numbers of one unit `2^unit`, so their sums, prefix sums and differences are exact
/// in `Int128`, and rounding one to the nearest double gives the value ``ExactSum`` gives.
///
/// ``ThresholdSweep`` uses this when a group's statistics, thresholds and metrics fit: a
/// threshold then costs a few integer operations instead of reading a superaccumulator.
enum FixedSum {
    /// The lowest set bit and the bit length of `value`, as exponents of two (`value` is a
    /// whole number of `2^low` and below `2^high` in magnitude); nil for zero and non-finite.
    @inline(__always)
    static func bits(_ value: Double) -> (low: Int, high: Int)? {
        guard value.isFinite, value != 0 else { return nil }
        let raw = value.bitPattern
        let field = Int((raw >> 52) & 0x7ff)
        let fraction = raw & 0x000f_ffff_ffff_ffff
        let mantissa = field == 0 ? fraction : fraction | (1 << 52)
        let exponent = Swift.max(field, 1) - 1075
        return (exponent + mantissa.trailingZeroBitCount, exponent + 64 - mantissa.leadingZeroBitCount)
    }

    /// A scale for values whose bits span `low..<high`, summed with factors up to `count`
    /// in magnitude: the unit, or nil when the sums could leave 126 bits.
    static func unit(low: Int, high: Int, count: Int) -> Int? {
        guard low <= high else { return 0 }
        let growth = 64 - UInt64(Swift.max(count, 1)).leadingZeroBitCount + 2
        guard high + growth - low <= 126, low >= -960 else { return nil }
        return low
    }

    /// `value` as a whole number of `2^unit` (it must be one, and fit).
    @inline(__always)
    static func integer(_ value: Double, unit: Int) -> Int128 {
        guard value != 0 else { return 0 }
        let raw = value.bitPattern
        let field = Int((raw >> 52) & 0x7ff)
        let fraction = raw & 0x000f_ffff_ffff_ffff
        let mantissa = field == 0 ? fraction : fraction | (1 << 52)
        let shift = Swift.max(field, 1) - 1075 - unit
        let magnitude = shift >= 0 ? Int128(mantissa) << shift : Int128(mantissa >> UInt64(-shift))
        return raw >> 63 == 0 ? magnitude : -magnitude
    }

    /// `2^unit` (a normal double: ``unit(low:high:count:)`` keeps the unit at or above −960).
    static func scale(unit: Int) -> Double { Double(sign: .plus, exponent: unit, significand: 1) }

    /// `value · scale` rounded once to the nearest double (ties to even), where `scale` is
    /// ``scale(unit:)``: the integer is rounded to 53 bits once, and the power of two is exact.
    @inline(__always)
    static func rounded(_ value: Int128, scale: Double) -> Double {
        guard value != 0 else { return 0 }
        let magnitude = value.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64)
        let result: Double
        if high == 0 {
            result = Double(UInt64(truncatingIfNeeded: magnitude)) * scale
        } else {
            // The top 64 bits and a sticky bit for the rest: one correct rounding to 53 bits.
            let drop = 64 - high.leadingZeroBitCount
            var window = UInt64(truncatingIfNeeded: magnitude >> UInt128(drop))
            if magnitude & ((1 << UInt128(drop)) - 1) != 0 { window |= 1 }
            result = Double(window) * Double(bitPattern: UInt64(1023 + drop) << 52) * scale
        }
        return value < 0 ? -result : result
    }

    /// `value · 2^unit` rounded once to the nearest double (ties to even).
    static func rounded(_ value: Int128, unit: Int) -> Double { rounded(value, scale: scale(unit: unit)) }
}
