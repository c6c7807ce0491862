/// Appends JSON tokens to a byte buffer, formatted exactly as Foundation's `JSONEncoder` formats
/// them (with `.withoutEscapingSlashes`), for the few outputs hot enough to skip `Codable`: the
/// viewer's `frame` messages and `pantrace replay`'s JSON Lines.
///
/// The formatting rules are those of swift-foundation's `JSONEncoder` (Swift 6.3), checked by
/// `FrameMessageJSONTests` and `FrameStateJSONTests` against `JSONEncoder` itself:
/// - a `Double` is its `description` with a trailing `".0"` removed (`844`, `-0`, `0.25`,
///   `1e-05`, `1e+16`); a non-finite one is not JSON, so the writer records the failure
///   (``isValid``) and the caller falls back to `JSONEncoder`, which throws as before;
/// - a string escapes `"` and `\`, writes `\b \t \n \f \r` short, the other controls below
///   U+0020 as `\u00xx` (lowercase hex), and everything else (slashes, DEL, non-ASCII) as is.
///
/// Keys are written by the caller, in the order `.sortedKeys` gives, so output is
/// deterministic (the unsorted `JSONEncoder` orders keys by a per-process hash seed).
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// False once a value that JSON cannot represent (NaN, ±infinity) was written.
    package private(set) var isValid = true

    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets everything written after the first `count` bytes (and whether it was valid):
    /// a streaming writer empties the buffer after each write, or drops a frame it must redo.
    package mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
        isValid = true
    }

    /// Appends literal JSON text (punctuation and quoted keys), written by this module.
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends JSON this module wrote before (a shared `frame` object).
    package mutating func append(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    package mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    package mutating func integer<T: BinaryInteger>(_ value: T) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    private mutating func unsigned(_ value: UInt64) {
        // Least significant digit first, then reversed in place.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest != 0
        bytes[start...].reverse()
    }

    /// Integral doubles below this print as plain integers in `Double.description`
    /// (`1e15` is `"1000000000000000.0"`, `1e16` is `"1e+16"`), so they take the integer path.
    private static let integralLimit = 1e15

    package mutating func number(_ value: Double) {
        guard value.isFinite else {
            isValid = false
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(.towardZero), abs(value) < Self.integralLimit {
            if value == 0, value.sign == .minus {
                raw("-0")
            } else {
                integer(Int64(value))
            }
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            default:
                raw("u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
