internal import Foundation
internal import PanTrace
internal import PanLiveWire

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
///
/// A corpus file (`.pantraces`, docs/FORMAT.md §11) is listed as one entry per gesture, id
/// `path/corpus.pantraces#name`, up to ``maximumCorpusGestures`` of them (`serve
/// --max-corpus-gestures`): past it the rest are not read, and ``notices`` says so (the page
/// and serve's output show it). The corpus is read a MiB at a time and only as far as that.
/// Each listed gesture keeps where its record is, so loading it inflates one
/// chunk, not the corpus.
struct Library {
    /// The largest recording the library reads: far above any gesture (a 10-minute trace at
    /// 240 Hz is about 1 MiB), and a bound on the memory one junk file can cost a scan.
    static let maximumFileBytes = 64 << 20
    /// How the library reads every file it lists or loads: at most ``maximumFileBytes`` on
    /// disk, and at most as many once inflated. A file PanTrace writes inflates to about its own
    /// size (stored blocks, or level 1 over Rice-coded columns), so the reader's default of
    /// 1 GiB inflated only lets a small hostile file (a metadata payload of 4 MiB repeated in
    /// a thousandfold-compressed chunk) cost seconds of the scan that serve's start-up waits for.
    static let readerConfiguration = TraceReader.Configuration(maximumFileBytes: maximumFileBytes, maximumTotalBytes: maximumFileBytes)
    let folder: String
    /// The most `.pantrace` files the folder may hold (`serve --max-files`); a scan past it
    /// lists none and reports the limit, naming the flag.
    let maximumRecordings: Int
    private(set) var recordings: [RecordingInfo] = []
    /// The ids of ``recordings``, for ``contains(_:)`` in constant time (a tune of the whole
    /// library asks once per recording).
    private var ids: Set<String> = []
    /// How many of ``recordings`` are in `live/` (the live folder's budget counts them at every
    /// `began`, without a walk of the list).
    private(set) var liveCount = 0
    /// Files that could not be read, with why, as of the last scan.
    private(set) var problems: [String] = []
    /// Limits the last scan reached (a corpus listed in part), one line each naming the flag.
    private(set) var notices: [String] = []
    /// The most gestures listed of one corpus file (`serve --max-corpus-gestures`).
    let maximumCorpusGestures: Int
    /// The default of ``maximumCorpusGestures``: five library pages of a `hello`'s size over,
    /// a few milliseconds of decoding per scan, whatever the corpus holds.
    static let defaultCorpusGestureLimit = 1_000
    /// Where each listed corpus gesture is, by id.
    private(set) var corpusGestures: [String: CorpusLocation] = [:]

    /// Where a gesture of a corpus file is: what loading it needs to inflate one chunk.
    struct CorpusLocation: Sendable, Equatable {
        /// The corpus file, its path under the recordings folder.
        var corpus: String
        /// Where the chunk holding the gesture's record starts (``CorpusGesture/byteOffset``).
        var chunkOffset: Int
        var index: Int
        var name: String
    }

    private struct Entry {
        var stamp: FileStamp
        var outcome: Result<[RecordingInfo], PanTraceError>
        var locations: [(id: String, location: CorpusLocation)] = []
        /// Gestures of a corpus that could not be read, and limits reached.
        var problems: [String] = []
        var notice: String?
    }

    private var cache: [String: Entry] = [:]
    private let reader = TraceReader(configuration: Library.readerConfiguration)

    /// What the wire carries of a recording's metadata, however much the file holds (a file
    /// may hold up to 1,024 tags of 64 KiB each): the name up to 200 bytes of UTF-8, the source
    /// and each tag up to 64, and the first 16 tags. A cut value ends in "…"
    /// (``WireText/cut(_:toBytes:)``: bytes, not characters, which can be any size). So a
    /// library entry stays under about 2 KiB and a `hello` bounded.
    static let maximumNameBytes = 200
    static let maximumShortBytes = 64
    static let maximumTags = 16
    /// The longest id (path under the recordings folder) listed, in UTF-8 bytes.
    static let maximumIDBytes = 512

    /// `text` cut to `limit` bytes of UTF-8, ending in "…" when cut.
    static func bounded(_ text: String, toBytes limit: Int = maximumNameBytes) -> String {
        WireText.cut(text, toBytes: limit)
    }

