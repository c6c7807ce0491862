extension SwiftSnippet {
    /// `text` spelled as it would be inside a Swift string literal, without the quotes: safe
    /// in a `//` comment line and between `"…"` alike, and the one way text from outside (a
    /// path, a command line, a name, a tag) enters generated code.
    ///
    /// `\` and `"` get a backslash. Every character that could end the line or change how the
    /// code around it reads becomes `\u{…}`: controls (Unicode category Cc: CR and LF end a
    /// `//` comment, NUL, ESC, DEL, NEL), format characters (Cf: the bidirectional overrides
    /// and isolates of CVE-2021-42574 "Trojan Source", zero-width characters, the BOM) and the
    /// line and paragraph separators U+2028 and U+2029 (Zl, Zp), which editors and web views
    /// show as line breaks. This is what `String.debugDescription` escapes and more: it keeps
    /// U+2028 and the bidi controls raw. Everything else, other scripts and emoji included,
    /// stays as it is.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned:
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

}
