/// Text from outside made safe for a terminal: what the server logs never moves the cursor,
/// clears the screen, retitles the window or starts a line of its own, and never runs long.
///
/// Every scalar a terminal could act on is written as an escape a reader can still recognise,
/// as `journalctl` shows control characters and `git` quotes unusual path bytes:
/// - C0 controls (including CR, LF, tab and ESC), DEL and C1 controls as `\x1b`-style escapes
///   (two lowercase hex digits);
/// - format characters (bidi overrides and isolates, zero-width characters, the byte order
///   mark), U+2028 and U+2029 as `\u{202e}`-style escapes: they reorder or break the line
///   around them (Unicode Standard Annex #9; CVE-2021-42574, "Trojan Source");
/// - the backslash itself as `\\`, so an escape in the output always came from this function.
///
/// The result is at most `limit` characters of escaped text, followed, when the text was
/// longer, by how many bytes were left out.
package enum LogText {
    /// The longest a value from outside runs in a log line unless a caller asks for less.
    package static let defaultLimit = 200

    /// `text` escaped for a one-line log entry and cut after `limit` characters of output.
    package static func escaped(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        escaped(text, limit: limit, doublingBackslashes: true)
    }

    /// A whole log line made safe as ``escaped(_:limit:)`` does, except that backslashes stay
    /// as they are: the values from outside in it were escaped already, and their escapes
    /// must read the same. What was left unescaped still cannot act on the terminal.
    package static func terminalSafe(_ line: some StringProtocol, limit: Int) -> String {
        escaped(line, limit: limit, doublingBackslashes: false)
    }

    /// Each line of `text` made safe as ``terminalSafe(_:limit:)`` makes one, joined again.
    /// Text of printable ASCII lines within the limit, which is what nearly every command
    /// prints, comes back as it is after one pass over its bytes.
    package static func terminalSafeLines(_ text: String, limit: Int) -> String {
        var text = text
        let unchanged = text.withUTF8 { bytes in
            var line = 0
            for byte in bytes {
                if byte == 0x0A {
                    line = 0
                    continue
                }
                guard byte >= 0x20, byte < 0x7F, line < limit else { return false }
                line += 1
            }
            return true
        }
        if unchanged { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { terminalSafe($0, limit: limit) }.joined(separator: "\n")
    }

    private static func escaped(_ text: some StringProtocol, limit: Int, doublingBackslashes: Bool) -> String {
        precondition(limit > 0, "limit must be positive")
        // Printable ASCII other than a backslash to double is written as it is, one
        // character a byte: a line made of nothing else (nearly every line) is returned whole.
        @inline(__always) func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && (byte != 0x5C || !doublingBackslashes) }
        let utf8 = text.utf8
        if utf8.count <= limit, utf8.allSatisfy(plain) { return String(text) }
        var output = ""
        var written = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar.isASCII, plain(UInt8(scalar.value)), written < limit {
                output.unicodeScalars.append(scalar)
                written += 1
                continue
            }
            let piece = scalar == "\\" && !doublingBackslashes ? "\\" : escaped(scalar)
            if written + piece.count > limit {
                var left = scalar.utf8.count
                while let rest = scalars.next() { left += rest.utf8.count }
                output += "… (\(left) more bytes)"
                return output
            }
            output.unicodeScalars.append(contentsOf: piece.unicodeScalars)
            written += piece.count
        }
        return output
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value == 0x5C { return "\\\\" }
        if value < 0x20 || (0x7F...0x9F).contains(value) {
            let digits = String(value, radix: 16)
            return "\\x" + (digits.count == 1 ? "0" : "") + digits
        }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate, .privateUse, .unassigned:
            return "\\u{" + String(value, radix: 16) + "}"
        default:
            return String(scalar)
        }
    }
}
