/// Writes a `.pantrace` file as a gesture happens: append-only and crash-tolerant.
///
/// The header chunk is written when the writer is created. Samples are buffered and sealed
/// into a chunk (one gzip member, written with one `write(2)`) at least every
/// ``Configuration/chunkDuration`` of gesture time and whenever a sample's phase is
/// `ended` or `cancelled`; a process killed at any instant leaves a file whose complete
/// chunks all read back. ``finish()`` writes the end chunk that marks the file complete.
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
        /// zlib level, 1…9. The default is 1: Rice-coded columns leave deflate almost nothing
        /// to find, and on the benchmark corpus level 6 is only 0.2 % smaller (BENCHMARKS.md).
        public var compressionLevel: Int
        /// Whether each chunk is `fsync`ed (survives power loss, costs milliseconds a chunk).
        public var synchronizesEachChunk: Bool
        /// Whether an `ended` or `cancelled` sample seals its chunk at once (live recording);
        /// a whole-trace writer leaves it for ``TraceWriter/finish()``, saving the end chunk.
        public var sealsAtRelease: Bool

        /// Creates a configuration.
        public init(chunkDuration: Double = 0.1, maximumChunkSamples: Int = 4096, compressionLevel: Int = 1, synchronizesEachChunk: Bool = false,
            sealsAtRelease: Bool = true
        ) {
            precondition(chunkDuration > 0, "chunkDuration must be positive")
            precondition((1...ChunkPayload.maximumSamplesPerChunk).contains(maximumChunkSamples), "maximumChunkSamples must be 1…65536")
            precondition((1...9).contains(compressionLevel), "compressionLevel must be 1…9")
            self.chunkDuration = chunkDuration
            self.maximumChunkSamples = maximumChunkSamples
            self.compressionLevel = compressionLevel
            self.synchronizesEachChunk = synchronizesEachChunk
            self.sealsAtRelease = sealsAtRelease
        }

        /// For recording while the gesture happens: a chunk at least every 100 ms of gesture time.
        public static let live = Configuration()
        /// For writing a trace that already exists whole (convert, synth): up to 4096 samples a chunk.
        public static let archive = Configuration(chunkDuration: .infinity, sealsAtRelease: false)
    }

    /// The grid samples are stored on.
    public let grid: SampleGrid
    /// The metadata most recently written.
    public private(set) var metadata: TraceMetadata
    /// Samples accepted so far.
    public private(set) var sampleCount = 0
    /// Chunks written so far, the header included.
    public private(set) var chunkCount = 0

    private let configuration: Configuration
    private let sink: any ChunkSink
    private let deflater: GzipDeflater
    private var pending = QuantizedColumns()
    private var pendingStart = 0.0
    private var lastTime = -Double.infinity
    private var member: [UInt8] = []
    private var isFinished = false

    /// Creates `path` (never overwriting an existing file) and writes the header chunk.
    /// - Throws: ``PanTraceError`` if the file exists or cannot be written.
    public convenience init(
        creatingFileAt path: String, metadata: TraceMetadata, grid: SampleGrid = .standard, configuration: Configuration = .live
    ) throws(PanTraceError) {
        let file = try FileDescriptor.createExclusive(path)
        do {
            try self.init(sink: FileSink(file, synchronizes: configuration.synchronizesEachChunk), metadata: metadata, grid: grid, configuration: configuration)
        } catch {
            throw error.in(file: path)
        }
    }

    init(
        sink: any ChunkSink, metadata: TraceMetadata, grid: SampleGrid, configuration: Configuration, deflater: GzipDeflater? = nil
    ) throws(PanTraceError) {
        precondition(grid.isValid, "grid scales must be 1…1e9")
        self.sink = sink
        self.metadata = metadata
        self.grid = grid
        self.configuration = configuration
        self.deflater = deflater ?? GzipDeflater(level: Int32(configuration.compressionLevel))
        try writeChunk(ChunkPayload.encodeHeader(grid: grid, metadata: metadata))
    }

    deinit {
        sink.close()
    }

    /// Adds one sample; seals a chunk when the configuration or the phase says so.
    /// - Throws: ``PanTraceError`` for a non-finite or out-of-range value, or a time earlier
    ///   than the previous sample's; nothing is written for a rejected sample.
    public func append(_ sample: PanSample) throws(PanTraceError) {
        precondition(!isFinished, "append after finish()")
        guard sample.time.isFinite else {
            throw PanTraceError(.invalidSample("time is \(sample.time); only finite numbers can be recorded"), sample: sampleCount)
        }
        guard sample.time >= lastTime else {
            throw PanTraceError(.invalidSample("time \(sample.time) s goes backwards (previous sample at \(lastTime) s)"), sample: sampleCount)
        }
        // Seal before a sample that would stretch the chunk past its duration.
        if !pending.isEmpty, sample.time - pendingStart >= configuration.chunkDuration {
            try sealChunk(isFinal: false)
        }
        do {
            try pending.append(sample, grid: grid)
        } catch {
            var located = error
            located.sample = sampleCount
            throw located
        }
        if pending.count == 1 { pendingStart = sample.time }
        lastTime = sample.time
        sampleCount += 1
        if (sample.phase.isTerminal && configuration.sealsAtRelease) || pending.count >= configuration.maximumChunkSamples {
            try sealChunk(isFinal: false)
        }
    }

    /// Appends every sample in order.
    public func append(contentsOf samples: some Sequence<PanSample>) throws(PanTraceError) {
        for sample in samples { try append(sample) }
    }

    /// Writes buffered samples now, whatever the configuration says.
    public func flush() throws(PanTraceError) {
        if !pending.isEmpty { try sealChunk(isFinal: false) }
    }

    /// Records new metadata (an intent labelled after the gesture, say) in a chunk of its own.
    public func updateMetadata(_ metadata: TraceMetadata) throws(PanTraceError) {
        precondition(!isFinished, "updateMetadata after finish()")
        try flush()
        try writeChunk(ChunkPayload.encodeMetadata(metadata))
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
        isFinished = true
        sink.close()
    }

    private func sealChunk(isFinal: Bool) throws(PanTraceError) {
        let first = sampleCount - pending.count
        try writeChunk(ChunkPayload.encodeSamples(pending, firstIndex: first, isFinal: isFinal))
        pending.removeAll()
    }

    private func writeChunk(_ payload: [UInt8]) throws(PanTraceError) {
        member.removeAll(keepingCapacity: true)
        deflater.appendMember(of: payload, to: &member)
        try sink.write(member)
        chunkCount += 1
    }
}

