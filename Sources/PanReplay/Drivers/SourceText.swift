/// Text from a recording (its identifier, its notes) made safe to embed in generated source.
///
/// A recording's identifier is user data: a line break would end a `//` comment and let the
/// rest run as code, a bidirectional control would make the text read differently from what
/// the compiler sees (CVE-2021-42574). Every character that could do either, and every other
/// control character, is written as a visible escape.
package enum SourceText {
    /// Whether `scalar` must not appear raw in a comment or a string literal.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 and C1 controls: CR, LF, NEL, …
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls
        case 0xFEFF: true
        default: false
        }
    }

    /// `text` for a one-line comment (`//` or `#`): unsafe characters as `\u{XXXX}`.
    package static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` as the inside of a Swift string literal (`"…"`).
    package static func swiftLiteral(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            default:
                if isUnsafe(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` as the inside of a Kotlin string literal (`"…"`): `$` escaped too, so that no
    /// template runs.
    package static func kotlinLiteral(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "$": result += "\\$"
            default:
                if isUnsafe(scalar) {
                    // Kotlin's \uXXXX takes four hex digits; every unsafe scalar is in the BMP.
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// An identifier made of `text`'s ASCII letters and digits (others become `_`), never
    /// starting with a digit, for a generated function's name.
    package static func identifier(_ text: String, prefix: String) -> String {
        var result = prefix
        for scalar in text.unicodeScalars {
            let isWord = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            result += isWord ? String(scalar) : "_"
        }
        return result
    }
}
