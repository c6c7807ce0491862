internal import PanTrace

/// Reads a log line by line through one fixed-size buffer, so a log of any size is read in
/// the same memory.
///
/// The buffer is allocated once at ``bufferSize`` bytes and never grows: a line is handed
/// out as a slice of it, the unread tail is moved to the front before each refill, and a
/// line that does not fit is an error. ``peakBufferedBytes`` says how full it ever got.
struct LogLineReader {
    /// Where a line is.
    struct Location {
        /// 1-based line number.
        var line: Int
        /// Byte offset of the line's first byte.
        var byteOffset: Int
        /// Whether a newline ends the line (false only for a last line cut off mid-way).
        var isTerminated: Bool
    }

    let path: String
    let bufferSize: Int
    private(set) var peakBufferedBytes = 0
    private(set) var bufferCapacity = 0
    private let input: InputStream

    /// Opens `path` for reading (`-`: standard input).
    init(path: String, bufferSize: Int) throws(CaptureError) {
        precondition(bufferSize >= 16, "bufferSize must be at least 16 bytes")
        self.path = path
        self.bufferSize = bufferSize
        do {
            input = try InputStream(path: path)
        } catch {
            throw CaptureError(.io(error.problem), file: path)
        }
    }

    /// Calls `body` with each line (without its `\n`), in order, until the end of the file or
    /// until `body` returns false.
    mutating func forEachLine(
        _ body: (ArraySlice<UInt8>, Location) throws(CaptureError) -> Bool
    ) throws(CaptureError) {
        defer { input.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(bufferSize)
        bufferCapacity = buffer.capacity
        var start = 0, scanned = 0
        var line = 0, consumed = 0
        var isAtEnd = false
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                line += 1
                let location = Location(line: line, byteOffset: consumed + start, isTerminated: true)
                guard try body(buffer[start..<newline], location) else { return }
                start = newline + 1
                scanned = start
                continue
            }
            if isAtEnd {
                if start < buffer.count {
                    line += 1
                    _ = try body(buffer[start...], Location(line: line, byteOffset: consumed + start, isTerminated: false))
                }
                return
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                consumed += start
                start = 0
            }
            scanned = buffer.count
            let room = bufferSize - buffer.count
            guard room > 0 else {
                throw CaptureError(.lineTooLong(limit: bufferSize), file: path, line: line + 1, byteOffset: consumed)
            }
            // One read(2): from a pipe, whatever has arrived, so each line is handled as soon
            // as it is written (`pantrace record --from -`).
            let count: Int
            do {
                count = try input.read(into: &buffer, upTo: room)
            } catch {
                throw CaptureError(.io(error.problem), file: path, line: line + 1, byteOffset: consumed + buffer.count)
            }
            if count > 0 {
                peakBufferedBytes = max(peakBufferedBytes, buffer.count)
                bufferCapacity = max(bufferCapacity, buffer.capacity)
            } else {
                isAtEnd = true
            }
        }
    }
}
