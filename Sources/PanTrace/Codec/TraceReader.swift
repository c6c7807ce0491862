/// Reads `.pantrace` files, treating every file as hostile.
///
/// Allocation is bounded: the file size, each chunk's inflated size and the total inflated
/// size are capped, and no buffer is sized from a value in the file. Every failure is a
/// ``PanTraceError`` naming the chunk and byte offset. A file cut off inside a chunk (a
/// crash while recording) or one whose chunks are whole but that has no end mark (a
/// recording never finished) yields every complete chunk and a warning saying which, or an
/// error when ``Configuration/isStrict``; a corrupt chunk is an error unless ``Configuration/salvages``,
/// which skips to the next gzip member and reports what it skipped.
///
/// A reader keeps its zlib stream and column buffers between files, so it is a class: copies
/// of a reference share them. Use one per thread.
public final class TraceReader {
    /// Limits and policies for reading.
    public struct Configuration: Sendable {
        /// Largest file accepted, in bytes.
        public var maximumFileBytes: Int
        /// Largest inflated chunk, in bytes.
        public var maximumChunkBytes: Int
        /// Largest total inflated size, in bytes (the deflate-bomb guard).
        public var maximumTotalBytes: Int
        /// Whether a file that ends early (cut inside a chunk, or without its end mark) is an
        /// error rather than a warning.
        public var isStrict: Bool
        /// Whether corrupt chunks are skipped (and reported) rather than fatal.
        public var salvages: Bool

        /// Creates a configuration; the defaults suit any real recording.
        public init(
            maximumFileBytes: Int = 1 << 30, maximumChunkBytes: Int = 4 << 20, maximumTotalBytes: Int = 1 << 30,
            isStrict: Bool = false, salvages: Bool = false
        ) {
            self.maximumFileBytes = maximumFileBytes
            self.maximumChunkBytes = maximumChunkBytes
            self.maximumTotalBytes = maximumTotalBytes
            self.isStrict = isStrict
            self.salvages = salvages
        }
    }

    /// The configuration in use.
    public var configuration: Configuration
    private let inflater = GzipInflater()
    private let state = DecodeState()

    /// Creates a reader.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Reads the file at `path`.
    /// - Throws: ``PanTraceError`` naming the file, chunk and byte offset.
    public func read(contentsOf path: String) throws(PanTraceError) -> TraceFile {
        let bytes = try FileDescriptor.readAll(path, limit: configuration.maximumFileBytes)
        do {
            var file = try decode(bytes, name: HeaderFormat.name(ofPath: path))
            file.warnings = file.warnings.map { $0.in(file: path) }
            return file
        } catch {
            throw error.in(file: path)
        }
    }

    /// Decodes a whole file held in memory. `name` is the file's name without `.pantrace`
    /// (``HeaderFormat/name(ofPath:)``), the id of a version 3 file whose header leaves it
    /// out; without a name such a file's id is empty.
    public func decode(_ bytes: [UInt8], name: String? = nil) throws(PanTraceError) -> TraceFile {
        var samples: [PanSample] = []
        var file = try decode(bytes, into: &samples, name: name)
        file.trace.samples = samples
        return file
    }

    /// Decodes a whole file held in memory into `samples`, which it replaces, keeping its
    /// capacity: decoding file after file (or one long trace again and again) into the same
    /// array allocates nothing in proportion to the samples once the array is large enough.
    /// The returned file's trace has no samples: they are in `samples`. After an error,
    /// `samples` holds whatever was decoded before it.
    public func decode(_ bytes: [UInt8], into samples: inout [PanSample], name: String? = nil) throws(PanTraceError) -> TraceFile {
        samples.removeAll(keepingCapacity: true)
        guard !bytes.isEmpty else { throw PanTraceError(.emptyFile) }
        // The buffers are used where the state keeps them (an access to the class's stored
        // property: uniquely referenced, so nothing is copied or retained).
        var run = DecodeRun(bytes: bytes, configuration: configuration, name: name)
        swap(&run.samples, &samples)
        defer { swap(&run.samples, &samples) }
        while run.offset < bytes.count {
            let start = run.offset
            switch try run.inflateChunk(at: start, with: inflater, into: &state.payload) {
            case .inflated: try run.decodePayloads(state.payload, ofChunkAt: start, scratch: &state.scratch)
            case .skipped: continue
            case .endOfFile: continue  // the offset is at the end: the loop ends
            }
            run.finishChunk()
        }
        return try run.file()
    }

