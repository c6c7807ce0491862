// ReplayBench: virtual-time replay frames/s (one core) and tune decisions/s (every core).
//
// Run in release: `swift run -c release --scratch-path .build-replay ReplayBench`.
// Each measurement has a baseline in the same run:
// - replay: `Replayer.nextSnapshot()` (the hot path) against `nextFrame()` encoded through
//   `JSONEncoder` (what `pantrace replay --format jsonl` does per frame);
// - tune: `Tuner.run` over 10,000 traces × 10,000 grid points (release states computed once,
//   grid split across threads) against a naive sweep that rebuilds each trace's release state
//   for every grid point, timed on a slice of the grid and extrapolated.
//
// `ReplayBench --encode TRACE --fps F --out FILE` times only the JSON Lines encoder of
// `pantrace replay` on TRACE's frames (computed first, untimed), writing them to FILE in
// 64 KiB chunks as the CLI does, against `JSONEncoder` on the same frames; it prints one JSON
// object. Benchmarks/replay/peer.py runs it beside Python's json.dumps and orjson.
//
// `ReplayBench --walk FOLDER` times `TraceFolder.list` on FOLDER against the walk it replaced
// (FileManager's subpaths, then a stat and a full symlink resolution per file), best of 3
// each, and prints one JSON object.

import BenchmarkSupport
import Foundation
import PanCapture
import PanReplay
import PanTune
import PanTrace
import TransitionEngine

let clock = benchmarkClock

func format(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }
func millions(_ value: Double) -> String { format(value / 1e6, digits: 2) + " M" }

func swipes(_ count: Int, kind: GestureKind, seed: UInt64) -> [Trace] {
    var configuration = GestureSynthesizer.Configuration()
    configuration.kind = kind
    let synthesizer = GestureSynthesizer(configuration: configuration, seed: seed)
    return (0..<count).map(synthesizer.trace(at:))
}

/// Runs `body` (which returns how many frames it made) until a second has passed.
func rate(_ body: () throws -> Int) rethrows -> Double {
    var frames = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        frames += try body()
        elapsed = clock.now - start
    } while elapsed < .seconds(1)
    return Double(frames) / seconds(elapsed)
}

var checksum = 0.0

/// `--encode TRACE --fps F --out FILE`: the encoder alone (see the header).
func encodeOnly(trace path: String, fps: Double, out: String) throws {
    let trace = try TraceFiles.read(path).trace
    let parameters = try ReplayParameters(presetNamed: "swipe-dismiss", overrides: [:])
    var replayer = try Replayer(trace: trace, configuration: .init(parameters: parameters, frameRate: fps))
    var frames: [FrameState] = []
    frames.reserveCapacity(replayer.frameCount)
    while let frame = replayer.nextFrame() { frames.append(frame) }
    func timed(_ body: (FileHandle) throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            let start = clock.now
            try body(file)
            try file.close()
            best = min(best, seconds(clock.now - start))
        }
        return best
    }
    let fast = try timed { file in
        var writer = JSONWriter(capacity: ReplayJSONLines.chunkBytes + 4096)
        for frame in frames {
            writer.frame(frame)
            writer.raw("\n")
            if writer.bytes.count >= ReplayJSONLines.chunkBytes {
                try file.write(contentsOf: writer.bytes)
                writer.truncate(to: 0)
            }
        }
        try file.write(contentsOf: writer.bytes)
    }
    let bytes = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? NSNumber)?.intValue ?? 0
    let encoder = ReplayJSONLines.encoder()
    let codable = try timed { file in
        var chunk = Data()
        for frame in frames {
            chunk.append(try encoder.encode(frame))
            chunk.append(0x0A)
            if chunk.count >= ReplayJSONLines.chunkBytes {
                try file.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try file.write(contentsOf: chunk)
    }
    print("{\"bytes\":\(bytes),\"frames\":\(frames.count),\"jsonencoder_s\":\(codable),\"writer_s\":\(fast)}")
}

/// The folder walk before readdir and d_type: every file stat'ed and resolved component by component.
func previousWalk(_ folder: String) throws -> [String] {
    let manager = FileManager.default
    let names = try manager.subpathsOfDirectory(atPath: folder)
    let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    var files: [String] = []
    for name in names.sorted() {
        guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
        guard let format = try? InterchangeFormat(path: name), format.isReadable else { continue }
        let path = base + name
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { continue }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root + "/") else { continue }
        files.append(name)
    }
    return files
}

if let index = CommandLine.arguments.firstIndex(of: "--walk") {
    let folder = CommandLine.arguments[index + 1]
    var listed = 0, previous = 0
    let walk =
        (0..<3).map { _ in
            let start = clock.now
            listed = TraceFolder.list(folder, formats: [.pantrace, .jsonl, .csv], limit: .max).files.count
            return seconds(clock.now - start)
        }.min() ?? 0
    let before =
        try (0..<3).map { _ in
            let start = clock.now
            previous = try previousWalk(folder).count
            return seconds(clock.now - start)
        }.min() ?? 0
    print("{\"files\":\(listed),\"previous_files\":\(previous),\"previous_s\":\(before),\"walk_s\":\(walk)}")
    exit(0)
}

