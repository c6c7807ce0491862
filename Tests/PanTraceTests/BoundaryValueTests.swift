import TestSupport
import Foundation
import Testing
@testable import PanTrace

/// Every value that enters from outside is checked where it enters (docs/FORMAT.md §6): the
/// hostile values below are refused with an error naming where, and the values at the edges
/// of each range are accepted.
struct BoundaryValueTests {
    static let hostile: [Double] = [0, -0.0, Double.leastNonzeroMagnitude, 2.2250738585072014e-308, -1, .nan, .infinity, -.infinity, 1e308, 100_000.5]
    /// Sample times at and past the ±4·10⁹ s edge, and whether a reader keeps them; the text
    /// readers' tables (TextReaderBoundaryTests) take these and ``hostile`` too.
    static let hostileTimes: [(Double, Bool)] = [
        (4e9, true), (-4e9, true), (4.000001e9, false), (1e11, false), (-9.3e15, false), (9.3e12, false), (-0x1p63, false)
    ]

    /// A header with `screen`, written field by field as the writer would, bypassing its check.
    static func file(screen: ScreenGeometry) -> [UInt8] {
        var w = ByteWriter()
        w.raw(HeaderFormat.magic)
        w.varint(UInt64(HeaderFormat.version))
        w.varint(0)  // header flags: the grid's scales follow
        for scale in [1000, 100, 100] { w.varint(UInt64(scale)) }
        w.varint(MetadataCoding.Tag.id.rawValue)
        w.varint(1)
        w.raw([UInt8(ascii: "x")])
        w.varint(MetadataCoding.Tag.screen.rawValue)
        for value in [screen.width, screen.height, screen.scale] { MetadataCoding.number(value, into: &w) }
        w.varint(MetadataCoding.Tag.end.rawValue)
        ChunkPayload.encodeEnd(sampleCount: 0, into: &w)
        return TestTraces.member(w.bytes)
    }

    @Test(arguments: hostile)
    func aHeaderWithAHostileScreenIsRefusedNamingTheChunk(value: Double) throws {
        for screen in [
            ScreenGeometry(width: value, height: 844, scale: 3), ScreenGeometry(width: 390, height: value, scale: 3),
            ScreenGeometry(width: 390, height: 844, scale: value)
        ] {
            let error = #expect(throws: PanTraceError.self) { try TraceReader().decode(Self.file(screen: screen)) }
            #expect(error?.chunk == 0)
            #expect(error?.description.contains("screen") == true)
            // Salvage does not help: the header is the one chunk that cannot be skipped.
            #expect(throws: PanTraceError.self) { try TraceReader(configuration: .init(salvages: true)).decode(Self.file(screen: screen)) }
        }
    }

    @Test(arguments: [ScreenGeometry(width: 1, height: 1, scale: 0.1), ScreenGeometry(width: 100_000, height: 100_000, scale: 100)])
    func theEdgesOfTheScreenRangeAreRead(screen: ScreenGeometry) throws {
        #expect(try TraceReader().decode(Self.file(screen: screen)).trace.metadata.screen == screen)
    }

    @Test(arguments: hostile)
    func aWriterRefusesAHostileScreenAndLeavesNoFile(value: Double) throws {
        let scratch = try TemporaryFolder("pantrace-boundary")
        let folder = scratch.path
        let metadata = TraceMetadata(id: "x", screen: ScreenGeometry(width: value, height: 844, scale: 3))
        #expect(throws: PanTraceError.self) { try TraceWriter(creatingFileAt: folder + "/x.pantrace", metadata: metadata) }
        #expect(throws: PanTraceError.self) { try TraceEncoder.write(Trace(metadata: metadata, samples: []), to: folder + "/y.pantrace") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(arguments: hostile)
    func aJSONHeaderWithAHostileScreenIsRefused(value: Double) throws {
        guard value.isFinite else { return }  // JSON cannot spell NaN or infinity at all
        let json = #"{"id":"x","screen":{"width":\#(value),"height":844,"scale":3}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TraceMetadata.self, from: Data(json.utf8)) }
    }

    /// Times beyond ±4·10⁹ s are refused by the writer and by the reader; the edge is kept.
    @Test(arguments: hostileTimes)
    func sampleTimesOutsideTheRangeAreRefused(time: Double, accepted: Bool) throws {
        let sample = PanSample(time: time, phase: .began, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 0, y: 0))
        let trace = Trace(metadata: TraceMetadata(id: "t"), samples: [sample])
        if accepted {
            #expect(try TraceReader().decode(TraceEncoder.encode(trace)).trace.samples.first?.time == time)
        } else {
            let error = #expect(throws: PanTraceError.self) { try TraceEncoder.encode(trace) }
            #expect(error?.sample == 0)
            // A coarser grid can carry such a time in range of its ticks; the reader still refuses it.
            let coarse = Trace(metadata: trace.metadata, samples: [sample], grid: SampleGrid(timeTickNanoseconds: 1_000_000_000))
            var w = ByteWriter()
            try ChunkPayload.encodeHeader(grid: coarse.grid, metadata: coarse.metadata, into: &w)
            var columns = QuantizedColumns()
            if (try? columns.fill(coarse.samples[...], grid: coarse.grid, firstIndex: 0)) != nil {
                ChunkPayload.encodeSamples(columns, grid: coarse.grid, firstIndex: 0, isFinal: true, into: &w)
                let read = #expect(throws: PanTraceError.self) { try TraceReader().decode(TestTraces.member(w.bytes)) }
                #expect(read?.sample == 0)
            }
        }
    }
}
