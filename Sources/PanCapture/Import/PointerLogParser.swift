/// Turns the lines of one log format into pointer events.
///
/// Each call gets one line (no newline) and appends the events it completes to `events`,
/// which the caller empties between lines. A parser throws ``CaptureError`` for a line it
/// cannot read; the importer adds the file, line and byte offset.
protocol PointerLogParser {
    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError)
    /// When the log gave no touch at all: one line saying why (nil: it gave some, or the
    /// format cannot tell).
    var noTouchReason: String? { get }
}

extension PointerLogParser {
    var noTouchReason: String? { nil }
}
