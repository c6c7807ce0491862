/// Writes a corpus file (`.pantraces`, docs/FORMAT.md §11): many gestures in one file,
/// append-only, every chunk written with one `write(2)`.
///
/// Finished traces are packed, many to a gzip member, so a gesture costs its payloads and a
/// short record rather than a file with its own gzip framing; a `.pantrace` file's bytes that
/// the archive writer would not write exactly so are kept verbatim, so extracting the corpus
/// gives every file back byte for byte. A gesture recorded as it happens
/// (``beginLive(name:metadata:grid:configuration:)``) is written chunk by chunk like a
/// `.pantrace` file, so a process killed at any instant loses less than one chunk duration of
/// the gesture in progress and nothing written before it.
///
/// The file is created unnamed and named at its first write (``Publication/atFirstWrite``,
/// for recording) or only once ``finish()`` has written everything (``Publication/atFinish``,
/// for converting: a crash or a full disk leaves no corpus at all). It never replaces a file.
public final class CorpusWriter {
    /// When the file gets its name.
    public enum Publication: Sendable {
        /// With its first write: what is written survives a crash under the name.
        case atFirstWrite
        /// Once ``CorpusWriter/finish()`` has written everything.
        case atFinish
    }

    /// Gestures added so far.
    public private(set) var gestureCount = 0
    /// Gestures stored packed, verbatim and live so far.
    public private(set) var storageCounts: [CorpusGesture.Storage: Int] = [:]

    private let file: FileDescriptor
    private let publication: Publication
    private let deflater = GzipDeflater(level: 0)
    private let encoder = TraceEncoder()
    private let reader = TraceReader()
    /// Records not yet written: the corpus header until the first chunk goes out, packed gestures.
    private var group = ByteWriter()
    private var member: [UInt8] = []
    private var hasWrittenHeader = false
    /// The name of the last record in ``group``: the next one's shares its start.
    private var previousName = ""
    /// Headers of packed gestures in ``group`` that later ones may share (magic left out).
    private var keptHeaders: [[UInt8]] = []
    private var liveSink: CorpusLiveSink?
    private var isFinished = false

    /// Creates the corpus file that will be named `path` (never replacing a file).
    /// - Throws: ``PanTraceError`` if the file exists or cannot be created.
    public init(creatingFileAt path: String, publication: Publication) throws(PanTraceError) {
        self.file = try FileDescriptor.createUnpublished(path)
        self.publication = publication
        CorpusFormat.encodeHeader(into: &group)
    }

    deinit { file.close() }

    /// Adds a finished trace named `name` (a relative path without `.pantrace`), packed, or
    /// verbatim when its payloads pass the chunk size a packed gesture may have.
    /// - Throws: ``PanTraceError`` for a bad name, a trace the writer refuses, or a failed write.
    @discardableResult
    public func add(_ trace: Trace, name: String) throws(PanTraceError) -> CorpusGesture.Storage {
        try checkOpen(name)
        let base = CorpusFormat.baseName(name)
        let payloads = try encoder.encodePayloads(trace, name: base)
        if payloads.count < CorpusFormat.groupBytes {
            try appendPacked(name: name, payloads: payloads)
            return .packed
        }
        try appendVerbatim(name: name, bytes: try encoder.encode(trace, name: base))
        return .verbatim
    }

    /// Adds the bytes of a `.pantrace` file named `name` (a relative path without
    /// `.pantrace`) so that extracting gives them back exactly: packed when they are what
    /// the archive writer writes for the trace they hold, verbatim otherwise (another
    /// version, a live recording's chunks, a damaged or unfinished file).
    /// - Throws: ``PanTraceError`` for a bad name or a failed write.
    @discardableResult
    public func add(fileBytes bytes: [UInt8], name: String) throws(PanTraceError) -> CorpusGesture.Storage {
        try checkOpen(name)
        let base = CorpusFormat.baseName(name)
        if let contents = try? reader.decode(bytes, name: base), contents.isComplete, contents.warnings.isEmpty,
            let canonical = try? encoder.encode(contents.trace, name: base), canonical == bytes,
            let payloads = try? encoder.encodePayloads(contents.trace, name: base), payloads.count < CorpusFormat.groupBytes
        {
            try appendPacked(name: name, payloads: payloads)
            return .packed
        }
        try appendVerbatim(name: name, bytes: bytes)
        return .verbatim
    }

    /// Starts a gesture written as it happens: samples appended to the returned writer reach
    /// the corpus in chunks, as they would a `.pantrace` file (``TraceWriter``). Finish that
    /// writer before adding another gesture. The gesture's record goes out in the same
    /// `write(2)` as its first chunk, so a crash never leaves a record without a chunk.
    /// - Throws: ``PanTraceError`` for a bad name or metadata the header cannot hold.
    public func beginLive(
        name: String, metadata: TraceMetadata, grid: SampleGrid = .standard, configuration: TraceWriter.Configuration = .live
    ) throws(PanTraceError) -> TraceWriter {
        try checkOpen(name)
        // Packed gestures gathered so far go out first; the corpus header, if not yet
        // written, stays with the record, so a named corpus always holds a gesture's chunk.
        if gestureCount > 0, !group.bytes.isEmpty { try writeGroup() }
        let wasHeaderWritten = hasWrittenHeader
        CorpusFormat.encodeGesture(index: gestureCount, name: name, previous: previousName, storage: .live, length: nil, into: &group)
        previousName = ""
        keptHeaders.removeAll()
        member.removeAll(keepingCapacity: true)
        deflater.appendMember(of: group.bytes, to: &member)
        group.bytes.removeAll(keepingCapacity: true)
        let sink = CorpusLiveSink(
            file: file, record: member, publishes: publication == .atFirstWrite, synchronizes: configuration.synchronizesEachChunk,
            carriesHeader: !wasHeaderWritten)
        liveSink = sink
        hasWrittenHeader = true
        let writer: TraceWriter
        do {
            writer = try TraceWriter(sink: sink, metadata: metadata, grid: grid, configuration: configuration, name: CorpusFormat.baseName(name))
        } catch {
            liveSink = nil
            hasWrittenHeader = wasHeaderWritten
            if !wasHeaderWritten { CorpusFormat.encodeHeader(into: &group) }
            throw error
        }
        count(.live)
        return writer
    }

