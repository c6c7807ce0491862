import Foundation
import Testing
@testable import PanTrace

/// Format version 2 (docs/FORMAT.md): its layouts and encodings, and that version 1 files
/// still read.
@Suite struct FormatVersionTests {
    let reader = TraceReader()

    /// The bundled recordings were written in version 1 (`recordings/make.sh` before version 2).
    static func bundledRecordings(filePath: String = #filePath) throws -> [String] {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("recordings")
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".pantrace") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The format version in a file's header (the varint after the magic in the first member).
    static func version(of bytes: [UInt8]) throws -> UInt8 {
        let payload = try Gzip.decompress(bytes)
        return payload[HeaderFormat.magic.count]
    }

    @Test func versionOneRecordingsReadAndSurviveRewritingInVersionTwo() throws {
        let paths = try Self.bundledRecordings()
        #expect(paths.count >= 80)
        for path in paths {
            let original = try FileDescriptor.readAll(path, limit: 1 << 24)
            #expect(try Self.version(of: original) == 1, "\(path) is no longer a version 1 file")
            let file = try reader.read(contentsOf: path)
            #expect(file.isComplete, "\(path)")
            let rewritten = try TraceEncoder.encode(file.trace)
            #expect(try Self.version(of: rewritten) == 2)
            #expect(try reader.decode(rewritten).trace == file.trace, "\(path)")
            #expect(rewritten.count < original.count, "\(path): \(rewritten.count) bytes, was \(original.count)")
        }
    }

    @Test func aWholeTraceIsOneGzipMemberHoldingHeaderAndSamples() throws {
        let trace = TestTraces.synthetic(3)
        let bytes = try TraceEncoder.encode(trace)
        let file = try reader.decode(bytes)
        #expect(file.chunkCount == 1)
        #expect(file.isComplete)
        #expect(file.trace == TestTraces.snapped(trace))
    }

    @Test func theEncoderWritesExactlyWhatTheWriterWrites() throws {
        var small = TraceWriter.Configuration.archive
        small.maximumChunkSamples = 7  // several chunks, one ending exactly at the last sample
        var timed = TraceWriter.Configuration.archive
        timed.chunkDuration = 0.05
        timed.groupBytes = 200  // several members
        var live = TraceWriter.Configuration.live
        live.groupsChunks = true
        let traces = [TestTraces.synthetic(0), TestTraces.synthetic(5), TestTraces.everyField(),
                      Trace(metadata: TraceMetadata(id: "empty"), samples: []),
                      Trace(metadata: TraceMetadata(id: "seven"), samples: Array(TestTraces.synthetic(1).samples.prefix(14)))]
        for configuration in [TraceWriter.Configuration.archive, small, timed, live] {
            let encoder = TraceEncoder(configuration: configuration)
            for trace in traces {
                let sink = MemorySink()
                let writer = try TraceWriter(sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: configuration)
                try writer.append(contentsOf: trace.samples)
                try writer.finish()
                let encoded = try encoder.encode(trace)
                #expect(encoded == sink.bytes, "\(trace.metadata.id), \(configuration.maximumChunkSamples) a chunk")
                #expect(try reader.decode(encoded).trace == TestTraces.snapped(trace))
            }
        }
    }

    @Test func theEncoderNamesTheSameInvalidSampleAsTheWriter() throws {
        var samples = TestTraces.synthetic(2).samples
        samples[9].velocity.y = .nan
        let error = #expect(throws: PanTraceError.self) { try TraceEncoder.encode(Trace(metadata: TraceMetadata(id: "x"), samples: samples)) }
        #expect(error?.description.contains("sample 9") == true)
        #expect(error?.description.contains("velocity.y is nan") == true)
    }