    init(folder: String, maximumRecordings: Int = TraceFolder.defaultLimit, maximumCorpusGestures: Int = defaultCorpusGestureLimit) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.maximumRecordings = maximumRecordings
        self.maximumCorpusGestures = maximumCorpusGestures
    }

    /// Brings the list up to date with the folder (not following symlinks out of it).
    /// - Returns: problems and notices not reported by the previous scan, one line each.
    @discardableResult
    mutating func rescan() -> (problems: [String], notices: [String]) {
        var found: [RecordingInfo] = []
        var problems: [String] = []
        var notices: [String] = []
        var locations: [String: CorpusLocation] = [:]
        var seen: [String: Entry] = [:]
        let listing = TraceFolder.list(folder, formats: [.pantrace], corpora: true, limit: maximumRecordings)
        problems += listing.problems.map { listing.limitReached ? "\($0); none are listed (serve --max-files raises the limit)" : $0 }
        let paths = listing.files
        for relative in paths {
            // The id travels in every library entry: a path too long to name is listed as a problem.
            guard relative.utf8.count <= Self.maximumIDBytes else {
                problems.append(
                    "\(WireText.cut(relative, toBytes: 80)): its path under the recordings folder is longer than \(Self.maximumIDBytes) bytes")
                continue
            }
            // A corpus gesture's id is `corpus.pantraces#name`: a plain file whose path reads so
            // would share an id with one, and a page could not tell which it named.
            guard GestureCorpus.isCorpus(path: relative) || !relative.contains(".pantraces#") else {
                problems.append(
                    "\(WireText.cut(relative, toBytes: 80)): its path reads as a gesture of a corpus file (\".pantraces#\"), "
                        + "so it is not listed; rename it")
                continue
            }
            let path = folder + "/" + relative
            // stat(2) follows a symlink the walk kept (it leads inside the folder).
            guard let stamp = FileStamp(of: path) else { continue }  // gone since it was listed
            let entry =
                cache[relative].flatMap { $0.stamp == stamp ? $0 : nil }
                ?? (GestureCorpus.isCorpus(path: relative)
                    ? readCorpus(relative, at: path, stamp: stamp) : Entry(stamp: stamp, outcome: read(relative, at: path).map { [$0] }))
            seen[relative] = entry
            switch entry.outcome {
            case .success(let infos): found += infos
            case .failure(let error): problems.append("\(error)")
            }
            problems += entry.problems
            if let notice = entry.notice { notices.append(notice) }
            for (id, location) in entry.locations { locations[id] = location }
        }
        let fresh = (problems.filter { !self.problems.contains($0) }, notices.filter { !self.notices.contains($0) })
        cache = seen
        recordings = found
        ids = Set(found.map(\.id))
        liveCount = found.count { $0.id.hasPrefix("live/") }
        corpusGestures = locations
        self.problems = problems
        self.notices = notices
        return fresh
    }

    private func read(_ relative: String, at path: String) -> Result<RecordingInfo, PanTraceError> {
        do {
            let file = try reader.read(contentsOf: path)
            return .success(Self.info(id: relative, file: file))
        } catch {
            return .failure(error)
        }
    }

    private static func info(id: String, file: TraceFile) -> RecordingInfo {
        let m = file.trace.metadata
        return RecordingInfo(
            id: id, name: Self.bounded(m.id), intent: m.intent, source: Self.bounded(m.source, toBytes: Self.maximumShortBytes),
            samples: file.trace.samples.count, durationSeconds: file.trace.duration,
            tags: m.tags.prefix(Self.maximumTags).map { Self.bounded($0, toBytes: Self.maximumShortBytes) }, screen: m.screen, edge: m.edge,
            complete: file.isComplete)
    }

    /// Lists the gestures of a corpus file, up to ``maximumCorpusGestures``.
    private func readCorpus(_ relative: String, at path: String, stamp: FileStamp) -> Entry {
        var entry = Entry(stamp: stamp, outcome: .success([]))
        // A MiB at a time, and only as far as the gesture after the limit: a corpus of 10⁶
        // gestures costs what its first ones do.
        let corpusReader = CorpusReader(reader: reader)
        corpusReader.windowBytes = 1 << 20
        var infos: [RecordingInfo] = []
        var seen = 0
        let limit = maximumCorpusGestures
        do {
            let between = try corpusReader.read(contentsOf: path) { gesture, outcome in
                seen += 1
                guard seen <= limit else {
                    corpusReader.stop()
                    return
                }
                let id = gesture.label(in: relative)
                guard id.utf8.count <= Self.maximumIDBytes else {
                    entry.problems.append(
                        "\(WireText.cut(id, toBytes: 80)): its id under the recordings folder is longer than \(Self.maximumIDBytes) bytes")
                    return
                }
                switch outcome {
                case .success(let file):
                    infos.append(Self.info(id: id, file: file))
                    entry.locations.append(
                        (id, CorpusLocation(corpus: relative, chunkOffset: gesture.byteOffset, index: gesture.index, name: gesture.name)))
                case .failure(let error):
                    entry.problems.append("\(error)")
                }
            }
            if seen > limit {
                entry.notice =
                    "\(relative): a corpus of more than \(limit) gestures; only its first \(limit) are listed (serve --max-corpus-gestures raises the limit)"
            } else {
                entry.problems += between.map { "\($0)" }
            }
        } catch {
            entry.outcome = .failure(error)
            return entry
        }
        entry.outcome = .success(infos)
        return entry
    }

    /// Whether `id` is listed.
    func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Where `id` is, when it names a gesture of a corpus file.
    func corpusLocation(of id: String) -> CorpusLocation? { corpusGestures[id] }

    /// The trace of a listed recording.
    func trace(_ id: String) throws(PanTraceError) -> Trace {
        try Self.trace(id, folder: folder, location: corpusGestures[id])
    }

    /// The traces of `ids` under `folder`, in order, each handed to `body` as it is read (or
    /// the error that stopped it), so no more than one is held at a time. A run of ids that
    /// name gestures of one corpus file in the file's order (a whole library lists them so) is
    /// read in one pass over the file; read one by one, each would inflate its chunk again,
    /// and a tune of a library holding a corpus of thousands of gestures took seconds per
    /// thousand. Off the controller thread (tune jobs).
    static func eachTrace(
        _ ids: [String], folder: String, locations: [String: CorpusLocation], _ body: (String, Result<Trace, PanTraceError>) -> Void
    ) {
        var start = 0
        while start < ids.count {
            // The run from `start`: ids of one corpus's gestures, ascending by index.
            var run: [(id: String, location: CorpusLocation)] = []
            while start + run.count < ids.count, let next = locations[ids[start + run.count]],
                run.isEmpty || (next.corpus == run[0].location.corpus && next.index > run[run.count - 1].location.index)
            {
                run.append((ids[start + run.count], next))
            }
            if run.count > 1 {
                readRun(run, folder: folder, body)
            } else {
                body(ids[start], alone(ids[start], folder: folder, location: run.first?.location))
            }
            start += max(1, run.count)
        }
    }

    /// One recording read on its own (a corpus gesture inflates its chunk).
    private static func alone(_ id: String, folder: String, location: CorpusLocation?) -> Result<Trace, PanTraceError> {
        Result { () throws(PanTraceError) in try trace(id, folder: folder, location: location) }
    }

    /// Gestures of one corpus, ascending by index, in one pass over the file (see ``eachTrace``).
    private static func readRun(
        _ wanted: [(id: String, location: CorpusLocation)], folder: String, _ body: (String, Result<Trace, PanTraceError>) -> Void
    ) {
        var next = 0
        /// Wanted gestures the pass went by without finding (the file changed since it was
        /// listed, or could not be read): each is read alone, which says why it cannot be.
        func missed(before index: Int) {
            while next < wanted.count, wanted[next].location.index < index {
                body(wanted[next].id, alone(wanted[next].id, folder: folder, location: wanted[next].location))
                next += 1
            }
        }
        let reader = CorpusReader(reader: TraceReader(configuration: readerConfiguration))
        _ = try? reader.read(contentsOf: folder + "/" + wanted[0].location.corpus) { gesture, outcome in
            missed(before: gesture.index)
            guard next < wanted.count else { return reader.stop() }
            guard wanted[next].location.index == gesture.index, wanted[next].location.name == gesture.name else { return }
            body(wanted[next].id, outcome.map(\.trace))
            next += 1
            if next == wanted.count { reader.stop() }
        }
        missed(before: .max)
    }

    /// The trace of recording `id` under `folder`: a file, or (with `location`) one gesture of
    /// a corpus file, for which only the chunk holding it is inflated. Used off the controller
    /// thread too (tune and compare jobs).
    static func trace(_ id: String, folder: String, location: CorpusLocation?) throws(PanTraceError) -> Trace {
        let reader = TraceReader(configuration: readerConfiguration)
        guard let location else { return try reader.read(contentsOf: folder + "/" + id).trace }
        let path = folder + "/" + location.corpus
        // Only the chunk holding the gesture is inflated; the file is read a window at a time.
        return try CorpusReader(reader: reader).gesture(
            inFile: path, chunkOffset: location.chunkOffset, index: location.index, name: location.name
        ).trace
    }
}
