package import Foundation

extension TuningReport {
    /// The encoder of `tune --json`: keys sorted, slashes as they are, indented.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return encoder
    }

    /// The report as ``encoder()`` writes it, byte for byte, handed to `write` in pieces: the
    /// misjudged list, which grows with the corpus (a million entries for ten million
    /// gestures), goes `chunkSize` entries at a time, so neither the whole text nor the
    /// encoder's tree of it is ever held at once.
    ///
    /// The rest of the report is encoded with an empty list, and the list's entries are encoded
    /// as arrays of their own, indented one level deeper, between its brackets: the encoder
    /// indents by two spaces a level and writes no raw line break inside a string, so the
    /// pieces join to the text it writes for the whole report (`TuningReportTests` checks it).
    package func writeJSON(chunkSize: Int = 4096, _ write: (Data) throws -> Void) throws {
        let encoder = Self.encoder()
        var rest = self
        rest.misjudged = []
        let outline = try encoder.encode(rest)
        // An empty list at the top level; a line break cannot occur inside a string value.
        let marker = Data("\n  \"misjudged\" : [\n\n  ]".utf8)
        guard misjudged.count > chunkSize, let place = outline.range(of: marker) else {
            try write(try encoder.encode(self))
            return
        }
        try write(outline[..<place.lowerBound] + Data("\n  \"misjudged\" : [\n".utf8))
        var start = 0
        while start < misjudged.count {
            let end = min(misjudged.count, start + Swift.max(1, chunkSize))
            let text = try encoder.encode(Array(misjudged[start..<end]))
            // "[\n  {…},\n  {…}\n]": the lines between the brackets, two spaces deeper. One
            // pass over the bytes (splitting the `Data` into lines took 4 % of `tune` at 10⁵).
            var piece: [UInt8] = []
            piece.reserveCapacity(text.count + text.count / 8)
            if start > 0 { piece += [0x2C, 0x0A] }
            piece += [0x20, 0x20]
            let bytes = [UInt8](text)
            for byte in bytes[2..<(bytes.count - 2)] {
                piece.append(byte)
                if byte == 0x0A { piece += [0x20, 0x20] }
            }
            try write(Data(piece))
            start = end
        }
        try write(Data("\n  ]".utf8) + outline[place.upperBound...])
    }
}
