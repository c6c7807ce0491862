import Foundation
import PanCapture
import Testing
@testable import PanTrace

/// Format version 2 (docs/FORMAT.md): its layouts and encodings, and that version 1 files
/// still read.
@Suite struct FormatVersionTests {
    let reader = TraceReader()

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `.pantrace` files under `folder` (relative to the repository), sorted.
    static func files(in folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        let names = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        // `live/` holds what `make serve` recorded on this machine (ignored by git): not bundled.
        return names.filter { $0.hasSuffix(".pantrace") && !$0.hasPrefix("live/") }.sorted().map { base.appendingPathComponent($0).path }
    }

    /// The format version in a file's header (the varint after the magic in the first member).
    static func version(of bytes: [UInt8]) throws -> UInt8 {
        let payload = try Gzip.decompress(bytes)
        return payload[HeaderFormat.magic.count]
    }

    /// Two bundled recordings as PanTrace wrote them before version 2 (`Fixtures/version1/`,
    /// copied from `recordings/synthetic/` at that time), and where each lives now.
    static let versionOneFixtures = [
        ("synth-10-00000.pantrace", "recordings/synthetic/edge-back-120hz/synth-10-00000.pantrace"),
        ("synth-15-00000.pantrace", "recordings/synthetic/swipe-down-60hz/synth-15-00000.pantrace")
    ]

    @Test func versionOneFilesReadAsTheSameTraceAsTheirVersionTwoRemakes() throws {
        for (fixture, remade) in Self.versionOneFixtures {
            let old = Self.root.appendingPathComponent("Tests/PanTraceTests/Fixtures/version1/\(fixture)").path
            let new = Self.root.appendingPathComponent(remade).path
            #expect(try Self.version(of: FileDescriptor.readAll(old, limit: 1 << 20)) == 1)
            #expect(try Self.version(of: FileDescriptor.readAll(new, limit: 1 << 20)) == 2)
            let v1 = try reader.read(contentsOf: old), v2 = try reader.read(contentsOf: new)
            #expect(v1.isComplete && v2.isComplete)
            #expect(v1.trace == v2.trace, "\(fixture)")
            #expect(v2.byteCount < v1.byteCount)
        }
    }

    @Test func everyBundledRecordingIsACompleteVersionTwoFile() throws {
        let paths = Self.files(in: "recordings")
        #expect(paths.count >= 80)
        for path in paths {
            #expect(try Self.version(of: FileDescriptor.readAll(path, limit: 1 << 24)) == 2, "\(path)")
            let file = try reader.read(contentsOf: path)
            #expect(file.isComplete, "\(path)")
        }
    }

