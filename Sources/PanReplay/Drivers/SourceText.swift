/// Text from outside (a recording's identifier, its tags, a path, a command line) made safe to
/// embed in generated code: the one escaping policy of every generated language, for the
/// drivers of `pantrace emit` and for the code `tune --emit` writes alike.
///
/// Such text is user data. A line break would end a `//` or `#` comment and let the rest run as
/// code; `*/` would end a block comment, and `/*` would open a nested one in Swift, Kotlin and
/// Dart (so a later `*/` no longer closes the generator's own); a quote, a backslash or a
/// Kotlin `$` would end a string or start a template; a bidirectional control would make the
/// text read differently from what the compiler sees (CVE-2021-42574, "Trojan Source").
/// Every character that could do any of these is written as a visible escape.
package enum SourceText {
    /// A language a string literal is written in.
    package enum Language: Sendable {
        case swift, kotlin
    }

    /// Whether `scalar` must not appear raw anywhere in generated code: controls (Unicode
    /// category Cc: CR and LF end a line comment, NUL, ESC, DEL, NEL), format characters (Cf:
    /// the bidirectional overrides and isolates, zero-width characters, the BOM), the line and
    /// paragraph separators U+2028 and U+2029 (Zl, Zp, which editors and JavaScript read as line
    /// breaks), private-use and unassigned scalars. Everything else, other scripts and emoji
    /// included, stays as it is.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned: true
        default: false
        }
    }

    /// `text` for the inside of any comment, line (`//`, `#`) or block (`/* … */`): unsafe
    /// characters as `\u{XXXX}`, and `/*` and `*/` as `/ *` and `* /`, so the text can neither
    /// end the comment nor open a nested one.
    package static func comment(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                previous = nil
                continue
            }
            if (previous == "/" && scalar == "*") || (previous == "*" && scalar == "/") { result += " " }
            result.unicodeScalars.append(scalar)
            previous = scalar
        }
        return result
    }

    /// `text` as the inside of a string literal (`"…"`) in `language`, reading back as `text`:
    /// `\` and `"` get a backslash, and Kotlin's `$` too, so that no template runs; unsafe
    /// characters become the language's Unicode escape (`\u{…}` in Swift; `\uXXXX` in Kotlin,
    /// as a surrogate pair above U+FFFF).
    package static func literal(_ text: String, in language: Language) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "$" where language == .kotlin: result += "\\$"
            default:
                guard isUnsafe(scalar) else {
                    result.unicodeScalars.append(scalar)
                    continue
                }
                switch language {
                case .swift:
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                case .kotlin:
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16, uppercase: true)
                        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
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
