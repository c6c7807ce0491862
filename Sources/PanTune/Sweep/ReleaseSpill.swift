internal import Foundation
internal import Synchronization
internal import TransitionEngine

/// Release states written to a temporary file in blocks, read back in order by any number of
/// readers at once: what ``ReleaseColumns`` keeps of a large corpus instead of memory.
///
/// The file is removed from its folder as soon as it is open, so nothing is left behind when
/// the process ends, however it ends; the open handle keeps the bytes until the spill is
/// released. Each reader opens the file again through `/proc/self/fd` (Linux), so each has its
/// own offset, and reads only the states written when it started. A state is 11 little-endian
/// 64-bit words: its ten numbers to the bit and its phase and `changed` flag. A spill is
/// refused (nil, or `false` from ``append(_:after:)``), and the states stay in memory, when
/// the temporary folder cannot take the file or the file cannot be opened again.
final class ReleaseSpill: Sendable {
    /// Keeps the unlinked file alive; appended through, and reopened by readers.
    private let handle: FileHandle
    /// The states in the file.
    private let written = Mutex(0)

    /// Bytes a state takes in the file.
    static let recordSize = 11 * 8
    /// States encoded or decoded per read or write.
    static let readSize = 8192

    /// An empty temporary file in `folder`, or nil when it cannot be made and opened twice.
    init?(folder: URL = FileManager.default.temporaryDirectory) {
        let url = folder.appendingPathComponent("pantrace-releases-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forUpdating: url)
        else { return nil }
        try? FileManager.default.removeItem(at: url)
        // Reading must work before any state leaves memory.
        guard let reader = FileHandle(forReadingAtPath: "/proc/self/fd/\(handle.fileDescriptor)") else {
            try? handle.close()
            return nil
        }
        try? reader.close()
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// The states in the file.
    var count: Int { written.withLock { $0 } }

    /// Writes `states` after the first `expected` states of the file, when it holds exactly
    /// that many (a copy of the columns that went its own way does not write over another's);
    /// false, with the file's count unchanged, when it does not or a write fails.
    func append(_ states: ReleaseBlock, after expected: Int) -> Bool {
        written.withLock { count in
            guard count == expected else { return false }
            do {
                try handle.seek(toOffset: UInt64(expected * Self.recordSize))
                var start = 0
                while start < states.count {
                    let end = min(states.count, start + Self.readSize)
                    try handle.write(contentsOf: Self.encode(states[start..<end]))
                    start = end
                }
            } catch {
                return false
            }
            count += states.count
            return true
        }
    }

    /// Reads the first `count` states in order, a few thousand at a time.
    struct Reader {
        private let spill: ReleaseSpill
        private let count: Int
        private var file: FileHandle?
        private var read = 0

        init(_ spill: ReleaseSpill, count: Int) {
            self.spill = spill
            self.count = count
        }

        /// The next states (empty at the end).
        /// - Throws: when the file cannot be read back (an I/O error of the temporary folder).
        mutating func next(into states: inout [ReleaseState]) throws {
            guard read < count else {
                states.removeAll(keepingCapacity: true)
                try file?.close()
                file = nil
                return
            }
            if file == nil {
                guard let reader = FileHandle(forReadingAtPath: "/proc/self/fd/\(spill.handle.fileDescriptor)") else {
                    throw CocoaError(.fileReadUnknown)
                }
                file = reader
            }
            let wanted = min(ReleaseSpill.readSize, count - read)
            let data = try file!.read(upToCount: wanted * ReleaseSpill.recordSize) ?? Data()
            guard data.count == wanted * ReleaseSpill.recordSize else { throw CocoaError(.fileReadCorruptFile) }
            ReleaseSpill.decode(data, into: &states)
            read += wanted
        }
    }
}
