internal import Foundation

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
    private let handle: FileHandle

    /// Opens `path` for reading.
    init(path: String, bufferSize: Int) throws(CaptureError) {
        precondition(bufferSize >= 16, "bufferSize must be at least 16 bytes")
        self.path = path
        self.bufferSize = bufferSize
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CaptureError(.io("no such file"), file: path)
        }
        guard !isDirectory.boolValue else { throw CaptureError(.io("is a directory"), file: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CaptureError(.io("cannot open for reading"), file: path)
        }
        self.handle = handle
    }

    /// Calls `body` with each line (without its `\n`), in order, until the end of the file or
    /// until `body` returns false.
    mutating func forEachLine(
        _ body: (ArraySlice<UInt8>, Location) throws(CaptureError) -> Bool
    ) throws(CaptureError) {
        defer { try? handle.close() }  // Reading is over either way; a close error changes nothing.
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
            let data: Data?
            do {
                data = try handle.read(upToCount: room)
            } catch {
                throw CaptureError(.io("read failed: \(error.localizedDescription)"), file: path, line: line + 1, byteOffset: consumed + buffer.count)
            }
            if let data, !data.isEmpty {
                buffer.append(contentsOf: data)
                peakBufferedBytes = max(peakBufferedBytes, buffer.count)
                bufferCapacity = max(bufferCapacity, buffer.capacity)
            } else {
                isAtEnd = true
            }
        }
    }
}