if let index = CommandLine.arguments.firstIndex(of: "--encode") {
    let arguments = CommandLine.arguments
    func value(_ flag: String) -> String? { arguments.firstIndex(of: flag).map { arguments[$0 + 1] } }
    try encodeOnly(trace: arguments[index + 1], fps: Double(value("--fps") ?? "240") ?? 240, out: value("--out") ?? "/dev/null")
    exit(0)
}

let cores = ProcessInfo.processInfo.activeProcessorCount

// MARK: Replay

print("## ReplayBench — virtual-time replay (one core, release build, 120 Hz)")
print("")
print("| preset | completion | frames/replay | replay frames/s | JSONEncoder frames/s | ratio |")
print("|---|---|---:|---:|---:|---:|")
let edge = swipes(16, kind: .edgeBack, seed: 41)
let down = swipes(16, kind: .swipeDown, seed: 42)
var slowestAnalytic = Double.infinity
for name in PresetName.allCases {
    let parameters = ReplayParameters(preset: Preset(name), velocity: .recorded)
    let traces = [.swipeDismiss, .bouncePresent, .semiModal].contains(name) ? down : edge
    let replayers = try traces.map { try Replayer(trace: $0, configuration: .init(parameters: parameters, frameRate: 120)) }
    let perReplay = replayers.map(\.frameCount).reduce(0, +) / replayers.count
    let hot = rate {
        var frames = 0
        for replayer in replayers {
            var copy = replayer
            while let frame = copy.nextSnapshot() {
                checksum += frame.renderedProgress
                frames += 1
            }
        }
        return frames
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let baseline = try rate {
        var frames = 0
        for replayer in replayers {
            var copy = replayer
            while let frame = copy.nextFrame() {
                checksum += Double(try encoder.encode(frame).count)
                frames += 1
            }
        }
        return frames
    }
    let model = Preset(name).completion
    if !model.isFrameRateDependent { slowestAnalytic = min(slowestAnalytic, hot) }
    let note = model.isFrameRateDependent ? " (frame-rate dependent)" : ""
    print(
        "| \(name.rawValue) | \(model.identifier)\(note) | \(perReplay) | \(millions(hot)) | \(millions(baseline)) | \(format(hot / baseline, digits: 0))× |"
    )
}
print("")
print("Slowest analytic preset: \(millions(slowestAnalytic)) frames/s (target ≥ 5 M).")
print("")

// MARK: Tune

let traceCount = 10_000
// Each preset is tuned on gestures along its own axis (the tuner leaves others out).
let downCorpus = TraceCorpus(traces: swipes(traceCount, kind: .swipeDown, seed: 43))
let edgeCorpus = TraceCorpus(traces: swipes(traceCount, kind: .edgeBack, seed: 44))

struct Sweep {
    var preset: String
    var axes: [String]
    var corpus: TraceCorpus
}

let sweeps = [
    Sweep(preset: "swipe-dismiss", axes: ["threshold=0.0001:1:0.0001"], corpus: downCorpus),
    Sweep(preset: "best", axes: ["threshold=0.01:1:0.01", "decelerationRate=0.9:0.999:0.001"], corpus: edgeCorpus)
]

print("## ReplayBench — tune, \(traceCount) traces × 10,000 grid points (\(cores) cores)")
print("")
print("| preset | grid | decisions | time | decisions/s | naive decisions/s (1 core) | ratio |")
print("|---|---|---:|---:|---:|---:|---:|")
for sweep in sweeps {
    let grid = try TuningGrid(axes: sweep.axes.map(GridAxis.init(parsing:)))
    let tuner = try Tuner(presetNamed: sweep.preset, grid: grid, configuration: .init(threadCount: cores))
    let start = clock.now
    let result = try tuner.run(on: sweep.corpus)
    let elapsed = seconds(clock.now - start)
    checksum += result.best.accuracy
    let decisions = Double(result.traceCount) * Double(grid.pointCount)

    // Naive: every grid point rebuilds every trace's track and release state, then decides.
    let slice = 8
    let naiveStart = clock.now
    for point in 0..<slice {
        let parameters = tuner.space.parameters(atPoint: point * (grid.pointCount / slice))
        for entry in sweep.corpus.entries {
            let trace = entry.trace
            let track = try GestureTrack(trace: trace, velocity: parameters.velocity)
            let release = track.releaseState(preset: parameters.preset)
            checksum += parameters.preset.policy.decide(release).margin
        }
    }
    let naiveRate = Double(slice * traceCount) / seconds(clock.now - naiveStart)
    let rate = decisions / elapsed
    print(
        "| \(sweep.preset) | \(sweep.axes.joined(separator: " ")) | \(format(decisions / 1e6, digits: 0)) M | \(format(elapsed, digits: 2)) s | \(millions(rate)) | \(millions(naiveRate)) | \(format(rate / naiveRate, digits: 0))× |"
    )
}
print("")
print(
    "Targets: ≥ 20 M decisions/s on both cores; 10,000 × 10,000 in under 10 s. (checksum \(format(checksum.truncatingRemainder(dividingBy: 1000), digits: 3)))"
)
