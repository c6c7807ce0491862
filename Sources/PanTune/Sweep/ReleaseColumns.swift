internal import Foundation
internal import TransitionEngine

/// The release states of a sweep's traces, in trace order: the latest in memory, in columns
/// (``ReleaseBlock``, about 49 bytes a state), and every full block of ``spillAfter`` states
/// before them in one temporary file (``ReleaseSpill``), so a corpus of millions of gestures
/// keeps a few megabytes of states in memory whatever its size.
///
/// The sweeps read the states in order, several readers at once, so this is a sequence, not
/// a collection: each iterator reads the files a few thousand states at a time. A corpus under
/// ``spillAfter`` gestures never touches the disk, and if the temporary folder refuses a file
/// the states stay in memory (the results are the same; only the memory differs).
struct ReleaseColumns: Sendable, Sequence {
    /// States kept in memory before they go to a file, by default: 262,144 (about 13 MB).
    static let defaultSpillAfter = 1 << 18

    /// States kept in memory before they go to a file.
    let spillAfter: Int
    /// Where the files go.
    let folder: URL
    private var spill: ReleaseSpill?
    /// The states in the file (the first ones).
    private var spilled = 0
    private var tail = ReleaseBlock()
    private var spillRefused = false
    /// The states in all.
    private(set) var count = 0

    /// No states; the states past `spillAfter` go to files.
    init(spillingAfter spillAfter: Int = Self.defaultSpillAfter, to folder: URL = FileManager.default.temporaryDirectory) {
        self.spillAfter = Swift.max(1, spillAfter)
        self.folder = folder
    }

    /// The states given, in order.
    init(
        _ states: some Sequence<ReleaseState>, spillingAfter spillAfter: Int = Self.defaultSpillAfter,
        to folder: URL = FileManager.default.temporaryDirectory
    ) {
        self.init(spillingAfter: spillAfter, to: folder)
        for state in states { append(state) }
    }

    /// Whether there are no states.
    var isEmpty: Bool { count == 0 }

    /// How many blocks went to the file (tests check when states spill).
    var spilledBlocks: Int { spilled / spillAfter }

    /// Adds `state` at the end.
    mutating func append(_ state: ReleaseState) {
        tail.append(state)
        count += 1
        guard tail.count >= spillAfter, !spillRefused else { return }
        if spill == nil { spill = ReleaseSpill(folder: folder) }
        guard let spill, spill.append(tail, after: spilled) else {
            spillRefused = true
            return
        }
        spilled += tail.count
        // From now on the block holds exactly one block's states, no more capacity.
        if spilled == tail.count {
            tail = ReleaseBlock()
            tail.reserveCapacity(spillAfter)
        } else {
            tail.removeAll()
        }
    }

    func makeIterator() -> Iterator { Iterator(self) }

    var underestimatedCount: Int { count }

    /// Reads the file in order, then the states in memory.
    struct Iterator: IteratorProtocol {
        private let columns: ReleaseColumns
        private var reader: ReleaseSpill.Reader?
        private var buffer: [ReleaseState] = []
        private var position = 0
        private var tailIndex = 0

        init(_ columns: ReleaseColumns) {
            self.columns = columns
            reader = columns.spill.map { ReleaseSpill.Reader($0, count: columns.spilled) }
        }

        mutating func next() -> ReleaseState? {
            if position == buffer.count, reader != nil {
                do {
                    try reader!.next(into: &buffer)
                } catch {
                    // The file was written, read back once and unlinked by this process: only an
                    // I/O error of the temporary folder's disk gets here, and no result can be
                    // trusted after it.
                    fatalError("pantrace: the temporary file of release states could not be read back: \(error)")
                }
                position = 0
                if buffer.isEmpty { reader = nil }
            }
            if position < buffer.count {
                defer { position += 1 }
                return buffer[position]
            }
            guard tailIndex < columns.tail.count else { return nil }
            defer { tailIndex += 1 }
            return columns.tail[tailIndex]
        }
    }
}