    @Test(arguments: ["2026-01-01T00:00:00Z", "1970-01-01T00:00:01Z", "2024-02-29T23:59:59Z", "2000-03-01T12:00:00Z", "9999-12-31T23:59:59Z"])
    func canonicalTimesBecomeSecondsAndComeBack(_ text: String) throws {
        let seconds = try #require(CanonicalTime.seconds(text))
        #expect(CanonicalTime.string(seconds) == text)
        let metadata = TraceMetadata(id: "t", created: text)
        let header = try ChunkPayload.encodeHeader(grid: .standard, metadata: metadata)
        let verbatim = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "t", created: text + " "))
        #expect(header.count < verbatim.count - 12)
        var r = ByteReader(header)
        #expect(try ChunkPayload.decodeHeader(&r).metadata == metadata)
    }

    @Test(arguments: ["2026-02-31T00:00:00Z", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00+01:00", "2026-01-01t00:00:00z",
                      "1969-12-31T23:59:59Z", "2026-13-01T00:00:00Z", "２０２６-01-01T00:00:00Z", "", "yesterday"])
    func otherTimesAreKeptVerbatim(_ text: String) throws {
        #expect(CanonicalTime.seconds(text) == nil)
        let metadata = TraceMetadata(id: "t", created: text)
        var r = ByteReader(try ChunkPayload.encodeHeader(grid: .standard, metadata: metadata))
        #expect(try ChunkPayload.decodeHeader(&r).metadata.created == text)
    }

    @Test func defaultsAreLeftOutAndComeBack() throws {
        let plain = TraceMetadata(id: "p", created: "1970-01-01T00:00:00Z", source: "unknown", intent: .unknown)
        let header = try ChunkPayload.encodeHeader(grid: .standard, metadata: plain)
        // magic 8, version 1, grid 4, id 3, end 1: nothing else.
        #expect(header.count == 17)
        var r = ByteReader(header)
        #expect(try ChunkPayload.decodeHeader(&r).metadata == plain)

        let unusual = TraceMetadata(
            id: "u", created: "2026-11-21T10:00:00+01:00", source: "a-new-source",
            screen: ScreenGeometry(width: 390.5, height: 844, scale: 2.625), edge: .bottom, intent: .cancel,
            tags: ["x"], notes: "n", velocityOrigin: "impulse", extra: ["k": .number(1)])
        var u = ByteReader(try ChunkPayload.encodeHeader(grid: .standard, metadata: unusual))
        #expect(try ChunkPayload.decodeHeader(&u).metadata == unusual)
        for source in MetadataCoding.knownSources {
            var s = ByteReader(try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "s", source: source)))
            #expect(try ChunkPayload.decodeHeader(&s).metadata.source == source)
        }
    }

    @Test func aSourceCodeOutOfRangeIsABadHeader() throws {
        var header = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "s", source: "ios"))
        let at = try #require(header.firstIndex(of: UInt8(MetadataCoding.Tag.sourceCode.rawValue)))
        header[at + 1] = 200
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(header)) }
        #expect(error?.description.contains("unknown source code 200") == true)
    }

    @Test func versionTwoFieldsAreUnknownInAVersionOneHeader() throws {
        var header = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "s", source: "ios"))
        header[HeaderFormat.magic.count] = 1
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(header)) }
        #expect(error?.description.contains("unknown metadata field 12") == true)
    }

    /// Columns of every shape round-trip: the coder picks orders, biases and escapes as it likes.
    @Test(arguments: 0..<6)
    func seededColumnsRoundTrip(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        let limit = Int64(SampleGrid.tickLimit) - 1
        for length in [1, 2, 3, 4, 5, 17, 300] {
            var shapes: [[Int64]] = []
            shapes.append((0..<length).map { _ in 0 })
            shapes.append((0..<length).map { Int64($0) * 8333 + Int64(rng.next() % 41) - 20 })  // a clock with jitter
            shapes.append((0..<length).map { _ in Int64(bitPattern: rng.next()) % limit })      // anything on the grid
            shapes.append((0..<length).map { $0 % 2 == 0 ? limit : -limit })                    // the worst jumps
            var walk: Int64 = 0
            shapes.append((0..<length).map { _ in walk += Int64(rng.next() % 201) - 100; return walk * walk })
            shapes.append((0..<length).map { $0 == length / 2 ? 1 << 50 : Int64($0) })          // one spike
            for values in shapes {
                var w = ByteWriter()
                ColumnCoding.encode(values, into: &w)
                w.byte(0xAB)  // whatever follows the column
                var r = ByteReader(w.bytes)
                var decoded: [Int64] = []
                try ColumnCoding.decode(count: values.count, from: &r, into: &decoded, version: 2)
                #expect(Array(decoded.prefix(values.count)) == values)
                #expect(try r.byte() == 0xAB)
                #expect(r.isAtEnd)
            }
        }
    }

    @Test func aClockColumnIsCodedAsItsJitter() throws {
        let values = (0..<120).map { Int64($0) * 8333 + ($0 % 3 == 0 ? 2 : -1) }
        var w = ByteWriter()
        ColumnCoding.encode(values, into: &w)
        #expect(w.bytes[0] >> 6 == 1)       // order 1
        #expect(w.bytes[0] & 0x20 != 0)     // with a bias
        #expect(w.bytes.count < 120 * 5 / 8 + 8)  // residuals −3, 0, 3: at most five bits a value
    }
}

/// SplitMix64, for seeded test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
