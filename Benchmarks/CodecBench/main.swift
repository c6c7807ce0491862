// Codec benchmark: .pantrace against gzip-compressed JSONL of the same samples, in one run.
// Run with `make bench` (release build). Prints a markdown table for BENCHMARKS.md.
import BenchmarkSupport
import Foundation
import PanCapture
import PanTrace

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--decode-corpus", arguments.count == 2 {
    // For Benchmarks/size_floor.py: decode every gesture of a corpus file (.pantraces) from
    // memory (one thread) into one reused array, timed here so start-up and the read are left out.
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    let reader = CorpusReader()
    var samples: [PanSample] = []
    var count = 0, gestures = 0, failed = 0
    func decodeAll() throws {
        (count, gestures, failed) = (0, 0, 0)
        let problems = try reader.decode(bytes, samples: &samples) { _, outcome, samples in
            gestures += 1
            if case .failure = outcome { failed += 1 }
            count += samples.count
        }
        guard problems.isEmpty, failed == 0 else { fatalError("decode-corpus: \(failed) gestures failed, problems \(problems)") }
    }
    if let rounds = ProcessInfo.processInfo.environment["PANTRACE_ROUNDS"].flatMap(Int.init) {
        for _ in 0..<rounds { try decodeAll() }
        print("decode-folder: files=\(gestures) samples=\(count) rounds=\(rounds)")
        exit(0)
    }
    let time = try measure { try decodeAll() }
    print("decode-folder: files=\(gestures) samples=\(count) msamples_per_s=\(Double(count) / time / 1e6)")
    exit(0)
}
if ["--decode-folder", "--decode-joined"].contains(arguments.first), arguments.count == 2 {
    // For Benchmarks/size_floor.py: decode every file of a folder from memory (one thread),
    // timed here so process start-up and file reads are left out. --decode-joined decodes
    // one file holding all their samples end to end instead (the large-trace path).
    let folder = arguments[1]
    let names = (try FileManager.default.contentsOfDirectory(atPath: folder)).filter { $0.hasSuffix(".pantrace") }.sorted()
    var files = try names.map { (String($0.dropLast(".pantrace".count)), try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)))) }
    let reader = TraceReader()
    var samples: [PanSample] = []
    if arguments.first == "--decode-joined" {
        var joined: [PanSample] = []
        for (name, bytes) in files {
            let offset = (joined.last?.time ?? -0.01) + 0.01
            for var sample in try reader.decode(bytes, name: name).trace.samples {
                sample.time += offset
                sample.phase = joined.isEmpty ? .began : .changed
                joined.append(sample)
            }
        }
        joined[joined.count - 1].phase = .ended
        files = [("joined", try TraceEncoder.encode(Trace(metadata: TraceMetadata(id: "joined"), samples: joined), name: "joined"))]
    }
    var count = 0
    func decodeAll() throws {
        count = 0
        for bytes in files {
            _ = try reader.decode(bytes.1, into: &samples, name: bytes.0)
            count += samples.count
        }
    }
    if let rounds = ProcessInfo.processInfo.environment["PANTRACE_ROUNDS"].flatMap(Int.init) {
        // For callgrind: exactly this many passes, so that the difference of two counts is
        // the decoding alone (Benchmarks/size_floor.py --callgrind).
        for _ in 0..<rounds { try decodeAll() }
        print("decode-folder: files=\(files.count) samples=\(count) rounds=\(rounds)")
        exit(0)
    }
    let time = try measure { try decodeAll() }
    print("decode-folder: files=\(files.count) samples=\(count) msamples_per_s=\(Double(count) / time / 1e6)")
    exit(0)
}
let gestureCount = Int(arguments.first ?? "") ?? 10_000
let clock = benchmarkClock

var configuration = GestureSynthesizer.Configuration()
configuration.rate = 120
let synthesizer = GestureSynthesizer(configuration: configuration, seed: 2026)
let traces = (0..<gestureCount).map { synthesizer.trace(at: $0) }
let snapped = traces.map { t in Trace(metadata: t.metadata, samples: t.samples.map(t.grid.snapped), grid: t.grid) }
let sampleCount = traces.reduce(0) { $0 + $1.samples.count }
print("corpus: \(gestureCount) synthetic gestures, \(sampleCount) samples at 120 Hz (seed 2026), mean \(sampleCount / gestureCount) samples")

let environment = ProcessInfo.processInfo.environment
if environment["PANTRACE_LEVEL"] != nil || environment["PANTRACE_CHUNK"] != nil {
    // Size and speed of one zlib level and chunk size (for choosing the defaults).
    var c = TraceWriter.Configuration.archive
    c.compressionLevel = environment["PANTRACE_LEVEL"].flatMap(Int.init) ?? c.compressionLevel
    c.maximumChunkSamples = environment["PANTRACE_CHUNK"].flatMap(Int.init) ?? c.maximumChunkSamples
    let encoder = TraceEncoder(configuration: c)
    var bytes = 0
    let t = try measure {
        bytes = 0; for trace in traces { bytes += try encoder.encode(trace).count }
    }
    var long: [PanSample] = []
    for trace in traces.prefix(1000) {
        let offset = (long.last?.time ?? -0.01) + 0.01
        long += trace.samples.map {
            var s = $0; s.time += offset; s.phase = .changed; return s
        }
    }
    let longBytes = try encoder.encode(Trace(metadata: TraceMetadata(id: "long"), samples: long)).count
    print(
        "level \(c.compressionLevel), chunk \(c.maximumChunkSamples): \(Double(bytes) / Double(sampleCount)) B/sample, \(Double(sampleCount) / t / 1e6) M samples/s; long recording \(Double(longBytes) / Double(long.count)) B/sample"
    )
    exit(0)
}
if ProcessInfo.processInfo.environment["PANTRACE_PROFILE"] == "encode" {
    // For profiling under callgrind: encoding only.
    let encoder = TraceEncoder()
    for _ in 0..<10 { for trace in traces { _ = try encoder.encode(trace) } }
    exit(0)
}

