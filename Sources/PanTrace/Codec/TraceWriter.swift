/// Writes a `.pantrace` file as a gesture happens: append-only and crash-tolerant.
///
/// Samples are buffered and sealed into a chunk (one gzip member, written with one
/// `write(2)`) at least every ``Configuration/chunkDuration`` of gesture time and whenever a
/// sample's phase is `ended` or `cancelled`; the header goes out in the same member as the
/// first chunk of samples. A file created with ``init(creatingFileAt:metadata:grid:configuration:)``
/// gets its name only with that first write (docs/FORMAT.md §1), so a process killed at any
/// instant leaves either no file or one whose complete chunks all read back, with at least
/// one sample. ``finish()`` writes the end chunk that marks the file complete.
///
/// ```swift
/// let writer = try TraceWriter(creatingFileAt: "swipe.pantrace", metadata: metadata)
/// for sample in samples { try writer.append(sample) }
/// try writer.finish()
/// ```
public final class TraceWriter {
    /// How samples are grouped into chunks.
    public struct Configuration: Sendable {
        /// The longest stretch of gesture time a chunk holds before it is sealed and written.
        public var chunkDuration: Double
        /// The most samples a chunk holds.
        public var maximumChunkSamples: Int
        /// zlib level, 0…9. The default is 0, stored deflate blocks: Rice-coded columns and
        /// the binary header leave deflate almost nothing to find, and on the benchmark corpus
        /// level 1 makes whole-trace files 0.3 % smaller for 2.4 times the encoding time
        /// (BENCHMARKS.md). ``live`` uses 1: a recording writes ten small chunks a second,
        /// where time does not matter and deflate still finds repeated header strings.
        public var compressionLevel: Int
        /// Whether each chunk is `fsync`ed (survives power loss, costs milliseconds a chunk).
        public var synchronizesEachChunk: Bool
        /// Whether an `ended` or `cancelled` sample seals its chunk at once (live recording);
        /// a whole-trace writer leaves it for ``TraceWriter/finish()``, saving the end chunk.
        public var sealsAtRelease: Bool
        /// Whether chunks are held back and written together, several to a gzip member, by
        /// ``TraceWriter/finish()`` (or when ``groupBytes`` have gathered): the header and
        /// the samples of a short trace then cost one gzip header and trailer, not two. Only
        /// for writing a trace that already exists whole: nothing reaches the file before.
        public var groupsChunks: Bool
        /// Payload bytes gathered before a group is written (well under the reader's 4 MiB cap).
        public var groupBytes: Int

        /// Creates a configuration.
        public init(
            chunkDuration: Double = 0.1, maximumChunkSamples: Int = 4096, compressionLevel: Int = 0, synchronizesEachChunk: Bool = false,
            sealsAtRelease: Bool = true, groupsChunks: Bool = false, groupBytes: Int = 1 << 20
        ) {
            precondition(chunkDuration > 0, "chunkDuration must be positive")
            precondition((1...ChunkPayload.maximumSamplesPerChunk).contains(maximumChunkSamples), "maximumChunkSamples must be 1…65536")
            precondition((0...9).contains(compressionLevel), "compressionLevel must be 0…9")
            precondition(groupBytes > 0, "groupBytes must be positive")
            self.chunkDuration = chunkDuration
            self.maximumChunkSamples = maximumChunkSamples
            self.compressionLevel = compressionLevel
            self.synchronizesEachChunk = synchronizesEachChunk
            self.sealsAtRelease = sealsAtRelease
            self.groupsChunks = groupsChunks
            self.groupBytes = groupBytes
        }

        /// Whether a chunk holding `pendingCount` samples is sealed right after `sample`.
        func seals(after sample: PanSample, pendingCount: Int) -> Bool {
            (sample.phase.isTerminal && sealsAtRelease) || pendingCount >= maximumChunkSamples
        }

        /// For recording while the gesture happens: a chunk at least every 100 ms of gesture
        /// time, each deflated at level 1.
        public static let live = Configuration(compressionLevel: 1)
        /// For writing a trace that already exists whole (convert, synth): up to 512 samples a
        /// chunk (each chunk picks its own column coding), chunks grouped into few gzip members.
        public static let archive = Configuration(chunkDuration: .infinity, maximumChunkSamples: 512, sealsAtRelease: false, groupsChunks: true)
    }

