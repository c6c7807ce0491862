/// Reads the primitive encodings of docs/FORMAT.md from a payload, checking every length.
///
/// Every read is bounds-checked and throws ``PanTraceError`` with the payload offset; a
/// varint longer than ten bytes or overflowing 64 bits is an error, not a wrap-around.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    private func failure(_ why: String) -> PanTraceError {
        PanTraceError(.corruptChunk("\(why) at payload byte \(offset)"))
    }

    mutating func byte() throws(PanTraceError) -> UInt8 {
        guard offset < bytes.count else { throw failure("payload ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func raw(_ count: Int) throws(PanTraceError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw failure("a length of \(count) bytes runs past the payload's \(remaining) remaining")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func varint() throws(PanTraceError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw failure("payload ends inside a varint") }
            let b = bytes[offset]
            offset += 1
            if shift == 63, b > 1 { throw failure("varint overflows 64 bits") }
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw failure("varint longer than 10 bytes") }
        }
    }

    /// A varint that must fit `0...limit`; `what` names it in the error.
    mutating func count(_ what: String, limit: Int) throws(PanTraceError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw failure("\(what) \(value) exceeds the limit of \(limit)") }
        return Int(value)
    }

    mutating func signed() throws(PanTraceError) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }
}

extension ByteReader {
    /// Moves to `position`, which must be within the payload (after a bit-coded column).
    mutating func skip(to position: Int) throws(PanTraceError) {
        guard position >= offset, position <= bytes.count else {
            throw PanTraceError(.corruptChunk("a column runs past the end of the payload"))
        }
        _ = try raw(position - offset)
    }
}
