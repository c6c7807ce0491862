import TestSupport
import Foundation
import Testing
@testable import PanTrace

struct TraceWriterTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5])
    func syntheticTraceRoundTripsOnTheGrid(index: Int) throws {
        let trace = TestTraces.synthetic(index)
        let file = try TraceReader().decode(try TraceEncoder.encode(trace))
        #expect(file.trace == TestTraces.snapped(trace))
        #expect(file.isComplete)
        #expect(file.warnings.isEmpty)
    }

    @Test func everyOptionalColumnAndUnknownMetadataKeyRoundTrips() throws {
        let trace = TestTraces.everyField()
        let file = try TraceReader().decode(try TraceEncoder.encode(trace))
        #expect(file.trace == TestTraces.snapped(trace))
        #expect(file.trace.metadata.extra["device"] == .string("sailfish"))
        #expect(file.trace.samples[0].location == nil)
        #expect(file.trace.samples[1].touches == 2)
    }

    @Test func readingIsIdempotentOnTheGrid() throws {
        let once = try TraceReader().decode(try TraceEncoder.encode(TestTraces.synthetic(3))).trace
        let bytes = try TraceEncoder.encode(once)
        #expect(try TraceReader().decode(bytes).trace == once)
        #expect(try TraceEncoder.encode(once) == bytes)
    }

    /// What a crash at any instant loses: the samples after the last one written. At every
    /// step their span, from the last sample on disk (or the first sample, before any is) to
    /// the newest, is under 100 ms of gesture time, and nothing is written before a sample is.
    @Test(arguments: [60.0, 120.0, 240.0, 7.0])
    func aCrashAtAnyInstantLosesLessThanAHundredMilliseconds(rate: Double) throws {
        let trace = TestTraces.synthetic(1, rate: rate)
        let sink = MemorySink()
        let writer = try TraceWriter(sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: .live)
        #expect(sink.bytes.isEmpty)
        var worst = 0.0
        for sample in trace.samples {
            try writer.append(sample)
            let onDisk = sink.bytes.isEmpty ? [] : try TraceReader().decode(sink.bytes).trace.samples
            let lost = sample.time - (onDisk.last?.time ?? trace.samples[0].time)
            worst = max(worst, lost)
            #expect(lost < 0.1, "at \(sample.time) s")
            #expect(sink.bytes.isEmpty || !onDisk.isEmpty)
        }
        // The bound is approached, not trivially met; at 7 Hz every sample seals its own chunk.
        #expect(rate < 10 ? worst < 1e-3 : worst > 0.05)
        try writer.finish()
        #expect(try TraceReader().decode(sink.bytes).isComplete)
    }

    @Test func liveWriterSealsAtReleaseSoTheEndedSampleIsOnDiskBeforeFinish() throws {
        let trace = TestTraces.synthetic(0)
        let sink = MemorySink()
        let writer = try TraceWriter(sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: .live)
        try writer.append(contentsOf: trace.samples)
        // Not finished: the file reads as incomplete but holds every sample, the release included.
        let file = try TraceReader().decode(sink.bytes)
        #expect(!file.isComplete)
        #expect(file.trace.samples.count == trace.samples.count)
        #expect(file.trace.samples.last?.phase == .ended)
    }

    @Test func metadataUpdatedAfterTheGestureWins() throws {
        let trace = TestTraces.synthetic(2)
        let sink = MemorySink()
        let writer = try TraceWriter(sink: sink, metadata: trace.metadata, grid: trace.grid, configuration: .live)
        try writer.append(contentsOf: trace.samples)
        var labelled = trace.metadata
        labelled.intent = .cancel
        labelled.notes = "labelled after release"
        try writer.updateMetadata(labelled)
        try writer.finish()
        let file = try TraceReader().decode(sink.bytes)
        #expect(file.trace.metadata == labelled)
        #expect(file.isComplete)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValuesAreRejectedWithTheSampleIndex(value: Double) throws {
        var trace = TestTraces.synthetic(0)
        trace.samples[5].velocity.x = value
        let error = try #require(throws: PanTraceError.self) { try TraceEncoder.encode(trace) }
        #expect(error.sample == 5)
        #expect(error.description.contains("velocity.x"))
    }

    @Test func timestampsGoingBackwardsAreRejected() throws {
        var trace = TestTraces.synthetic(0)
        trace.samples[7].time = trace.samples[6].time - 0.001
        let error = try #require(throws: PanTraceError.self) { try TraceEncoder.encode(trace) }
        #expect(error.sample == 7)
        #expect(error.description.contains("goes backwards"))
    }

    @Test func equalTimestampsAreAccepted() throws {
        var trace = TestTraces.synthetic(0)
        trace.samples[7].time = trace.samples[6].time
        _ = try TraceEncoder.encode(trace)
    }

    @Test func valuesOutsideTheGridRangeAreRejected() throws {
        var trace = TestTraces.synthetic(0)
        trace.samples[2].translation.x = 1e300
        #expect(throws: PanTraceError.self) { try TraceEncoder.encode(trace) }
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let dir = try TemporaryFolder("pantrace")
        let path = dir.appending("a.pantrace")
        try TraceEncoder.write(TestTraces.synthetic(0), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: PanTraceError.self) { try TraceEncoder.write(TestTraces.synthetic(1), to: path) }
        #expect(error.description.contains("already exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aRejectedTraceLeavesNoFileBehind() throws {
        let folder = try TemporaryFolder("pantrace")
        let path = folder.appending("invalid.pantrace")
        var trace = TestTraces.synthetic(0)
        trace.samples[3].time = .nan
        #expect(throws: PanTraceError.self) { try TraceEncoder.write(trace, to: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func everyChunkIsAGzipMemberThatGzipAccepts() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(4), configuration: .live)
        let folder = try TemporaryFolder("pantrace")
        let path = folder.appending("bytes.pantrace")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }  // cleanup only
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-t", path]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
    }
}