    /// The grid samples are stored on.
    public let grid: SampleGrid
    /// The metadata most recently written.
    public private(set) var metadata: TraceMetadata
    /// Samples accepted so far.
    public private(set) var sampleCount = 0
    /// Chunks (gzip members) written so far, the header included.
    public private(set) var chunkCount = 0

    private let configuration: Configuration
    /// The file's name without `.pantrace`, when known: an id equal to it is not stored.
    private let name: String?
    private let sink: any ChunkSink
    private let deflater: GzipDeflater
    private var pending = QuantizedColumns()
    private var pendingStart = 0.0
    /// The time of the last sample written, once one is.
    private var lastSealedTime: Double?
    private var lastTime = -Double.infinity
    private var member: [UInt8] = []
    private var group: [UInt8] = []
    private var isFinished = false
    /// The header payload, held back until the first chunk of samples (or the end) so that
    /// both go out in one gzip member with one `write(2)`: a file is never seen, or left by a
    /// crash, holding a header and no samples.
    private var heldHeader: [UInt8]?

    /// Creates the file that will be named `path` at the first write (never overwriting an
    /// existing file); the header is written with the first chunk of samples.
    /// - Throws: ``PanTraceError`` if the file exists or cannot be written.
    public convenience init(
        creatingFileAt path: String, metadata: TraceMetadata, grid: SampleGrid = .standard, configuration: Configuration = .live
    ) throws(PanTraceError) {
        let file = try FileDescriptor.createUnpublished(path)
        do {
            try self.init(
                sink: FileSink(file, synchronizes: configuration.synchronizesEachChunk), metadata: metadata, grid: grid, configuration: configuration,
                name: HeaderFormat.name(ofPath: path))
        } catch {
            throw error.in(file: path)
        }
    }

    init(
        sink: any ChunkSink, metadata: TraceMetadata, grid: SampleGrid, configuration: Configuration, deflater: GzipDeflater? = nil,
        name: String? = nil
    ) throws(PanTraceError) {
        precondition(grid.isValid, "grid scales must be 1…1e9")
        self.sink = sink
        self.name = name
        self.metadata = metadata
        self.grid = grid
        self.configuration = configuration
        self.deflater = deflater ?? GzipDeflater(level: Int32(configuration.compressionLevel))
        let header = try ChunkPayload.encodeHeader(grid: grid, metadata: metadata, name: name)
        if configuration.groupsChunks {
            try writeChunk(header)
        } else {
            heldHeader = header
        }
    }

    deinit {
        sink.close()
    }

    /// Adds one sample; seals a chunk when the configuration or the phase says so.
    /// - Throws: ``PanTraceError`` for a non-finite or out-of-range value, or a time earlier
    ///   than the previous sample's; nothing is written for a rejected sample.
    public func append(_ sample: PanSample) throws(PanTraceError) {
        precondition(!isFinished, "append after finish()")
        try Self.checkTime(sample.time, after: lastTime, sample: sampleCount)
        try pending.append(sample, grid: grid, sample: sampleCount)
        if pending.count == 1 { pendingStart = sample.time }
        lastTime = sample.time
        sampleCount += 1
        // A sample that comes a chunk duration or more after the last sample on disk (or,
        // before any, after the first) is sealed with its chunk at once: whatever a crash
        // loses is then less than one chunk duration of gesture time.
        if configuration.seals(after: sample, pendingCount: pending.count)
            || sample.time - (lastSealedTime ?? pendingStart) >= configuration.chunkDuration
        {
            try sealChunk(isFinal: false)
        }
    }

    /// Rejects a time that is not finite, beyond ``ValueLimits/timeMagnitude``, or earlier than the previous sample's.
    static func checkTime(_ time: Double, after lastTime: Double, sample index: Int) throws(PanTraceError) {
        guard ValueLimits.isValidTime(time) else {
            throw PanTraceError(
                .invalidSample("time is \(time) s; only finite times within ±\(ValueLimits.timeMagnitude) s can be recorded"), sample: index)
        }
        guard time >= lastTime else {
            throw PanTraceError(.invalidSample("time \(time) s goes backwards (previous sample at \(lastTime) s)"), sample: index)
        }
    }