    /// Decodes the payloads of a whole trace held without gzip framing (a packed gesture of a
    /// corpus, docs/FORMAT.md §11) into `samples`, which it replaces, as if they were the one
    /// chunk of a file: header first, then sample, metadata and end payloads. The returned
    /// file's trace has no samples and its byte count is `payload`'s. `header`, when given, is
    /// the decoded header `payload` starts with (a corpus decodes a shared one once).
    func decodePayloads(
        _ payload: [UInt8], into samples: inout [PanSample], name: String?, header: DecodedHeader? = nil
    ) throws(PanTraceError) -> TraceFile {
        samples.removeAll(keepingCapacity: true)
        var run = DecodeRun(bytes: [], configuration: configuration, name: name)
        run.knownHeader = header
        swap(&run.samples, &samples)
        defer { swap(&run.samples, &samples) }
        try run.decodePayloads(payload, ofChunkAt: 0, scratch: &state.scratch)
        run.finishChunk()
        var file = try run.file()
        file.byteCount = payload.count
        return file
    }

    /// Whether a gzip member (`1f 8b 08`) starts at `offset`.
    static func startsMember(_ bytes: [UInt8], at offset: Int) -> Bool { looksLikeMember(bytes, at: offset) }

    /// Whether the bytes from `offset` to the end are a proper prefix of a member's first three.
    static func gzipPrefix(_ bytes: [UInt8], at offset: Int) -> Bool { gzipMagic.starts(with: bytes[offset...]) }

    fileprivate static let gzipMagic: [UInt8] = [0x1f, 0x8b, 0x08]

    fileprivate static func looksLikeMember(_ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.count - offset >= 3 && bytes[offset] == 0x1f && bytes[offset + 1] == 0x8b && bytes[offset + 2] == 0x08
    }

    static func nextMember(in bytes: [UInt8], after start: Int) -> Int? {
        var i = start + 1
        while i + 2 < bytes.count {
            if looksLikeMember(bytes, at: i) { return i }
            i += 1
        }
        return nil
    }

    fileprivate static func checkTimeOrder(_ samples: [PanSample], from start: Int) throws(PanTraceError) {
        var previous = start > 0 ? samples[start - 1].time : -Double.infinity
        for i in start..<samples.count {
            guard ValueLimits.isValidTime(samples[i].time) else {
                throw PanTraceError(.invalidSample("time \(samples[i].time) s is outside ±\(ValueLimits.timeMagnitude) s"), sample: i)
            }
            guard samples[i].time >= previous else {
                throw PanTraceError(.invalidSample("time \(samples[i].time) s goes backwards (previous \(previous) s)"), sample: i)
            }
            previous = samples[i].time
        }
    }
}

/// One decode of one file: where it is, what it has read, and the salvage bookkeeping.
/// ``TraceReader/decode(_:)`` drives it chunk by chunk.
private struct DecodeRun {
    let bytes: [UInt8]
    let configuration: TraceReader.Configuration
    var samples: [PanSample] = []
    var grid = SampleGrid.standard
    var version = HeaderFormat.version
    var metadata: TraceMetadata?
    var warnings: [PanTraceError] = []
    var offset = 0, chunk = 0, chunksRead = 0, skipped = 0, totalInflated = 0
    var sawEnd = false, isTruncated = false
    /// The header chunk 0 starts with, decoded already: its bytes are stepped over.
    var knownHeader: DecodedHeader?

    let name: String?

    init(bytes: [UInt8], configuration: TraceReader.Configuration, name: String?) {
        self.bytes = bytes
        self.name = name
        self.configuration = configuration
    }

    enum ChunkStep { case inflated, skipped, endOfFile }

    /// Inflates the gzip member at `start` into `payload`, or skips past what is not one
    /// (salvaging) or stops at a cut-off tail.
    mutating func inflateChunk(at start: Int, with inflater: GzipInflater, into payload: inout [UInt8]) throws(PanTraceError) -> ChunkStep {
        guard TraceReader.looksLikeMember(bytes, at: start) else {
            if chunk == 0 { throw PanTraceError(.notGzip, chunk: 0, byteOffset: 0) }
            if bytes.count - start < 3, TraceReader.gzipMagic.starts(with: bytes[start...]) {
                isTruncated = true
                offset = bytes.count
                return .endOfFile
            }
            try skip(PanTraceError(.corruptChunk("bytes that are not a gzip member"), chunk: chunk, byteOffset: start), from: start)
            chunk += 1
            return .skipped
        }
        switch inflater.inflateMember(bytes, from: start, limit: configuration.maximumChunkBytes, into: &payload) {
        case .truncated:
            if chunk == 0 { throw PanTraceError(.truncated, chunk: 0, byteOffset: start) }
            isTruncated = true
            offset = bytes.count
            return .endOfFile
        case .overLimit:
            try skip(PanTraceError(.chunkTooLarge(limit: configuration.maximumChunkBytes), chunk: chunk, byteOffset: start), from: start)
            chunk += 1
            return .skipped
        case .corrupt(let message, let at):
            try skip(PanTraceError(.corruptChunk("\(message) (zlib, near byte \(at))"), chunk: chunk, byteOffset: start), from: start)
            chunk += 1
            return .skipped
        case .complete(let consumed):
            offset = start + consumed
        }
        totalInflated += payload.count
        guard totalInflated <= configuration.maximumTotalBytes else {
            throw PanTraceError(.outputLimit(limit: configuration.maximumTotalBytes), chunk: chunk, byteOffset: start)
        }
        return .inflated
    }