/// Encodes whole traces to `.pantrace` bytes in memory.
///
/// An encoder keeps its zlib stream (about 256 KiB of state) between traces, so encoding
/// many small recordings does not pay for setting one up each time. Use one per thread.
public struct TraceEncoder {
    /// How samples are grouped into chunks.
    public let configuration: TraceWriter.Configuration
    private let deflater: GzipDeflater

    /// Creates an encoder; the default writes whole traces in as few chunks as possible.
    public init(configuration: TraceWriter.Configuration = .archive) {
        self.configuration = configuration
        self.deflater = GzipDeflater(level: Int32(configuration.compressionLevel))
    }

    /// The bytes of `trace` as a complete `.pantrace` file.
    /// - Throws: ``PanTraceError`` naming the first invalid sample.
    public func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        let sink = MemorySink()
        let writer = try TraceWriter(sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: configuration, deflater: deflater)
        try writer.append(contentsOf: trace.samples)
        try writer.finish()
        return sink.bytes
    }

    /// The bytes of `trace` as a complete `.pantrace` file, with a one-off encoder.
    public static func encode(_ trace: Trace, configuration: TraceWriter.Configuration = .archive) throws(PanTraceError) -> [UInt8] {
        try TraceEncoder(configuration: configuration).encode(trace)
    }

    /// Writes `trace` to a new file at `path` (never overwriting).
    ///
    /// The whole file is encoded first, so an invalid sample leaves no file behind.
    public static func write(_ trace: Trace, to path: String, configuration: TraceWriter.Configuration = .archive) throws(PanTraceError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(trace, configuration: configuration)
        } catch {
            throw error.in(file: path)
        }
        let file = try FileDescriptor.createExclusive(path)
        defer { file.close() }
        try file.writeAll(bytes)
    }
}
