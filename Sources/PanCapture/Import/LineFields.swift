/// The whitespace-separated fields of one log line, found without allocating: the importers
/// split millions of lines, and an array of slices per line was a quarter of their time.
///
/// Holds the first ``capacity`` fields; ``count`` counts every field, so a line with more is
/// still seen to have more.
struct LineFields {
    static let capacity = 6
    let line: ArraySlice<UInt8>
    /// How many fields the line has (all of them, not only those held).
    private(set) var count = 0
    private var bounds: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(_ line: ArraySlice<UInt8>) {
        self.line = line
        var index = line.startIndex
        let end = line.endIndex
        while index < end {
            while index < end, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            guard index < end else { break }
            let start = index
            while index < end, line[index] != 0x20, line[index] != 0x09 { index += 1 }
            if count < Self.capacity { store(count, start, index) }
            count += 1
        }
    }

    private mutating func store(_ field: Int, _ start: Int, _ end: Int) {
        switch field {
        case 0: (bounds.0, bounds.1) = (start, end)
        case 1: (bounds.2, bounds.3) = (start, end)
        case 2: (bounds.4, bounds.5) = (start, end)
        case 3: (bounds.6, bounds.7) = (start, end)
        case 4: (bounds.8, bounds.9) = (start, end)
        default: (bounds.10, bounds.11) = (start, end)
        }
    }

    /// Field `i` (0-based, below ``capacity`` and ``count``).
    subscript(_ i: Int) -> ArraySlice<UInt8> {
        precondition(i < min(count, Self.capacity), "field index out of range")
        switch i {
        case 0: return line[bounds.0..<bounds.1]
        case 1: return line[bounds.2..<bounds.3]
        case 2: return line[bounds.4..<bounds.5]
        case 3: return line[bounds.6..<bounds.7]
        case 4: return line[bounds.8..<bounds.9]
        default: return line[bounds.10..<bounds.11]
        }
    }
}