    /// Decodes the payloads of one inflated chunk. A chunk counts whole or not at all: when a
    /// salvaging reader skips it, whatever its earlier payloads added is dropped.
    mutating func decodePayloads(_ payload: [UInt8], ofChunkAt start: Int, scratch: inout DecodeScratch) throws(PanTraceError) {
        let rollback = (samples: samples.count, metadata: metadata, sawEnd: sawEnd)
        do throws(PanTraceError) {
            try decodePayloads(payload, scratch: &scratch)
        } catch {
            var located = error
            located.chunk = chunk
            located.byteOffset = start
            if chunk == 0 { throw located }
            samples.removeSubrange(rollback.samples...)
            (metadata, sawEnd) = (rollback.metadata, rollback.sawEnd)
            try skip(located, from: start)
        }
    }

    /// Version 2 puts one or more payloads in a chunk (the header and the samples of a whole
    /// trace share one); version 1 exactly one.
    private mutating func decodePayloads(_ payload: [UInt8], scratch: inout DecodeScratch) throws(PanTraceError) {
        var r = ByteReader(payload)
        var payloads = 0
        if chunk == 0 {
            if let known = knownHeader {
                (version, grid, metadata) = (known.version, known.grid, known.metadata(named: name))
                try r.skip(to: known.byteCount)
            } else {
                (version, grid, metadata) = try ChunkPayload.decodeHeader(&r, name: name)
            }
            payloads = 1
        }
        while payloads == 0 || !r.isAtEnd {
            guard version >= 2 || payloads == 0 else {
                throw PanTraceError(.corruptChunk("\(r.remaining) unexpected bytes after the chunk's content"))
            }
            guard !sawEnd else { throw PanTraceError(.corruptChunk("a chunk after the end of the recording")) }
            let before = samples.count
            let decoded = try ChunkPayload.decode(&r, version: version, grid: grid, name: name, samples: &samples, scratch: &scratch)
            try apply(decoded, before: before, timesChecked: scratch.timesChecked)
            payloads += 1
        }
    }

    /// Takes in one decoded payload (`before`: the samples there were before it);
    /// `timesChecked`: the decoder already found the new samples' times valid and in order.
    private mutating func apply(_ payload: ChunkPayload, before: Int, timesChecked: Bool) throws(PanTraceError) {
        switch payload {
        case .header:
            preconditionFailure("decode never returns a header")
        case .metadata(let updated):
            metadata = updated
        case .end(let total):
            guard total == samples.count || skipped > 0 else {
                throw PanTraceError(.corruptChunk("end mark counts \(total) samples but \(samples.count) were read"))
            }
            sawEnd = true
        case .samples(let first, let isFinal):
            if first != before, skipped == 0 {
                throw PanTraceError(.corruptChunk("chunk starts at sample \(first) but \(before) samples came before it (a chunk is missing)"))
            }
            if !timesChecked { try TraceReader.checkTimeOrder(samples, from: before) }
            sawEnd = isFinal
        }
    }

    /// Salvage: report `error`, then go on at the next gzip member after `start` (the caller
    /// counts the chunk); without salvage (or in the header), `error` ends the read.
    private mutating func skip(_ error: PanTraceError, from start: Int) throws(PanTraceError) {
        guard configuration.salvages, chunk > 0 else { throw error }
        warnings.append(error)
        skipped += 1
        offset = TraceReader.nextMember(in: bytes, after: start) ?? bytes.count
    }

    mutating func finishChunk() {
        if chunk > 0 || metadata != nil { chunksRead += 1 }
        chunk += 1
    }

    /// The file read, with a warning (or, strict, an error) when it ends early. The metadata
    /// moves into it (the run is done).
    mutating func file() throws(PanTraceError) -> TraceFile {
        guard let metadata = metadata.take() else { throw PanTraceError(.truncated, chunk: 0, byteOffset: 0) }
        var warnings = warnings
        // Cut inside a chunk, or whole chunks without the end mark (docs/FORMAT.md §1, "Reading"):
        // two different stories, each told as it is.
        if isTruncated || !sawEnd {
            let early = PanTraceError(isTruncated ? .truncated : .unfinished, chunk: chunk, byteOffset: isTruncated ? nil : bytes.count)
            if configuration.isStrict { throw early }
            warnings.append(early)
        }
        return TraceFile(
            trace: Trace(metadata: metadata, samples: [], grid: grid), chunkCount: chunksRead, byteCount: bytes.count,
            isComplete: sawEnd && !isTruncated && skipped == 0, warnings: warnings, skippedChunks: skipped)
    }
}

/// Buffers a reader reuses from one file to the next.
final class DecodeState {
    var payload: [UInt8] = []
    var scratch = DecodeScratch()
}
