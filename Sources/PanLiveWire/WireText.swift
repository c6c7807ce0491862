/// Text that came from outside (a file's metadata, a message's field) cut to a number of UTF-8
/// bytes before it is put in a message or a line: a bound in characters is no bound, since one
/// character can hold thousands of combining scalars.
package enum WireText {
    /// What a cut value ends with.
    package static let ellipsis = "…"

    /// `text` whole when it fits in `limit` bytes of UTF-8; otherwise its longest prefix of whole
    /// characters that fits with ``ellipsis`` after it (of whole Unicode scalars when even the
    /// first character does not fit), then the ellipsis. The result is never longer than `limit`
    /// bytes (for `limit` ≥ 3).
    package static func cut(_ text: some StringProtocol, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return String(text) }
        let budget = max(0, limit - ellipsis.utf8.count)
        var used = 0
        var kept = Substring.UnicodeScalarView()
        for character in text {
            let bytes = character.utf8.count
            if used + bytes > budget {
                if used == 0 {
                    for scalar in character.unicodeScalars {
                        guard used + scalar.utf8.count <= budget else { break }
                        used += scalar.utf8.count
                        kept.append(scalar)
                    }
                }
                break
            }
            used += bytes
            kept.append(contentsOf: character.unicodeScalars)
        }
        return String(kept) + ellipsis
    }
}
