internal import Foundation
internal import PanTrace

/// The recordings under the recordings folder, by their path relative to it.
///
/// Ids on the wire are relative paths, and a requested id is only ever looked up in this
/// list, never joined to the folder, so a client cannot name a file outside it.
///
/// A rescan walks the folder but reads a file only when it is new or its size, modification
/// time or inode changed since the last scan; everything else comes from the cache. Only
/// regular files are read (the reader opens non-blocking and checks with `fstat`), so a FIFO
/// or device named `*.pantrace` is skipped with one problem line instead of blocking the
/// controller, and a file over ``maximumFileBytes`` is skipped from its size alone.
struct Library {
    /// The largest recording the library reads: far above any gesture (a 10-minute trace at
    /// 240 Hz is about 1 MiB), and a bound on the memory one junk file can cost a scan.
    static let maximumFileBytes = 64 << 20
    let folder: String
    /// The most `.pantrace` files the folder may hold (`serve --max-files`); a scan past it
    /// lists none and reports the limit, naming the flag.
    let maximumRecordings: Int
    private(set) var recordings: [RecordingInfo] = []
    /// Files that could not be read, with why, as of the last scan.
    private(set) var problems: [String] = []

    private struct Entry {
        var stamp: FileStamp
        var outcome: Result<RecordingInfo, PanTraceError>
    }

    private var cache: [String: Entry] = [:]
    private let reader = TraceReader(configuration: .init(maximumFileBytes: Library.maximumFileBytes))

    /// What the wire carries of a recording's metadata, however much the file holds (a file
    /// may hold up to 1,024 tags of 64 KiB each): the name up to 200 characters, the source and
    /// each tag up to 64, and the first 16 tags. A cut value ends in "…". So a library entry
    /// stays under about 2 KiB and a `hello` bounded.
    static let maximumNameField = 200
    static let maximumShortField = 64
    static let maximumTags = 16
    /// The longest id (path under the recordings folder) listed, in UTF-8 bytes.
    static let maximumIDBytes = 512

    /// `text` cut to `limit` characters, ending in "…" when cut.
    static func bounded(_ text: String, to limit: Int = maximumNameField) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    init(folder: String, maximumRecordings: Int = TraceFolder.defaultLimit) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.maximumRecordings = maximumRecordings
    }

    /// Brings the list up to date with the folder (not following symlinks out of it).
    /// - Returns: problems not reported by the previous scan, one line each.
    @discardableResult
    mutating func rescan() -> [String] {
        var found: [RecordingInfo] = []
        var problems: [String] = []
        var seen: [String: Entry] = [:]
        let listing = TraceFolder.list(folder, formats: [.pantrace], limit: maximumRecordings)
        problems += listing.problems.map { listing.limitReached ? "\($0); none are listed (serve --max-files raises the limit)" : $0 }
        let paths = listing.files
        for relative in paths {
            // The id travels in every library entry: a path too long to name is listed as a problem.
            guard relative.utf8.count <= Self.maximumIDBytes else {
                problems.append("\(relative.prefix(80))…: its path under the recordings folder is longer than \(Self.maximumIDBytes) bytes")
                continue
            }
            let path = folder + "/" + relative
            // stat(2) follows a symlink the walk kept (it leads inside the folder).
            guard let stamp = FileStamp(of: path) else { continue }  // gone since it was listed
            let entry =
                cache[relative].flatMap { $0.stamp == stamp ? $0 : nil }
                ?? Entry(stamp: stamp, outcome: read(relative, at: path))
            seen[relative] = entry
            switch entry.outcome {
            case .success(let info): found.append(info)
            case .failure(let error): problems.append("\(error)")
            }
        }
        let fresh = problems.filter { !self.problems.contains($0) }
        cache = seen
        recordings = found
        self.problems = problems
        return fresh
    }

    private func read(_ relative: String, at path: String) -> Result<RecordingInfo, PanTraceError> {
        do {
            let file = try reader.read(contentsOf: path)
            let m = file.trace.metadata
            return .success(
                RecordingInfo(
                    id: relative, name: Self.bounded(m.id), intent: m.intent, source: Self.bounded(m.source, to: Self.maximumShortField),
                    samples: file.trace.samples.count, durationSeconds: file.trace.duration,
                    tags: m.tags.prefix(Self.maximumTags).map { Self.bounded($0, to: Self.maximumShortField) }, screen: m.screen, edge: m.edge,
                    complete: file.isComplete))
        } catch {
            return .failure(error)
        }
    }

    func contains(_ id: String) -> Bool { recordings.contains { $0.id == id } }

    /// The trace of a listed recording.
    func trace(_ id: String) throws(PanTraceError) -> Trace {
        try reader.read(contentsOf: folder + "/" + id).trace
    }
}
