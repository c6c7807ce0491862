import Foundation
import PanCapture
import TestSupport
import Testing
@testable import PanTrace

/// Format version 3 (docs/FORMAT.md): what it leaves out, how it predicts translation, and
/// that every version 2 file still reads as the same samples.
@Suite struct FormatVersion3Tests {
    let reader = TraceReader()

    /// The header's version byte (the varint after the magic in the first member).
    static func version(of bytes: [UInt8]) throws -> UInt8 {
        try Gzip.decompress(bytes)[HeaderFormat.magic.count]
    }

    /// The flags byte of a sample payload that starts at sample 0 and holds fewer than 128.
    static func sampleFlags(_ columns: QuantizedColumns) -> UInt8 {
        let payload = ChunkPayload.encodeSamples(columns, grid: .standard, firstIndex: 0, isFinal: true)
        precondition(payload[0] == ChunkKind.samples.rawValue && columns.count < 128)
        return payload[3]
    }

    static func columns(_ trace: Trace) throws -> QuantizedColumns {
        var columns = QuantizedColumns()
        try columns.fill(trace.samples[...], grid: trace.grid, firstIndex: 0)
        return columns
    }

    /// The bundled recordings stay version 2 files (old-version fixtures); rewritten in
    /// version 3 each reads back as exactly the same trace, and the set is smaller.
    @Test func everyBundledVersionTwoRecordingReadsAsTheSameTraceInVersionThree() throws {
        let paths = FormatVersionTests.files(in: "recordings")
        #expect(paths.count >= 80)
        var before = 0, after = 0
        for path in paths {
            let old = try FileDescriptor.readAll(path, limit: 1 << 24)
            #expect(try Self.version(of: old) == 2, "\(path)")
            let name = HeaderFormat.name(ofPath: path)
            let v2 = try reader.decode(old, name: name)
            let bytes = try TraceEncoder.encode(v2.trace, name: name)
            #expect(try Self.version(of: bytes) == HeaderFormat.version)
            let v3 = try reader.decode(bytes, name: name)
            #expect(v3.isComplete)
            #expect(v3.trace == v2.trace, "\(path)")
            before += old.count
            after += bytes.count
        }
        #expect(after < before)
    }

    @Test func versionOneFixturesReadAsTheSameTraceInVersionThree() throws {
        for (fixture, _) in FormatVersionTests.versionOneFixtures {
            let path = FormatVersionTests.root.appendingPathComponent("Tests/PanTraceTests/Fixtures/version1/\(fixture)").path
            let v1 = try reader.read(contentsOf: path)
            let v3 = try reader.decode(TraceEncoder.encode(v1.trace))
            #expect(v3.trace == v1.trace)
        }
    }

    @Test func anIdEqualToTheFileNameIsLeftOutAndReadBackFromTheName() throws {
        let trace = TestTraces.synthetic(3)
        let id = trace.metadata.id
        let named = try TraceEncoder.encode(trace, name: id)
        let unnamed = try TraceEncoder.encode(trace)
        // The tag, the length and the id's bytes.
        #expect(unnamed.count - named.count == 2 + id.utf8.count)
        #expect(try reader.decode(named, name: id).trace == TestTraces.snapped(trace))
        #expect(try reader.decode(named).trace.metadata.id == "")
        #expect(try reader.decode(unnamed, name: "other").trace.metadata.id == id)
        // On disk the name is the file's.
        let folder = try TemporaryFolder("pantrace-v3")
        let path = folder.appending("\(id).pantrace")
        try TraceEncoder.write(trace, to: path)
        #expect(try FileDescriptor.readAll(path, limit: 1 << 20) == named)
        #expect(try reader.read(contentsOf: path).trace == TestTraces.snapped(trace))
        // A different id is stored whatever the name.
        var other = trace
        other.metadata.id = "not-the-name"
        let otherPath = folder.appending("\(id)-copy.pantrace")
        try TraceEncoder.write(other, to: otherPath)
        #expect(try reader.read(contentsOf: otherPath).trace.metadata.id == "not-the-name")
    }

