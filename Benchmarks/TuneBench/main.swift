// TuneBench: the threshold sweep of issue 17, 10,000 traces × 10,000 thresholds (D1,
// `swipe-dismiss`), for `Benchmarks/tune/peer.py`, which times it against numpy in the same
// run, interleaved.
//
// `TuneBench --serve FILE` builds the corpus, writes each admitted trace's statistic (p0),
// intent and the thresholds to FILE (layout below), prints `ready TRACES POINTS`,
// then answers one line per command read from standard input:
// - `sorted` / `general`: `Tuner.run` on the admitted traces, one thread, with the sorted
//   sweep or deciding every point; prints `wall-seconds cpu-seconds correct-sum traces`
//   (the sum of `correct` over every point, which the peer checks).
// - `e2e-sorted` / `e2e-general`: `Tuner.run` from the corpus (admission included) on every
//   core, as `pantrace tune` runs it after reading the files.
// - `sweep` / `sweep-cv`: the sorted sweep on the bare statistics written to FILE
//   (`StatisticSweep`: every score field of every threshold; with `-cv`, each fold's
//   tallies and the tie rule's pick on the other folds), what numpy's sorted method does;
//   prints `wall-seconds cpu-seconds correct-sum traces min-margin-sum mean-margin-sum
//   fold-best` (fold-best: the picked threshold indices, comma-separated, or `-`).
// `TuneBench --once` runs one single-threaded sorted sweep in `measuredSweep` (for
// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredSweep*'`).

import BenchmarkSupport
import Foundation
import PanCapture
import PanReplay
import PanTune
import PanTrace
import TransitionEngine

let traceCount = 10_000
let preset = "swipe-dismiss"
let axis = "threshold=0.0001:1:0.0001"

var synthesis = GestureSynthesizer.Configuration()
synthesis.kind = .swipeDown
let synthesizer = GestureSynthesizer(configuration: synthesis, seed: 43)
let corpus = TraceCorpus(traces: (0..<traceCount).map(synthesizer.trace(at:)))
let grid = try TuningGrid(axes: [GridAxis(parsing: axis)])

func tuner(sorted: Bool, threads: Int) throws -> Tuner {
    var configuration = Tuner.Configuration(threadCount: threads)
    configuration.allowsSortedSweep = sorted
    return try Tuner(presetNamed: preset, grid: grid, configuration: configuration)
}

let sortedTuner = try tuner(sorted: true, threads: 1)
let generalTuner = try tuner(sorted: false, threads: 1)
let admitted = try sortedTuner.admission.prepare(corpus)

@inline(never)
func measuredSweep(_ tuner: Tuner) -> TuningResult { tuner.run(on: admitted) }

/// One line on standard output, unbuffered (the peer waits for it).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func correctSum(_ result: TuningResult) -> Int { result.scores.reduce(0) { $0 + $1.correct } }

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--once" {
    let result = measuredSweep(sortedTuner)
    print("traces \(result.traceCount) points \(grid.pointCount) correct-sum \(correctSum(result))")
    exit(0)
}
guard arguments.first == "--serve", let path = arguments.dropFirst().first else {
    print("usage: TuneBench --serve FILE | --once (run by Benchmarks/tune/peer.py)")
    exit(2)
}

// The statistic D1 compares: the release progress under the preset (its own velocity source).
let defaults = sortedTuner.space.defaultParameters
var statistics: [Double] = []
var intents: [UInt8] = []
var admittedTraces: [Trace] = []
for entry in corpus.entries where entry.trace.metadata.intent != .unknown {
    admittedTraces.append(entry.trace)
    let track = try GestureTrack(trace: entry.trace, velocity: defaults.velocity)
    let decision = defaults.preset.policy.decide(track.releaseState(preset: defaults.preset))
    precondition(decision.basis == .progress, "every synthetic swipe reaches the threshold test")
    statistics.append(decision.statistic)
    intents.append(entry.trace.metadata.intent == .finish ? 1 : 0)
}
let thresholds = grid.axes[0].values.map { $0.number! }
let isStrict: UInt8
if case .threshold(let threshold) = defaults.preset.policy.rule, threshold.comparison == .greaterThan { isStrict = 1 } else { isStrict = 0 }
// Layout: trace count, threshold count (little-endian Int64), statistics, thresholds
// (Float64), intents (one byte each), then 1 when the comparison is `>` (0 for `≥`), the
// preset's default threshold (Float64), the fold count (Int64) and each trace's fold (one
// byte each), as `Tuner` assigns them.
var bytes = Data()
for count in [Int64(statistics.count), Int64(thresholds.count)] { withUnsafeBytes(of: count.littleEndian) { bytes.append(contentsOf: $0) } }
statistics.withUnsafeBytes { bytes.append(contentsOf: $0) }
thresholds.withUnsafeBytes { bytes.append(contentsOf: $0) }
bytes.append(contentsOf: intents)
bytes.append(isStrict)
guard case .threshold(let defaultRule) = defaults.preset.policy.rule else { fatalError("swipe-dismiss decides by D1") }
let folds = StatisticSweep.folds(of: admittedTraces)
withUnsafeBytes(of: defaultRule.value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
withUnsafeBytes(of: Int64(folds.count).littleEndian) { bytes.append(contentsOf: $0) }
bytes.append(contentsOf: folds.ofTrace.map { UInt8($0) })
try bytes.write(to: URL(fileURLWithPath: path))
say("ready \(statistics.count) \(grid.pointCount)")

let e2eSorted = try tuner(sorted: true, threads: ProcessInfo.processInfo.activeProcessorCount)
let e2eGeneral = try tuner(sorted: false, threads: ProcessInfo.processInfo.activeProcessorCount)
/// CPU seconds of this process (the sweep runs on one thread; the rest are idle), which a
/// loaded machine disturbs less than the wall clock.
func processorSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

let meantFinish = intents.map { $0 == 1 }
while let line = readLine() {
    let start = benchmarkClock.now
    let processorStart = processorSeconds()
    if line == "sweep" || line == "sweep-cv" {
        let summary = try StatisticSweep.run(
            statistics: statistics, meantFinish: meantFinish, thresholds: thresholds, isStrict: isStrict == 1,
            defaultThreshold: defaultRule.value, folds: line == "sweep-cv" ? folds : nil)
        let elapsed = seconds(benchmarkClock.now - start)
        let foldBest = summary.foldBest.isEmpty ? "-" : summary.foldBest.map(String.init).joined(separator: ",")
        say(
            "\(elapsed) \(processorSeconds() - processorStart) \(summary.correctSum) \(statistics.count) "
                + "\(summary.minimumMarginSum) \(summary.meanMarginSum) \(foldBest)")
        continue
    }
    let result: TuningResult
    switch line {
    case "sorted": result = measuredSweep(sortedTuner)
    case "general": result = measuredSweep(generalTuner)
    case "e2e-sorted": result = try e2eSorted.run(on: corpus)
    case "e2e-general": result = try e2eGeneral.run(on: corpus)
    default: exit(0)
    }
    let elapsed = seconds(benchmarkClock.now - start)
    say("\(elapsed) \(processorSeconds() - processorStart) \(correctSum(result)) \(result.traceCount)")
}
