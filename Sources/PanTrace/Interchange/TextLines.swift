/// The lines of a JSON Lines or CSV trace, as both readers take them, and the one rule both
/// writers follow for what may stand raw inside a line.
package enum TextLines {
    /// Calls `body` with each line's 1-based number and text: split at LF, one CR before it
    /// dropped, each line valid UTF-8. An error from `body`, or invalid UTF-8, is thrown with
    /// the line number filled in.
    static func forEach(
        in bytes: [UInt8], _ body: (_ number: Int, _ line: ArraySlice<UInt8>, _ text: Substring) throws(PanTraceError) -> Void
    ) throws(PanTraceError) {
        var number = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0a { end += 1 }
            number += 1
            var line = bytes[start..<end]
            if line.last == 0x0d { line = line.dropLast() }
            start = end + 1
            do throws(PanTraceError) {
                guard let text = String(validating: line, as: UTF8.self) else {
                    throw PanTraceError(.malformedLine("not valid UTF-8"))
                }
                try body(number, line, text[...])
            } catch {
                var located = error
                if located.line == nil { located.line = number }
                throw located
            }
        }
    }

    /// JSON text with the characters some line readers take for a line break escaped:
    /// U+2028 and U+2029 (JavaScript source before ES2019, and editors), U+0085 (Python's
    /// `str.splitlines`). JSON allows any of them raw inside a string, and only inside a
    /// string can their bytes occur, so replacing them with `\uXXXX` changes no value. Go's
    /// `encoding/json` escapes U+2028 and U+2029 for the same reason.
    package static func escapingLineBreaks(_ json: [UInt8]) -> [UInt8] {
        // The three are the only UTF-8 sequences that start with C2 85 or E2 80 A8/A9.
        guard json.contains(where: { $0 == 0xC2 || $0 == 0xE2 }) else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        var i = 0
        while i < json.count {
            let byte = json[i]
            if byte == 0xE2, i + 2 < json.count, json[i + 1] == 0x80, json[i + 2] == 0xA8 || json[i + 2] == 0xA9 {
                out.append(contentsOf: json[i + 2] == 0xA8 ? Array(#"\u2028"#.utf8) : Array(#"\u2029"#.utf8))
                i += 3
            } else if byte == 0xC2, i + 1 < json.count, json[i + 1] == 0x85 {
                out.append(contentsOf: Array(#"\u0085"#.utf8))
                i += 2
            } else {
                out.append(byte)
                i += 1
            }
        }
        return out
    }
}