    /// Seals the buffered samples if `time` (the newest event's, which a caller may still
    /// be holding back) is a chunk duration or more after the last sample written, so that
    /// what a crash loses stays under one chunk duration even when samples reach the writer
    /// one event late.
    public func sealIfStale(at time: Double) throws(PanTraceError) {
        precondition(!isFinished, "sealIfStale after finish()")
        guard !pending.isEmpty, time - (lastSealedTime ?? pendingStart) >= configuration.chunkDuration else { return }
        try sealChunk(isFinal: false)
    }

    /// Appends every sample in order.
    public func append(contentsOf samples: some Sequence<PanSample>) throws(PanTraceError) {
        for sample in samples { try append(sample) }
    }

    /// Writes buffered samples now, whatever the configuration says.
    public func flush() throws(PanTraceError) {
        if !pending.isEmpty { try sealChunk(isFinal: false) }
        try writeGroup()
    }

    /// Records new metadata (an intent labelled after the gesture, say) in a chunk of its own.
    public func updateMetadata(_ metadata: TraceMetadata) throws(PanTraceError) {
        precondition(!isFinished, "updateMetadata after finish()")
        if heldHeader != nil, pending.isEmpty {
            // Nothing is written yet: the new metadata simply replaces the held header's.
            heldHeader = try ChunkPayload.encodeHeader(grid: grid, metadata: metadata, name: name)
            self.metadata = metadata
            return
        }
        try flush()
        try writeChunk(ChunkPayload.encodeMetadata(metadata, name: name))
        self.metadata = metadata
    }

    /// Writes what is buffered and the end of the recording, then closes the file.
    public func finish() throws(PanTraceError) {
        guard !isFinished else { return }
        if pending.isEmpty {
            try writeChunk(ChunkPayload.encodeEnd(sampleCount: sampleCount))
        } else {
            // The last sample chunk carries the end mark itself: one member fewer a file.
            try sealChunk(isFinal: true)
        }
        try writeGroup()
        isFinished = true
        sink.close()
    }

    private func sealChunk(isFinal: Bool) throws(PanTraceError) {
        let first = sampleCount - pending.count
        try writeChunk(ChunkPayload.encodeSamples(pending, grid: grid, firstIndex: first, isFinal: isFinal))
        pending.removeAll()
        lastSealedTime = lastTime
    }

    private func writeChunk(_ payload: [UInt8]) throws(PanTraceError) {
        guard configuration.groupsChunks else {
            guard var header = heldHeader else { return try writeMember(payload) }
            header.append(contentsOf: payload)
            try writeMember(header)
            heldHeader = nil
            return
        }
        group.append(contentsOf: payload)
        if group.count >= configuration.groupBytes { try writeGroup() }
    }

    private func writeGroup() throws(PanTraceError) {
        guard !group.isEmpty else { return }
        try writeMember(group)
        group.removeAll(keepingCapacity: true)
    }

    private func writeMember(_ payload: [UInt8]) throws(PanTraceError) {
        member.removeAll(keepingCapacity: true)
        deflater.appendMember(of: payload, to: &member)
        try sink.write(member)
        chunkCount += 1  // gzip members: a group counts once
    }
}

/// Encodes whole traces to `.pantrace` bytes in memory.
///
/// An encoder keeps its zlib stream and its buffers between traces, so encoding many small
/// recordings allocates little and never sets up zlib again. Use one per thread. The bytes
/// are exactly those a ``TraceWriter`` with the same configuration writes.
public final class TraceEncoder {
    /// How samples are grouped into chunks.
    public let configuration: TraceWriter.Configuration
    private let deflater: GzipDeflater
    private let state = EncodeState()

    /// Creates an encoder; the default writes whole traces in as few chunks as possible.
    public init(configuration: TraceWriter.Configuration = .archive) {
        self.configuration = configuration
        self.deflater = GzipDeflater(level: Int32(configuration.compressionLevel))
    }

    /// The bytes of `trace` as a complete `.pantrace` file. `name` is the name the file will
    /// have, without `.pantrace` (``HeaderFormat/name(ofPath:)``): an id equal to it is left
    /// out of the header, and a reader given the file's path reads it back from there.
    /// - Throws: ``PanTraceError`` naming the first invalid sample.
    public func encode(_ trace: Trace, name: String? = nil) throws(PanTraceError) -> [UInt8] {
        try encode(trace, name: name, framed: true)
    }