    /// Version 1 columns as that version's encoder wrote them, with order 0 and k = 4: q zeros,
    /// a one and four bits a value, or the escape (24 zeros, a one, all 64 bits).
    static func versionOneColumn(_ values: [Int64], into w: inout ByteWriter) {
        w.byte(0 << 6 | 4)
        var bits: [Bool] = []
        for v in values {
            let z = ColumnCoding.zigzag(v)
            if z >> 4 < 24 {
                bits += Array(repeating: false, count: Int(z >> 4)) + [true] + (0..<4).map { z >> UInt64(3 - $0) & 1 == 1 }
            } else {
                bits += Array(repeating: false, count: 24) + [true] + (0..<64).map { z >> UInt64(63 - $0) & 1 == 1 }
            }
        }
        while bits.count % 8 != 0 { bits.append(false) }
        for i in stride(from: 0, to: bits.count, by: 8) {
            w.byte(bits[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
    }

    /// A version 1 file built by hand: version 1 numbers, absolute locations, a 64-bit escape.
    @Test func aHandBuiltVersionOneFileReads() throws {
        var header = ByteWriter()
        header.raw(HeaderFormat.magic)
        header.varint(1)
        for scale: UInt64 in [1000, 100, 100] { header.varint(scale) }
        header.varint(1)
        header.varint(2)
        header.raw(Array("v1".utf8))
        header.varint(4)  // screen: 390.5, 844, 3 as version 1 thousandths
        for thousandths: Int64 in [390_500, 844_000, 3000] { header.varint(ColumnCoding.zigzag(thousandths) << 1) }
        header.varint(6)
        header.byte(0)  // intent finish
        header.varint(0)
        var samples = ByteWriter()
        samples.byte(ChunkKind.samples.rawValue)
        samples.varint(0)
        samples.varint(3)
        samples.byte(1 | 2)  // optional columns, final
        for (phase, run): (UInt64, UInt64) in [(0, 1), (1, 1), (2, 1)] {
            samples.varint(phase)
            samples.varint(run)
        }
        Self.versionOneColumn([0, 8333, 16_667], into: &samples)  // time, µs
        Self.versionOneColumn([0, 5, 1 << 40], into: &samples)  // tx, with an escape
        Self.versionOneColumn([0, -3, 7], into: &samples)  // ty
        Self.versionOneColumn([10, 20, 30], into: &samples)  // vx
        Self.versionOneColumn([-1, 0, 1], into: &samples)  // vy
        samples.raw([1, 3, 0])  // masks
        Self.versionOneColumn([100, 105], into: &samples)  // location x, absolute in version 1
        Self.versionOneColumn([200, 197], into: &samples)  // location y
        samples.varint(2)  // the touch count of sample 1
        let file = try reader.decode(TestTraces.member(header.bytes) + TestTraces.member(samples.bytes))
        #expect(file.isComplete)
        #expect(file.trace.metadata.screen == ScreenGeometry(width: 390.5, height: 844, scale: 3))
        #expect(file.trace.metadata.intent == .finish)
        #expect(file.trace.metadata.velocityOrigin == "recorded")
        let s = file.trace.samples
        #expect(s.map(\.time) == [0, 0.008333, 0.016667])
        #expect(s.map(\.translation.x) == [0, 0.05, Double(1 << 40) / 100])
        #expect(s.map(\.translation.y) == [0, -0.03, 0.07])
        #expect(s[0].location == PanVector(x: 1, y: 2))
        #expect(s[1].location == PanVector(x: 1.05, y: 1.97))
        #expect(s[1].touches == 2)
        #expect(s[2].location == nil && s[2].touches == nil)
        #expect(s.map(\.phase) == [.began, .changed, .ended])
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
        let traces = [
            TestTraces.synthetic(0), TestTraces.synthetic(5), TestTraces.everyField(),
            Trace(metadata: TraceMetadata(id: "empty"), samples: []),
            Trace(metadata: TraceMetadata(id: "seven"), samples: Array(TestTraces.synthetic(1).samples.prefix(14)))
        ]
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

    /// Found by the fuzzer: a salvaging reader kept the samples of a chunk it then skipped
    /// (their times went backwards), so the trace it returned could not be written again.
    @Test func aSkippedChunkLeavesNothingBehind() throws {
        func chunk(_ times: [Double], first: Int, isFinal: Bool) throws -> [UInt8] {
            var columns = QuantizedColumns()
            for (i, t) in times.enumerated() {
                try columns.append(PanSample(time: t, phase: .changed, translation: .zero, velocity: .zero), grid: .standard, sample: first + i)
            }
            return TestTraces.member(ChunkPayload.encodeSamples(columns, grid: .standard, firstIndex: first, isFinal: isFinal))
        }
        let bytes =
            try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "x")))
            + chunk([0, 0.1, 0.2], first: 0, isFinal: false)
            + chunk([0.3, 0.05], first: 3, isFinal: false)  // backwards inside the chunk
            + chunk([0.4], first: 5, isFinal: true)
        let salvaging = TraceReader(configuration: .init(salvages: true))
        let file = try salvaging.decode(bytes)
        #expect(file.trace.samples.map(\.time) == [0, 0.1, 0.2, 0.4])
        #expect(file.skippedChunks == 1)
        #expect(file.warnings.first?.description.contains("goes backwards") == true)
        _ = try TraceEncoder.encode(file.trace)
        #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
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

    @Test(arguments: [
        "2026-02-31T00:00:00Z", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00+01:00", "2026-01-01t00:00:00z",
        "1969-12-31T23:59:59Z", "2026-13-01T00:00:00Z", "２０２６-01-01T00:00:00Z", "", "yesterday"
    ])
    func otherTimesAreKeptVerbatim(_ text: String) throws {
        #expect(CanonicalTime.seconds(text) == nil)
        let metadata = TraceMetadata(id: "t", created: text)
        var r = ByteReader(try ChunkPayload.encodeHeader(grid: .standard, metadata: metadata))
        #expect(try ChunkPayload.decodeHeader(&r).metadata.created == text)
    }

    @Test func defaultsAreLeftOutAndComeBack() throws {
        let plain = TraceMetadata(id: "p", created: "1970-01-01T00:00:00Z", source: "unknown", intent: .unknown)
        let header = try ChunkPayload.encodeHeader(grid: .standard, metadata: plain)
        // magic 8, version 1, header flags (the standard grid) 1, id 3, end 1: nothing else.
        #expect(header.count == 14)
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
        // A grid other than the standard one: flags 0, then the scales, as version 1 has them
        // once the flags byte is taken out.
        var header = try ChunkPayload.encodeHeader(grid: SampleGrid(timeTickNanoseconds: 999), metadata: TraceMetadata(id: "s", source: "ios"))
        header[HeaderFormat.magic.count] = 1
        header.remove(at: HeaderFormat.magic.count + 1)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(header)) }
        #expect(error?.description.contains("unknown metadata field 12") == true)
    }