// Encode (archive layout, as synth and convert write).
let encoder = TraceEncoder()
// Each file named after its id, as synth and record name them (the id is then not stored).
var archive: [[UInt8]] = try traces.map { try encoder.encode($0, name: $0.metadata.id) }
let encodeTime =
    ProcessInfo.processInfo.environment["PANTRACE_PROFILE"] == "decode"
    ? 1
    : try measure {
        archive = try traces.map { try encoder.encode($0, name: $0.metadata.id) }
    }
let liveEncoder = TraceEncoder(configuration: .live)
let live = try traces.map { try liveEncoder.encode($0, name: $0.metadata.id) }

if ProcessInfo.processInfo.environment["PANTRACE_PROFILE"] == "decode" {
    // For profiling (perf, callgrind): decoding only, after one untimed encode.
    let reader = TraceReader()
    for _ in 0..<30 { for bytes in archive { _ = try reader.decode(bytes) } }
    exit(0)
}

// Decode every file from memory.
let reader = TraceReader()
var decoded = 0
var buffer: [PanSample] = []
let decodeTime = try measure {
    decoded = 0
    for (bytes, trace) in zip(archive, traces) {
        _ = try reader.decode(bytes, into: &buffer, name: trace.metadata.id)
        decoded += buffer.count
    }
}
precondition(decoded == sampleCount)

// Baseline 1: gzip JSONL of the same grid values, one file per gesture.
let jsonl = try snapped.map { Gzip.compress(try JSONLCodec.encode($0)) }
// Baseline 2: gzip JSONL of the unquantized samples, as a naive recorder would write them.
let jsonlFull = try traces.map { Gzip.compress(try JSONLCodec.encode($0)) }
// JSONL decode (gunzip + Foundation JSONDecoder per line) on a slice: it is slow.
let baselineSlice = Array(jsonl.prefix(max(1, gestureCount / 10)))
let baselineSamples = snapped.prefix(baselineSlice.count).reduce(0) { $0 + $1.samples.count }
let baselineTime = try measure {
    for bytes in baselineSlice { _ = try JSONLCodec.decode(try Gzip.decompress(bytes)) }
}

// One long recording (every gesture's samples end to end): the per-sample cost without
// the per-file cost of a header and zlib stream set-up that dominates 60-sample files.
var longSamples: [PanSample] = []
var offset = 0.0
for trace in traces.prefix(1000) {
    for var sample in trace.samples {
        sample.time += offset
        sample.phase = longSamples.isEmpty ? .began : .changed
        longSamples.append(sample)
    }
    offset = longSamples.last!.time + 0.01
}
longSamples[longSamples.count - 1].phase = .ended
let longTrace = Trace(metadata: TraceMetadata(id: "long"), samples: longSamples)
if ProcessInfo.processInfo.environment["PANTRACE_PROFILE"] == "long" {
    let bytes = try encoder.encode(longTrace)
    for _ in 0..<5 { _ = try reader.decode(bytes) }
    exit(0)
}
var longBytes: [UInt8] = []
let longEncodeTime = try measure { longBytes = try encoder.encode(longTrace) }
// Into one array reused from decode to decode (no allocation in proportion to the trace),
// and into a fresh array each time, as decode(_:) does.
var longBuffer: [PanSample] = []
let longDecodeTime = try measure { _ = try reader.decode(longBytes, into: &longBuffer) }
let longFreshDecodeTime = try measure { _ = try reader.decode(longBytes) }

func total(_ files: [[UInt8]]) -> Int { files.reduce(0) { $0 + $1.count } }
let perSample = { (files: [[UInt8]]) in Double(total(files)) / Double(sampleCount) }
let encodeRate = Double(sampleCount) / encodeTime
let decodeRate = Double(sampleCount) / decodeTime
let baselineRate = Double(baselineSamples) / baselineTime

func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
print(
    """

    | measure | .pantrace | gzip JSONL (grid values) | ratio |
    |---|---|---|---|
    | bytes per sample, whole files (archive layout) | \(f(perSample(archive))) | \(f(perSample(jsonl))) | 1/\(f(perSample(jsonl) / perSample(archive), 1)) |
    | bytes per sample, live layout (chunk every 100 ms) | \(f(perSample(live))) | \(f(perSample(jsonl))) | 1/\(f(perSample(jsonl) / perSample(live), 1)) |
    | bytes per sample vs unquantized gzip JSONL | \(f(perSample(archive))) | \(f(perSample(jsonlFull))) | 1/\(f(perSample(jsonlFull) / perSample(archive), 1)) |
    | decode, million samples/s (one core) | \(f(decodeRate / 1e6)) | \(f(baselineRate / 1e6, 3)) | \(f(decodeRate / baselineRate, 0))× faster |
    | encode, million samples/s (one core) | \(f(encodeRate / 1e6)) | | |
    | one \(longSamples.count)-sample recording: bytes per sample | \(f(Double(longBytes.count) / Double(longSamples.count))) | | |
    | one \(longSamples.count)-sample recording: decode into a reused array, million samples/s | \(f(Double(longSamples.count) / longDecodeTime / 1e6)) | | |
    | one \(longSamples.count)-sample recording: decode into a fresh array, million samples/s | \(f(Double(longSamples.count) / longFreshDecodeTime / 1e6)) | | |
    | one \(longSamples.count)-sample recording: encode, million samples/s | \(f(Double(longSamples.count) / longEncodeTime / 1e6)) | | |
    """)