    /// The payloads of `trace` as the archive configuration writes them, concatenated without
    /// gzip framing and never split into groups: what `zcat` of a one-member file gives, and
    /// what a corpus stores for a packed gesture (docs/FORMAT.md §11).
    func encodePayloads(_ trace: Trace, name: String? = nil) throws(PanTraceError) -> [UInt8] {
        precondition(configuration.groupsChunks, "payloads alone only for a grouping configuration")
        return try encode(trace, name: name, framed: false)
    }

    private func encode(_ trace: Trace, name: String?, framed: Bool) throws(PanTraceError) -> [UInt8] {
        // Without grouping every chunk is its own member, written as it is sealed: the writer's job.
        guard configuration.groupsChunks else {
            let sink = MemorySink()
            let writer = try TraceWriter(
                sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: configuration, deflater: deflater, name: name)
            try writer.append(contentsOf: trace.samples)
            try writer.finish()
            return sink.bytes
        }
        // The writer's chunking, inlined over buffers kept between traces. Take them out of
        // the state so they are uniquely referenced while in use.
        var payload = ByteWriter()
        swap(&payload.bytes, &state.payload)
        var columns = QuantizedColumns()
        swap(&columns, &state.columns)
        defer {
            swap(&payload.bytes, &state.payload)
            swap(&columns, &state.columns)
        }
        payload.bytes.removeAll(keepingCapacity: true)
        columns.removeAll()
        var output: [UInt8] = []
        let grid = trace.grid
        try ChunkPayload.encodeHeader(grid: grid, metadata: trace.metadata, name: name, into: &payload)
        func seal(_ first: Int, isFinal: Bool) {
            ChunkPayload.encodeSamples(columns, grid: grid, firstIndex: first, isFinal: isFinal, into: &payload)
            if framed, payload.bytes.count >= configuration.groupBytes {
                deflater.appendMember(of: payload.bytes, to: &output)
                payload.bytes.removeAll(keepingCapacity: true)
            }
        }
        // Chunk by chunk: find where the writer would seal, checking times as it does, then
        // quantize the chunk's columns in one go.
        let samples = trace.samples
        var start = 0, endedFinal = false
        while start < samples.count {
            var end = start
            var sealed = false
            // As the writer: a chunk ends with the first sample a chunk duration or more after
            // the last sample of the chunk before (or after its own first, for the first chunk).
            let reference = start > 0 ? samples[start - 1].time : samples[start].time
            repeat {
                let sample = samples[end]
                try TraceWriter.checkTime(sample.time, after: end > 0 ? samples[end - 1].time : -.infinity, sample: end)
                end += 1
                if configuration.seals(after: sample, pendingCount: end - start) || sample.time - reference >= configuration.chunkDuration {
                    sealed = true
                    break
                }
            } while end < samples.count
            try columns.fill(samples[start..<end], grid: grid, firstIndex: start)
            // The writer marks the last chunk final only when finish() finds it still open.
            endedFinal = !sealed && end == samples.count
            seal(start, isFinal: endedFinal)
            start = end
        }
        if !endedFinal { ChunkPayload.encodeEnd(sampleCount: samples.count, into: &payload) }
        guard framed else { return payload.bytes }
        if !payload.bytes.isEmpty { deflater.appendMember(of: payload.bytes, to: &output) }
        return output
    }

    /// The bytes of `trace` as a complete `.pantrace` file, with a one-off encoder.
    public static func encode(
        _ trace: Trace, configuration: TraceWriter.Configuration = .archive, name: String? = nil
    ) throws(PanTraceError) -> [UInt8] {
        try TraceEncoder(configuration: configuration).encode(trace, name: name)
    }

    /// Writes `trace` to a new file at `path` (never overwriting).
    ///
    /// The whole file is encoded first, so an invalid sample leaves no file behind, and it is
    /// named only once written whole, so a full disk or a crash leaves none either.
    public static func write(_ trace: Trace, to path: String, configuration: TraceWriter.Configuration = .archive) throws(PanTraceError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(trace, configuration: configuration, name: HeaderFormat.name(ofPath: path))
        } catch {
            throw error.in(file: path)
        }
        try FileDescriptor.writeNew(path, bytes)
    }
}

/// Buffers an encoder reuses from one trace to the next.
final class EncodeState {
    var payload: [UInt8] = []
    var columns = QuantizedColumns()
}