    @Test func aVersionTwoHeaderWithoutAnIdIsStillRefused() throws {
        var w = ByteWriter()
        w.raw(HeaderFormat.magic)
        w.varint(2)
        for scale: UInt64 in [1000, 100, 100] { w.varint(scale) }
        w.varint(0)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(w.bytes), name: "x") }
        #expect(error?.description.contains("no id") == true)
    }

    @Test func knownTagsAreOneByteAndOthersStayStrings() throws {
        let known = TraceMetadata(id: "t", tags: MetadataCoding.knownTags)
        let header = try ChunkPayload.encodeHeader(grid: .standard, metadata: known)
        let bare = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "t"))
        // The field tag, the count and one byte a tag.
        #expect(header.count - bare.count == 2 + MetadataCoding.knownTags.count)
        var r = ByteReader(header)
        #expect(try ChunkPayload.decodeHeader(&r).metadata == known)
        let mixed = TraceMetadata(id: "t", tags: ["swipe-down", "SailfishFlingDownFast1", "edge-back", ""])
        var m = ByteReader(try ChunkPayload.encodeHeader(grid: .standard, metadata: mixed))
        #expect(try ChunkPayload.decodeHeader(&m).metadata == mixed)
        // Every kind and scenario synth labels gestures with is in the table.
        for tag in GestureKind.allCases.map(\.rawValue) + GestureScenario.allCases.map(\.rawValue) {
            #expect(MetadataCoding.knownTags.contains(tag), "\(tag)")
        }
    }

    @Test func aTagCodePastTheTableIsABadHeader() throws {
        var header = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "t", tags: ["edge-back"]))
        let at = try #require(header.lastIndex(of: UInt8(MetadataCoding.Tag.tagCodes.rawValue)))
        #expect(header[at + 2] == 1)
        header[at + 2] = UInt8(MetadataCoding.knownTags.count + 1)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(header)) }
        #expect(error?.description.contains("tag code") == true)
    }

    @Test func theStandardGridIsAFlagAndOtherGridsAreSpelledOut() throws {
        let standard = try ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "g"))
        let other = try ChunkPayload.encodeHeader(grid: SampleGrid(positionTicksPerPoint: 1000), metadata: TraceMetadata(id: "g"))
        #expect(standard[HeaderFormat.magic.count + 1] == 1)
        #expect(other[HeaderFormat.magic.count + 1] == 0)
        #expect(other.count - standard.count == 2 + 2 + 1)  // 1000, 1000 (2 bytes each), 100
        var r = ByteReader(other)
        #expect(try ChunkPayload.decodeHeader(&r).grid == SampleGrid(positionTicksPerPoint: 1000))
        var flagged = standard
        flagged[HeaderFormat.magic.count + 1] = 3
        let error = #expect(throws: PanTraceError.self) { try reader.decode(TestTraces.member(flagged)) }
        #expect(error?.description.contains("unknown header flags") == true)
    }

    /// Both sides of the mask: uniform optional values need none, mixed ones do.
    @Test func optionalValuesOnEverySampleNeedNoMask() throws {
        var trace = TestTraces.synthetic(1)
        let n = trace.samples.count
        #expect(Self.sampleFlags(try Self.columns(trace)) & 0b1101 == 0)
        for i in 0..<n { trace.samples[i].location = PanVector(x: 20 + trace.samples[i].translation.x, y: 300 + trace.samples[i].translation.y) }
        #expect(Self.sampleFlags(try Self.columns(trace)) & 0b1101 == 4)
        for i in 0..<n { trace.samples[i].touches = 1 }
        #expect(Self.sampleFlags(try Self.columns(trace)) & 0b1101 == 12)
        let every = try TraceEncoder.encode(trace)
        #expect(try reader.decode(every).trace == TestTraces.snapped(trace))
        trace.samples[n / 2].location = nil
        #expect(Self.sampleFlags(try Self.columns(trace)) & 0b1101 == 1)
        let mixed = try TraceEncoder.encode(trace)
        #expect(try reader.decode(mixed).trace == TestTraces.snapped(trace))
        // The mask costs a byte a sample, less the location the mixed trace leaves out.
        #expect(mixed.count > every.count + n / 2)
        // Touch counts on some samples and no location anywhere: a mask and no location
        // columns (found by the structure fuzzer: the reader expected two empty ones).
        var touchesOnly = TestTraces.synthetic(1)
        for i in touchesOnly.samples.indices where i % 3 == 0 { touchesOnly.samples[i].touches = i % 4 }
        #expect(Self.sampleFlags(try Self.columns(touchesOnly)) & 0b1101 == 1)
        #expect(try reader.decode(TraceEncoder.encode(touchesOnly)).trace == TestTraces.snapped(touchesOnly))
        // Every field, mixed presence: the mask path.
        #expect(try reader.decode(TraceEncoder.encode(TestTraces.everyField())).trace == TestTraces.snapped(TestTraces.everyField()))
    }

    @Test func aMaskTogetherWithAnEveryValueFlagIsCorrupt() throws {
        var trace = TestTraces.synthetic(1)
        for i in trace.samples.indices { trace.samples[i].touches = 2 }
        var payload = ChunkPayload.encodeSamples(try Self.columns(trace), grid: .standard, firstIndex: 0, isFinal: true)
        payload[3] |= ChunkPayload.SampleFlags.mask
        let bytes = try TestTraces.member(ChunkPayload.encodeHeader(grid: .standard, metadata: TraceMetadata(id: "m")) + payload)
        let error = #expect(throws: PanTraceError.self) { try reader.decode(bytes) }
        #expect(error?.description.contains("unknown sample-chunk flags") == true)
    }

    /// Both sides: a pan whose velocity is its translation's rate is coded from it; one whose
    /// velocity is unrelated noise is not.
    @Test func velocityPredictsTranslationOnlyWhereItPays() throws {
        let pan = TestTraces.synthetic(2)
        let flags = Self.sampleFlags(try Self.columns(pan))
        #expect(flags & ChunkPayload.SampleFlags.velocityPredictsX != 0)
        #expect(try reader.decode(TraceEncoder.encode(pan)).trace == TestTraces.snapped(pan))
        var noise = pan
        var state: UInt64 = 7
        for i in noise.samples.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            noise.samples[i].velocity = PanVector(x: Double(Int64(bitPattern: state) >> 40), y: Double(Int64(bitPattern: state << 20) >> 44))
        }
        let noisy = Self.sampleFlags(try Self.columns(noise))
        #expect(noisy & (ChunkPayload.SampleFlags.velocityPredictsX | ChunkPayload.SampleFlags.velocityPredictsY) == 0)
        #expect(try reader.decode(TraceEncoder.encode(noise)).trace == TestTraces.snapped(noise))
    }

    /// The prediction wraps instead of trapping and undoes exactly, whatever the values.
    @Test(arguments: 0..<4)
    func velocityPredictionUndoesExactlyForAnyValues(seed: UInt64) throws {
        var state = seed &+ 11
        func next() -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64(bitPattern: state)
        }
        let n = 50
        let x = (0..<n).map { i in i % 7 == 0 ? next() : next() >> 20 }
        let t = (0..<n).map { _ in next() >> 8 }
        let v = (0..<n).map { i in i % 5 == 0 ? next() : next() >> 30 }
        for multiplier: Int64 in [1, 549_756, VelocityPrediction.maximumMultiplier - 1] {
            var column = VelocityPrediction.residuals(x, time: t, velocity: v, multiplier: multiplier) + [0]
            VelocityPrediction.undo(first: x[0], &column, time: t, velocity: v, count: n, multiplier: multiplier)
            #expect(column == x)
        }
    }

    @Test func theMultiplierIsTheGridsScale() {
        #expect(VelocityPrediction.multiplier(for: .standard) == 549_756)  // 10⁻⁶ s · 100 / (2 · 100) · 2⁴⁰
        #expect(
            VelocityPrediction.multiplier(
                for: SampleGrid(timeTickNanoseconds: 1, positionTicksPerPoint: 1, velocityTicksPerPointPerSecond: 1_000_000_000)) == nil)
    }

    /// Decoding into the same array again allocates nothing for the samples: same storage.
    @Test func decodingIntoAnArrayReusesItsStorage() throws {
        var long: [PanSample] = []
        for index in 0..<40 {
            let offset = (long.last?.time ?? 0) + 0.01
            long += TestTraces.synthetic(index).samples.map {
                var s = $0
                s.time += offset
                s.phase = .changed
                return s
            }
        }
        let bytes = try TraceEncoder.encode(Trace(metadata: TraceMetadata(id: "long"), samples: long))
        var samples: [PanSample] = []
        let file = try reader.decode(bytes, into: &samples)
        #expect(file.trace.samples.isEmpty && file.isComplete)
        #expect(samples == TestTraces.snapped(Trace(metadata: TraceMetadata(id: "long"), samples: long)).samples)
        let capacity = samples.capacity
        let storage = samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        _ = try reader.decode(bytes, into: &samples)
        #expect(samples.capacity == capacity)
        #expect(samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == storage)
        #expect(samples.count == long.count)
    }

    /// Found by the structure fuzzer: with k = 31, a run of 33 or more zeros never fits the
    /// fast path's window, which waited for a refill that could not come. It is an error.
    @Test(arguments: [25, 33, 40, 64])
    func aLongRunOfZerosAtTheLargestParameterIsAnErrorNotAHang(zeros: Int) throws {
        var bytes: [UInt8] = [UInt8(ColumnCoding.maximumParameter)]  // order 0, no bias, k = 31
        bytes += [UInt8](repeating: 0, count: zeros / 8) + [UInt8(0x80) >> UInt8(zeros % 8)] + [UInt8](repeating: 0xff, count: 16)
        var reader = ByteReader(bytes)
        var values: [Int64] = []
        let error = #expect(throws: PanTraceError.self) { try ColumnCoding.decode(count: 4, from: &reader, into: &values, version: 3) }
        #expect(error?.description.contains("leading zeros") == true)
    }

    /// The stored-block fast path and zlib agree on every outcome, including damaged members.
    @Test func storedMembersReadTheSameWithOrWithoutTheFastPath() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(5))
        var fast: [UInt8] = []
        #expect(GzipInflater.copyStoredMember(bytes, from: 0, limit: 1 << 20, into: &fast) == bytes.count)
        #expect(fast == (try Gzip.decompress(bytes)))
        for at in [bytes.count - 1, bytes.count - 6, 12, 20] {
            var damaged = bytes
            damaged[at] ^= 0x40
            var out: [UInt8] = []
            #expect(GzipInflater.copyStoredMember(damaged, from: 0, limit: 1 << 20, into: &out) == nil)
            #expect(throws: PanTraceError.self) { try TraceReader().decode(damaged) }
        }
        var out: [UInt8] = []
        #expect(GzipInflater.copyStoredMember(bytes, from: 0, limit: 10, into: &out) == nil)
        #expect(GzipInflater.copyStoredMember(Array(bytes.dropLast()), from: 0, limit: 1 << 20, into: &out) == nil)
    }
}