    /// Writes what is gathered and, for ``Publication/atFinish``, names the file; then
    /// closes it. A corpus with no gesture is a valid, empty corpus. A live gesture whose
    /// writer was not finished stays as far as that writer got (``TraceWriter/flush()`` it
    /// first), without its end mark: an unfinished recording, as a crash would leave it.
    /// - Throws: ``PanTraceError`` if a write fails or the name was taken meanwhile.
    public func finish() throws(PanTraceError) {
        guard !isFinished else { return }
        isFinished = true
        if let liveSink, !liveSink.isClosed { liveSink.close() }
        reclaimUnwrittenLive()
        if !group.bytes.isEmpty || !hasWrittenHeader { try writeGroup() }
        try file.publish()
        file.close()
    }

    private func checkOpen(_ name: String) throws(PanTraceError) {
        precondition(!isFinished, "a gesture added after finish()")
        if let liveSink, !liveSink.isClosed {
            throw PanTraceError(.io("a gesture added while a live gesture is still being written; finish its writer first"))
        }
        reclaimUnwrittenLive()
        if let problem = CorpusFormat.problem(withName: name) { throw PanTraceError(.badCorpus(problem)) }
    }

    /// A live gesture whose writer closed before writing a chunk left its record unwritten:
    /// it never happened, and its index goes to the next gesture.
    private func reclaimUnwrittenLive() {
        guard let sink = liveSink, sink.isClosed else { return }
        liveSink = nil
        guard !sink.hasWritten else { return }
        gestureCount -= 1
        storageCounts[.live, default: 1] -= 1
        if sink.carriesHeader {
            hasWrittenHeader = false
            CorpusFormat.encodeHeader(into: &group)
        }
    }

    private func count(_ storage: CorpusGesture.Storage) {
        gestureCount += 1
        storageCounts[storage, default: 0] += 1
    }

    private func appendPacked(name: String, payloads: [UInt8]) throws(PanTraceError) {
        var stored = CorpusFormat.packed(payloads)
        // A header (metadata and grid) that an earlier gesture of this chunk has too is
        // stored once: on a corpus of like gestures most differ only in the id, which the
        // name already gives.
        var sharing = CorpusFormat.HeaderSharing.none
        var reader = ByteReader(payloads)
        if (try? ChunkPayload.decodeHeader(&reader, name: CorpusFormat.baseName(name))) != nil {
            let header = Array(payloads[HeaderFormat.magic.count..<reader.offset])
            if let index = keptHeaders.firstIndex(of: header) {
                sharing = .shared(index: index)
                stored = stored.dropFirst(header.count)
            } else if keptHeaders.count < CorpusFormat.maximumKeptHeaders {
                sharing = .kept(length: header.count)
                keptHeaders.append(header)
            }
        }
        CorpusFormat.encodeGesture(
            index: gestureCount, name: name, previous: previousName, storage: .packed, sharing: sharing, length: stored.count, into: &group)
        group.raw(stored)
        previousName = name
        count(.packed)
        if group.bytes.count >= CorpusFormat.groupBytes { try writeGroup() }
    }

    private func appendVerbatim(name: String, bytes: [UInt8]) throws(PanTraceError) {
        CorpusFormat.encodeGesture(index: gestureCount, name: name, previous: previousName, storage: .verbatim, length: bytes.count, into: &group)
        previousName = ""
        keptHeaders.removeAll()
        member.removeAll(keepingCapacity: true)
        deflater.appendMember(of: group.bytes, to: &member)
        group.bytes.removeAll(keepingCapacity: true)
        member.append(contentsOf: bytes)
        try write(member)
        count(.verbatim)
    }

    private func writeGroup() throws(PanTraceError) {
        previousName = ""
        keptHeaders.removeAll()
        member.removeAll(keepingCapacity: true)
        deflater.appendMember(of: group.bytes, to: &member)
        group.bytes.removeAll(keepingCapacity: true)
        try write(member)
    }

    private func write(_ bytes: [UInt8]) throws(PanTraceError) {
        try file.writeAll(bytes)
        hasWrittenHeader = true
        if publication == .atFirstWrite { try file.publish() }
    }
}

/// A live gesture's chunks into the corpus: the first goes out with the gesture's record.
final class CorpusLiveSink: ChunkSink {
    private let file: FileDescriptor
    private var record: [UInt8]?
    private let publishes: Bool
    private let synchronizes: Bool
    /// Whether the held record's chunk starts with the corpus header.
    let carriesHeader: Bool
    private(set) var isClosed = false
    var hasWritten: Bool { record == nil }

    init(file: FileDescriptor, record: [UInt8], publishes: Bool, synchronizes: Bool, carriesHeader: Bool) {
        self.file = file
        self.record = record
        self.carriesHeader = carriesHeader
        self.publishes = publishes
        self.synchronizes = synchronizes
    }

    func write(_ member: [UInt8]) throws(PanTraceError) {
        if var record {
            record.append(contentsOf: member)
            try file.writeAll(record)
            self.record = nil
        } else {
            try file.writeAll(member)
        }
        if synchronizes { try file.synchronize() }
        if publishes { try file.publish() }
    }

    /// The gesture is done; the corpus file stays open.
    func close() { isClosed = true }
}
