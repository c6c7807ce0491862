/// A corpus's bytes, read from its file a window at a time, so that reading a corpus of any
/// size holds a few MiB of it, not all of it.
///
/// Offsets are the file's. Each access loads what it needs (from the offset it asks for, at
/// least ``windowBytes``), dropping what came before; a corpus is read front to back, so
/// nearly every byte is read once. Bytes made in memory are one window holding everything.
final class CorpusWindow {
    /// The least a load reads.
    static let windowBytes = 16 << 20

    /// The least this window's loads read.
    private let loadBytes: Int
    /// The bytes loaded, the file's from ``base``.
    private(set) var buffer: [UInt8]
    private(set) var base = 0
    /// The file's size when opened (less if it shrinks while read: reading stops there).
    private(set) var count: Int
    private var fd: Int32 = -1
    private let path: String?
    /// The most bytes held at once (tests check that reading stays within a few windows).
    private(set) var largestBuffer = 0

    /// Bytes already in memory.
    init(bytes: [UInt8]) {
        loadBytes = Self.windowBytes
        buffer = bytes
        count = bytes.count
        path = nil
    }

    /// Opens the regular file at `path` (refusing FIFOs, sockets and devices at once, as
    /// ``FileDescriptor/readAll(_:limit:)`` does).
    init(path: String, loadBytes: Int = windowBytes) throws(PanTraceError) {
        self.loadBytes = max(4, loadBytes)
        self.path = path
        buffer = []
        count = 0
        (fd, count) = try FileDescriptor.openRegularFile(path)
    }

    deinit {
        if fd >= 0 { FileDescriptor.close(descriptor: fd) }
    }

    /// Loads the file's bytes from `start` for `length` (or to the end) and returns where
    /// `start` is in ``buffer``.
    func load(_ start: Int, _ length: Int) throws(PanTraceError) -> Int {
        let end = min(count, start + length)
        if start >= base && end <= base + buffer.count { return start - base }
        guard fd >= 0, start < count else { return start - base }
        let wanted = min(count, start + max(length, loadBytes)) - start
        let loaded = try FileDescriptor.readRange(fd, count: wanted, at: start, path: path)
        // Fewer bytes: the file shrank while it was read, and it ends there.
        if loaded.count < wanted { count = start + loaded.count }
        buffer = loaded
        base = start
        largestBuffer = max(largestBuffer, buffer.count)
        return 0
    }

    /// Whether a gzip member starts at `offset`.
    func startsMember(at offset: Int) throws(PanTraceError) -> Bool {
        let at = try load(offset, 3)
        return TraceReader.startsMember(buffer, at: at)
    }

    /// Whether the bytes from `offset` to the end are a proper prefix of a member's first three.
    func gzipPrefix(at offset: Int) throws(PanTraceError) -> Bool {
        let at = try load(offset, 3)
        return TraceReader.gzipPrefix(buffer, at: at)
    }

    /// The next offset after `start` where a gzip member starts, or nil.
    func nextMember(after start: Int) throws(PanTraceError) -> Int? {
        var from = start
        while from + 3 < count {
            let at = try load(from, loadBytes)
            if let found = TraceReader.nextMember(in: buffer, after: at) { return base + found }
            // Not in this window: go on from its last two bytes (a magic may straddle).
            let end = base + buffer.count
            guard end < count else { return nil }
            from = end - 3
        }
        return nil
    }

    /// Inflates the member at `offset`. Its compressed bytes may take up to twice `limit`
    /// (plus up to 1 MiB); a member still going past that reads as corrupt, not cut off.
    func inflateMember(_ inflater: GzipInflater, at offset: Int, limit: Int, into output: inout [UInt8]) throws(PanTraceError)
        -> GzipInflater.Outcome
    {
        let reach = 2 * limit + min(1 << 20, loadBytes)
        let at = try load(offset, reach)
        let outcome = inflater.inflateMember(buffer, from: at, limit: limit, into: &output)
        switch outcome {
        case .truncated where base + buffer.count < count:
            return .corrupt(message: "a compressed member longer than \(reach) bytes", at: base + buffer.count)
        case .corrupt(let message, let near):
            // zlib's offset is the buffer's: make it the file's.
            return .corrupt(message: message, at: base + near)
        default:
            return outcome
        }
    }

    /// The file's bytes in `range` (which the caller bounds).
    func bytes(_ range: Range<Int>) throws(PanTraceError) -> [UInt8] {
        let at = try load(range.lowerBound, range.count)
        return Array(buffer[at..<min(buffer.count, at + range.count)])
    }

}
