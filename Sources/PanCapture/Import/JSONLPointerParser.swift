/// Reads logs with one `{"t_ms":…,"x":…,"y":…,"phase":"…","pointer":…}` object per line.
///
/// A small scanner for exactly that shape, not a general JSON parser: one flat object per
/// line, keys in any order, `pointer` optional (0 when absent or `null`), other keys allowed
/// if their values are numbers, strings, `true`, `false` or `null`. Numbers are read from
/// their text, so `t_ms` is exact to the nanosecond. Nested values, escapes in keys, a
/// repeated key or a missing field are errors. Blank lines are skipped.
struct JSONLPointerParser: PointerLogParser {
    private var index = 0
    private var line: ArraySlice<UInt8> = []

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":"), comma = UInt8(ascii: ","), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")

    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError) {
        let content = ASCIINumber.trimmed(line)
        if content.isEmpty { return }
        self.line = content
        index = content.startIndex
        var time: Int64?, x: Double?, y: Double?, phase: PointerEvent.Phase?, pointer: Int?
        var sawPointer = false
        try expect(Self.open, "a line must be one JSON object starting with {")
        skipSpaces()
        if peek() == Self.close {
            throw CaptureError(.malformedLine("empty object; expected t_ms, x, y and phase"))
        }
        while true {
            skipSpaces()
            let key = try string()
            skipSpaces()
            try expect(Self.colon, "expected : after a key")
            skipSpaces()
            let value = try valueToken()
            func once(_ seen: Bool) throws(CaptureError) {
                if seen { throw CaptureError(.malformedLine("key \"\(String(decoding: key, as: UTF8.self))\" appears twice")) }
            }
            switch String(decoding: key, as: UTF8.self) {
            case "t_ms":
                try once(time != nil)
                guard value.kind == .number, let ns = ASCIINumber.nanoseconds(fromMilliseconds: value.bytes) else {
                    throw CSVPointerParser.notANumber("t_ms", value.bytes)
                }
                time = ns
            case "x":
                try once(x != nil)
                guard value.kind == .number else { throw CSVPointerParser.notANumber("x", value.bytes) }
                x = try CSVPointerParser.coordinate("x", value.bytes)
            case "y":
                try once(y != nil)
                guard value.kind == .number else { throw CSVPointerParser.notANumber("y", value.bytes) }
                y = try CSVPointerParser.coordinate("y", value.bytes)
            case "phase":
                try once(phase != nil)
                guard value.kind == .string else {
                    throw CaptureError(.malformedLine("phase must be a string: \(ASCIINumber.quoted(value.bytes))"))
                }
                phase = try PointerEvent.Phase(bytes: value.bytes)
            case "pointer":
                try once(sawPointer)
                sawPointer = true
                if value.kind == .null { break }
                guard value.kind == .number, let id = ASCIINumber.integer(value.bytes) else {
                    throw CaptureError(.malformedLine("pointer is not an integer: \(ASCIINumber.quoted(value.bytes))"))
                }
                pointer = id
            default:
                break
            }
            skipSpaces()
            guard let next = peek() else {
                throw CaptureError(.malformedLine("the object is not closed (missing })"))
            }
            index += 1
            if next == Self.close { break }
            guard next == Self.comma else {
                throw CaptureError(.malformedLine("expected , or } after a value"))
            }
        }
        skipSpaces()
        guard index == line.endIndex else {
            throw CaptureError(.malformedLine("text after the object; one object per line"))
        }
        guard let time, let x, let y, let phase else {
            let missing = [("t_ms", time == nil), ("x", x == nil), ("y", y == nil), ("phase", phase == nil)].filter(\.1).map(\.0)
            throw CaptureError(.malformedLine("missing \(missing.joined(separator: ", "))"))
        }
        events.append(PointerEvent(nanoseconds: time, x: x, y: y, phase: phase, pointer: pointer ?? 0))
    }

    private enum Kind { case number, string, literal, null }

    private func peek() -> UInt8? { index < line.endIndex ? line[index] : nil }

    private mutating func skipSpaces() {
        while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ why: String) throws(CaptureError) {
        guard peek() == byte else { throw CaptureError(.malformedLine(why)) }
        index += 1
    }

    /// A string's content; escapes are not needed by any field and are refused.
    private mutating func string() throws(CaptureError) -> ArraySlice<UInt8> {
        try expect(Self.quote, "expected a \"quoted\" key")
        let start = index
        while index < line.endIndex, line[index] != Self.quote {
            if line[index] == Self.backslash { throw CaptureError(.malformedLine("escapes in strings are not supported")) }
            index += 1
        }
        guard index < line.endIndex else { throw CaptureError(.malformedLine("a string is not closed")) }
        let content = line[start..<index]
        index += 1
        return content
    }

    private mutating func valueToken() throws(CaptureError) -> (kind: Kind, bytes: ArraySlice<UInt8>) {
        guard let first = peek() else { throw CaptureError(.malformedLine("a value is missing")) }
        if first == Self.quote { return (.string, try string()) }
        if first == Self.open || first == UInt8(ascii: "[") {
            throw CaptureError(.malformedLine("nested objects and arrays are not supported"))
        }
        let start = index
        while index < line.endIndex {
            let byte = line[index]
            if byte == Self.comma || byte == Self.close || byte == 0x20 || byte == 0x09 { break }
            index += 1
        }
        let token = line[start..<index]
        if token.elementsEqual("null".utf8) { return (.null, token) }
        if token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8) { return (.literal, token) }
        // JSON has no NaN or Infinity; such tokens fail here, as any non-number does.
        guard let first = token.first, first == ASCIINumber.minus || (first >= ASCIINumber.zero && first <= ASCIINumber.nine),
            ASCIINumber.double(token) != nil
        else {
            throw CaptureError(.malformedLine("not a JSON value: \(ASCIINumber.quoted(token))"))
        }
        return (.number, token)
    }
}