    /// Columns of every shape round-trip: the coder picks orders, biases and escapes as it likes.
    @Test(arguments: 0..<6)
    func seededColumnsRoundTrip(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let limit = Int64(SampleGrid.tickLimit) - 1
        for length in [1, 2, 3, 4, 5, 17, 300] {
            var shapes: [[Int64]] = []
            shapes.append((0..<length).map { _ in 0 })
            shapes.append((0..<length).map { Int64($0) * 8333 + Int64(rng.next() % 41) - 20 })  // a clock with jitter
            shapes.append((0..<length).map { _ in Int64(bitPattern: rng.next()) % limit })  // anything on the grid
            shapes.append((0..<length).map { $0 % 2 == 0 ? limit : -limit })  // the worst jumps
            var walk: Int64 = 0
            shapes.append(
                (0..<length).map { _ in
                    walk += Int64(rng.next() % 201) - 100; return walk * walk
                })
            shapes.append((0..<length).map { $0 == length / 2 ? 1 << 50 : Int64($0) })  // one spike
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

    /// The quantizer's rounding is `Double.rounded()` exactly: ties away from zero, and the
    /// large values that take the other path.
    @Test func ticksRoundExactlyAsRoundedDoes() {
        var rng = SeededGenerator(seed: 7)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            0x1p51 - 0.5, -(0x1p51 - 0.5), 0x1p51, -0x1p51, 0x1p51 + 1, 0x1p52 + 0.5, 0x1p53 - 1, -(0x1p53 - 1)
        ]
        for _ in 0..<20_000 {
            let magnitude = Double(1 << (rng.next() % 52))
            let value = (Double(rng.next() % 1_000_000) / 1_000_000 - 0.5) * 2 * magnitude
            values += [value, value.rounded(.down) + 0.5, -(value.rounded(.down) + 0.5)]
        }
        for value in values {
            var ok = true
            let ticks = QuantizedColumns.ticks(value, &ok)
            #expect(ok)
            #expect(ticks == Int64(value.rounded()), "\(value)")
        }
        for value in [0x1p53, -0x1p53, .infinity, -.infinity, .nan] {
            var ok = true
            _ = QuantizedColumns.ticks(value, &ok)
            #expect(!ok, "\(value)")
        }
    }

    /// Columns of noise from ±1 to ±2²⁹ (and some jumps that escape) make the encoder pick
    /// every Rice parameter from 0 to 28, so the decoder's table (short codes, small
    /// parameters) and its bit path (the rest) both read back exactly what was written,
    /// including codes that straddle a refill of the window.
    @Test func everyRiceParameterRoundTrips() throws {
        var rng = SeededGenerator(seed: 17)
        var parameters = Set<Int>()
        for magnitude in 0..<30 {
            for length in [5, 64, 700] {
                let spread = UInt64(1) << magnitude
                var values = (0..<length).map { _ in Int64(rng.next() % (2 * spread + 1)) - Int64(spread) }
                if length == 700 { values[350] = 1 << 45 }  // an escape in the middle of a long column
                var w = ByteWriter()
                ColumnCoding.encode(values, into: &w)
                parameters.insert(Int(w.bytes[0] & 0x1f))
                w.byte(0xCD)
                var r = ByteReader(w.bytes)
                var decoded: [Int64] = []
                try ColumnCoding.decode(count: values.count, from: &r, into: &decoded, version: 3)
                #expect(Array(decoded.prefix(values.count)) == values, "noise of ±2^\(magnitude), \(length) values")
                #expect(try r.byte() == 0xCD)
                #expect(r.isAtEnd)
            }
        }
        #expect(parameters.isSuperset(of: 0...20), "parameters used: \(parameters.sorted())")
    }

    @Test func aClockColumnIsCodedAsItsJitter() throws {
        let values = (0..<120).map { Int64($0) * 8333 + ($0 % 3 == 0 ? 2 : -1) }
        var w = ByteWriter()
        ColumnCoding.encode(values, into: &w)
        #expect(w.bytes[0] >> 6 == 1)  // order 1
        #expect(w.bytes[0] & 0x20 != 0)  // with a bias
        #expect(w.bytes.count < 120 * 5 / 8 + 8)  // residuals −3, 0, 3: at most five bits a value
    }
}
