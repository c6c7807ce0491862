/// Number parsing straight from the bytes of a log line, without making strings.
///
/// Decimal milliseconds are converted to nanoseconds exactly (integer arithmetic), so a log
/// written from Android's `nsecs_t` timestamps reads back to the same nanosecond. Decimals
/// take the exact fast path (an integer mantissa below 2^53 divided by a power of ten up to
/// 10^22 is correctly rounded: both are exact doubles, W. D. Clinger, "How to read floating
/// point numbers accurately", PLDI 1990) and fall back to the standard library's parser for
/// anything else (exponents, long mantissas, `nan`, `inf`), which callers then reject if not
/// finite.
enum ASCIINumber {
    static let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
    static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: ".")

    /// The bytes with leading and trailing spaces, tabs and carriage returns removed.
    @inline(__always)
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex, upper = bytes.endIndex
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return bytes[lower..<upper]
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// Consumes a leading `+` or `-` at `index` (which must be in range); whether it was `-`.
    @inline(__always)
    private static func sign(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> Bool {
        guard bytes[index] == minus || bytes[index] == plus else { return false }
        defer { index += 1 }
        return bytes[index] == minus
    }

    /// A decimal number of milliseconds (`12.5`, `-3`, `235089067.457`, `1E3`) as whole
    /// nanoseconds, rounded half away from zero past the sixth decimal; `nil` if it is not a
    /// number or does not fit.
    static func nanoseconds(fromMilliseconds bytes: ArraySlice<UInt8>) -> Int64? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index < end else { return nil }
        let isNegative = sign(bytes, &index)
        var whole: Int64 = 0
        var digits = 0
        while index < end, bytes[index] >= zero, bytes[index] <= nine {
            let (times, o1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(bytes[index] - zero))
            guard !o1, !o2 else { return nil }
            whole = sum
            digits += 1
            index += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        if index < end, bytes[index] == dot {
            index += 1
            while index < end, bytes[index] >= zero, bytes[index] <= nine {
                if fractionDigits < 6 {
                    fraction = fraction * 10 + Int64(bytes[index] - zero)
                } else if fractionDigits == 6 {
                    roundUp = bytes[index] >= UInt8(ascii: "5")
                }
                fractionDigits += 1
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return nil }
        if index != end {
            // Exponent or anything unusual: the general parser, then rounding to the nanosecond.
            guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
            let ns = (value * 1e6).rounded()
            guard abs(ns) < 9.2e18 else { return nil }
            return Int64(ns)
        }
        while fractionDigits < 6 {
            fraction *= 10
            fractionDigits += 1
        }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: 1_000_000)
        let (sum, o2) = scaled.addingReportingOverflow(fraction + (roundUp ? 1 : 0))
        guard !o1, !o2 else { return nil }
        return isNegative ? -sum : sum
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    /// A decimal number; `nil` if the bytes are not one. May be NaN or infinite when the log
    /// spells those; callers check.
    static func double(_ bytes: ArraySlice<UInt8>) -> Double? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index < end else { return nil }
        let isNegative = sign(bytes, &index)
        var mantissa: UInt64 = 0
        var digits = 0, scale = 0
        var isExact = true
        while index < end, bytes[index] >= zero, bytes[index] <= nine {
            if mantissa < 1 << 53 / 10 { mantissa = mantissa * 10 + UInt64(bytes[index] - zero) } else { isExact = false }
            digits += 1
            index += 1
        }
        if index < end, bytes[index] == dot {
            index += 1
            while index < end, bytes[index] >= zero, bytes[index] <= nine {
                if mantissa < 1 << 53 / 10 {
                    mantissa = mantissa * 10 + UInt64(bytes[index] - zero)
                    scale += 1
                } else {
                    isExact = false
                }
                digits += 1
                index += 1
            }
        }
        if digits > 0, index == end, isExact, scale <= 22 {
            let value = Double(mantissa) / exactPowersOfTen[scale]
            return isNegative ? -value : value
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// A decimal integer (optional sign); `nil` if it is not one or does not fit.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index < end else { return nil }
        let isNegative = sign(bytes, &index)
        guard index < end else { return nil }
        var value = 0
        while index < end {
            let byte = bytes[index]
            guard byte >= zero, byte <= nine else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(byte - zero))
            guard !o1, !o2 else { return nil }
            value = sum
            index += 1
        }
        return isNegative ? -value : value
    }

    /// Hexadecimal digits (no prefix) as an unsigned value; `nil` for anything else or more
    /// than 16 digits.
    static func hex(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case zero...nine: digit = byte - zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// The bytes as text for an error message, cut to 40 characters.
    static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "…" : "")\""
    }
}
