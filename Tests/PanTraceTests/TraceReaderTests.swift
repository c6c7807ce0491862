import Testing
@testable import PanTrace

/// Every file is hostile: each malformed input ends in a typed error naming where, or in the
/// complete chunks and a warning; never in a crash.
struct TraceReaderTests {
    let reader = TraceReader()

    @Test func emptyFileIsAnError() {
        let error = #expect(throws: PanTraceError.self) { try reader.decode([]) }
        #expect(error?.description == "empty file")
    }

    @Test func aFileThatIsNotGzipNamesByteZero() {
        let error = #expect(throws: PanTraceError.self) { try reader.decode(Array("t,x,y\n1,2,3\n".utf8)) }
        #expect(error?.description.contains("chunk 0 at byte 0: not a .pantrace file") == true)
    }

    @Test func wrongMagicIsAnError() {
        let bytes = TestTraces.member(Array("NOTATRACE-----".utf8))
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.description.contains("does not start with PANTRACE") == true)
    }

    @Test func aFutureFormatVersionAsksForAnUpgrade() throws {
        var header = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x"))
        header[HeaderFormat.magic.count] = UInt8(HeaderFormat.version + 1)  // the version varint follows the magic
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(header)) }
        #expect(error?.description.contains("format version \(HeaderFormat.version + 1) is newer") == true)
    }

    @Test func truncationAtEveryByteReadsTheCompleteChunksOrFailsCleanly() throws {
        let trace = TestTraces.synthetic(2)
        let bytes = try TraceEncoder.encode(trace, configuration: .live)
        let starts = TestTraces.memberStarts(bytes)
        let expected = TestTraces.snapped(trace).samples
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            do {
                let file = try reader.decode(prefix)
                // Only whole chunks come back, in order, as a prefix of the full trace.
                #expect(!file.isComplete, "cut at \(cut)")
                #expect(Array(expected.prefix(file.trace.samples.count)) == file.trace.samples, "cut at \(cut)")
                #expect(file.warnings.contains { $0.isTruncation }, "cut at \(cut)")
                let wholeMembers = starts.filter { $0 < cut }.count - (starts.contains(cut) ? 0 : 1)
                #expect(file.chunkCount >= wholeMembers - 1, "cut at \(cut)")
            } catch {
                // Only a file cut inside its header (or empty) may fail.
                #expect(cut < starts[1], "cut at \(cut): \(error)")
            }
            #expect(throws: PanTraceError.self) { try TraceReader(configuration: .init(isStrict: true)).decode(prefix) }
        }
    }

    @Test func strictModeMakesATruncatedTailAnError() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(1), configuration: .live)
        let cut = Array(bytes.dropLast(5))
        #expect(try reader.decode(cut).isComplete == false)
        let error = #expect(throws: PanTraceError.self) { try TraceReader(configuration: .init(isStrict: true)).decode(cut) }
        #expect(error?.isTruncation == true)
    }

    @Test func aFlippedByteInAnyChunkIsAnErrorNamingThatChunk() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(3), configuration: .live)
        let starts = TestTraces.memberStarts(bytes)
        for (chunk, start) in starts.enumerated() {
            let end = chunk + 1 < starts.count ? starts[chunk + 1] : bytes.count
            // A byte inside the deflate data, past the 10-byte gzip header.
            var damaged = bytes
            damaged[start + 10 + (end - start - 18) / 2] ^= 0x5a
            let error = #expect(throws: PanTraceError.self, "chunk \(chunk)") { try reader.decode(damaged) }
            #expect(error?.chunk == chunk, "chunk \(chunk): \(String(describing: error))")
            #expect(error?.byteOffset == start)
        }
    }

    @Test func salvageSkipsACorruptChunkAndKeepsTheRest() throws {
        let trace = TestTraces.synthetic(3)
        let bytes = try TraceEncoder.encode(trace, configuration: .live)
        let starts = TestTraces.memberStarts(bytes)
        try #require(starts.count >= 4)
        var damaged = bytes
        damaged[starts[2] + 12] ^= 0xff
        let file = try TraceReader(configuration: .init(salvages: true)).decode(damaged)
        #expect(file.skippedChunks == 1)
        #expect(!file.isComplete)
        #expect(file.warnings.contains { $0.chunk == 2 })
        let full = try reader.decode(bytes)
        // Everything but the skipped chunk's samples survives.
        #expect(file.trace.samples.count < full.trace.samples.count)
        #expect(file.trace.samples.count > 0)
        #expect(file.trace.samples.allSatisfy { full.trace.samples.contains($0) })
    }

    @Test func aCorruptHeaderIsFatalEvenWhenSalvaging() throws {
        var bytes = try TraceEncoder.encode(TestTraces.synthetic(0))
        bytes[14] ^= 0xff
        #expect(throws: PanTraceError.self) { try TraceReader(configuration: .init(salvages: true)).decode(bytes) }
    }

    @Test func aChunkClaimingAHugeSampleCountIsRejectedWithoutAllocating() throws {
        var payload = ByteWriter()
        payload.byte(ChunkKind.samples.rawValue)
        payload.varint(0)
        payload.varint(UInt64(Int32.max))  // claims two billion samples in a few bytes
        payload.byte(0)
        let bytes =
            try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x"))) + TestTraces.member(payload.bytes)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.chunk == 1)
        #expect(error?.description.contains("exceeds the limit of 65536") == true)
    }

    @Test func aMetadataStringClaimingAHugeLengthIsRejected() {
        var w = ByteWriter()
        w.raw(HeaderFormat.magic)
        w.varint(1)
        w.varint(1000)
        w.varint(100)
        w.varint(100)
        w.varint(MetadataCoding.Tag.id.rawValue)
        w.varint(UInt64(1) << 40)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(w.bytes)) }
        #expect(error?.description.contains("string length") == true)
    }

    @Test func aSampleCountThatRunsPastThePayloadIsCorrupt() throws {
        var payload = ByteWriter()
        payload.byte(ChunkKind.samples.rawValue)
        payload.varint(0)
        payload.varint(60_000)
        payload.byte(0)
        payload.varint(1)
        payload.varint(60_000)
        let bytes =
            try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x"))) + TestTraces.member(payload.bytes)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.chunk == 1)
    }

    @Test func aDeflateBombStopsAtTheChunkLimit() throws {
        // 64 MiB of zeros deflate to about 64 KiB; the reader must stop at its 4 MiB chunk cap.
        let bomb = TestTraces.member([UInt8](repeating: 0, count: 64 << 20))
        let header = try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x")))
        let error = #expect(throws: PanTraceError.self) { try reader.decode(header + bomb) }
        #expect(error?.chunk == 1)
        #expect(error?.description.contains("chunk limit") == true)
    }

    @Test func theTotalOutputIsCapped() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(1), configuration: .live)
        let tiny = TraceReader(configuration: .init(maximumTotalBytes: 200))
        let error = #expect(throws: PanTraceError.self) { try tiny.decode(bytes) }
        #expect(error?.description.contains("total limit") == true)
    }

    @Test func timestampsGoingBackwardsInAFileAreRejected() throws {
        var columns = QuantizedColumns()
        try columns.append(PanSample(time: 0.02, phase: .began, translation: .zero, velocity: .zero), grid: .standard, sample: 0)
        try columns.append(PanSample(time: 0.01, phase: .ended, translation: .zero, velocity: .zero), grid: .standard, sample: 1)
        let bytes =
            try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x")))
            + TestTraces.member(ChunkPayload.encodeSamples(columns, grid: .standard, firstIndex: 0, isFinal: true))
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.description.contains("goes backwards") == true)
        #expect(error?.sample == 1)
    }

    @Test func aMissingChunkIsDetectedByTheSampleIndex() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(3), configuration: .live)
        let starts = TestTraces.memberStarts(bytes)
        let withoutSecond = Array(bytes[..<starts[1]]) + Array(bytes[starts[2]...])
        let error = #expect(throws: PanTraceError.self) { try reader.decode(withoutSecond) }
        #expect(error?.description.contains("a chunk is missing") == true)
    }

    @Test func trailingGarbageIsCorruptNotSilentlyIgnored() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(0)) + Array("garbage".utf8)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.description.contains("not a gzip member") == true)
    }

    @Test func errorsNameTheFileWhenReadFromDisk() {
        let error = #expect(throws: PanTraceError.self) { try reader.read(contentsOf: "/nonexistent/x.pantrace") }
        #expect(error?.description.hasPrefix("/nonexistent/x.pantrace: cannot open") == true)
    }
}
