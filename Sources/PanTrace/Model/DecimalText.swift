internal import Foundation

/// Numbers written with a fixed number of digits after the point, for the lines commands print.
public enum DecimalText {
    /// `value` with `digits` digits (0…9) after the point, the same text as C's
    /// `printf("%.*f", digits, value)`: the exact binary value rounded half to even, a minus
    /// sign whenever the sign bit is set (`-0.000`). Without `negativeZero`, a value that
    /// rounds to zero is written without its sign (`0.000`), as a report's reader expects.
    ///
    /// Foundation's `String(format:)` writes the same and costs about a microsecond a number,
    /// which was a sixth of `inspect` over a large corpus (BENCHMARKS.md, "inspect"). Values
    /// it does not cover here (not finite, or `value × 10^digits` of 2⁵¹ or more) go to it.
    public static func fixed(_ value: Double, digits: Int, negativeZero: Bool = true) -> String {
        precondition((0...9).contains(digits), "0 to 9 digits")
        let scale = powersOfTen[digits]
        let magnitude = value.magnitude
        let scaled = magnitude * scale
        guard value.isFinite, scaled < 0x1p51 else { return String(format: "%.\(digits)f", value) }  // never rounds to zero
        // The product's rounding error, exactly (a fused multiply-add): it decides a tie that
        // `scaled` shows but the exact product does not have.
        let error = (-scaled).addingProduct(magnitude, scale)
        var whole = scaled.rounded(.down)
        // Exact: below 2⁵¹ the fraction is a multiple of the product's ulp, which is at most
        // 1/4, so it differs from 1/2 by more than the error unless it is 1/2.
        let fraction = scaled - whole
        if fraction > 0.5 || (fraction == 0.5 && (error > 0 || (error == 0 && whole.truncatingRemainder(dividingBy: 2) != 0))) {
            whole += 1
        }
        let units = UInt64(whole), unit = UInt64(scale)
        var text = value.sign == .minus && (negativeZero || units > 0) ? "-" : ""
        text += String(units / unit)
        guard digits > 0 else { return text }
        let decimals = String(units % unit)
        text += "."
        text += String(repeating: "0", count: digits - decimals.count)
        text += decimals
        return text
    }

    private static let powersOfTen: [Double] = (0...9).map { pow(10, Double($0)) }
}
