/// Reads `t_ms,x,y,phase[,pointer]` logs (docs/CAPTURE.md).
///
/// The first line that is not blank or a `#` comment is the header. It must name `t_ms`,
/// `x`, `y` and `phase`, may name `pointer`, in any order; other columns are ignored. Each
/// later line is one event: time in milliseconds (decimal, exact to the nanosecond),
/// position in points, phase `down|move|up|cancel`, pointer an integer (0 when there is no
/// column). Fields may be padded with spaces or wrapped in double quotes; quoted commas are
/// not supported.
struct CSVPointerParser: PointerLogParser {
    private struct Columns {
        var time = -1, x = -1, y = -1, phase = -1, pointer = -1
        var count = 0
    }

    private var columns: Columns?
    private var fields: [ArraySlice<UInt8>] = []

    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError) {
        let content = ASCIINumber.trimmed(line)
        if content.isEmpty || content.first == UInt8(ascii: "#") { return }
        split(content)
        guard let columns else {
            self.columns = try Self.header(fields)
            return
        }
        guard fields.count >= columns.count else {
            throw CaptureError(.malformedLine("expected \(columns.count) comma-separated fields as in the header, found \(fields.count)"))
        }
        let t = fields[columns.time]
        guard let nanoseconds = ASCIINumber.nanoseconds(fromMilliseconds: t) else {
            throw Self.notANumber("t_ms", t)
        }
        let x = try Self.coordinate("x", fields[columns.x])
        let y = try Self.coordinate("y", fields[columns.y])
        let phase = try PointerEvent.Phase(bytes: fields[columns.phase])
        var pointer = 0
        if columns.pointer >= 0 {
            let field = fields[columns.pointer]
            guard let value = ASCIINumber.integer(field) else {
                throw CaptureError(.malformedLine("pointer is not an integer: \(ASCIINumber.quoted(field))"))
            }
            pointer = value
        }
        events.append(PointerEvent(nanoseconds: nanoseconds, x: x, y: y, phase: phase, pointer: pointer))
    }

    static func coordinate(_ name: String, _ field: ArraySlice<UInt8>) throws(CaptureError) -> Double {
        guard let value = ASCIINumber.double(field) else { throw notANumber(name, field) }
        guard value.isFinite else {
            throw CaptureError(.notFinite(field: name, text: String(decoding: field.prefix(40), as: UTF8.self)))
        }
        return value
    }

    static func notANumber(_ name: String, _ field: ArraySlice<UInt8>) -> CaptureError {
        CaptureError(.malformedLine("\(name) is not a number: \(ASCIINumber.quoted(field))"))
    }

    /// Splits on commas into `fields`, trimming spaces and one pair of double quotes.
    private mutating func split(_ content: ArraySlice<UInt8>) {
        fields.removeAll(keepingCapacity: true)
        var start = content.startIndex
        var index = start
        while true {
            if index == content.endIndex || content[index] == UInt8(ascii: ",") {
                var field = ASCIINumber.trimmed(content[start..<index])
                if field.count >= 2, field.first == UInt8(ascii: "\""), field.last == UInt8(ascii: "\"") {
                    field = field.dropFirst().dropLast()
                }
                fields.append(field)
                if index == content.endIndex { return }
                start = index + 1
            }
            index += 1
        }
    }

    private static func header(_ fields: [ArraySlice<UInt8>]) throws(CaptureError) -> Columns {
        var columns = Columns()
        for (index, field) in fields.enumerated() {
            switch String(decoding: field, as: UTF8.self).lowercased() {
            case "t_ms": columns.time = index
            case "x": columns.x = index
            case "y": columns.y = index
            case "phase": columns.phase = index
            case "pointer": columns.pointer = index
            default: continue
            }
            columns.count = index + 1
        }
        guard columns.time >= 0, columns.x >= 0, columns.y >= 0, columns.phase >= 0 else {
            let found = fields.map { String(decoding: $0.prefix(20), as: UTF8.self) }.joined(separator: ",")
            throw CaptureError(.malformedLine("the header must name t_ms, x, y and phase (and may name pointer); found \"\(found)\""))
        }
        return columns
    }
}
