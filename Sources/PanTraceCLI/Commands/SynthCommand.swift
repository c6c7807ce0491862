internal import ArgumentParser
internal import PanCapture
internal import PanTrace
internal import Foundation
internal import PanReplay
internal import TransitionEngine

/// `pantrace synth`: generate labelled gestures for tests and benchmarks.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Generate labelled synthetic pan gestures (seeded: the same seed gives byte-identical files).",
        discussion: "Scenarios, noise model and the intent rule are described in docs/SYNTH.md.")

    @Option(
        name: .shortAndLong,
        help: "Folder to write into (created if missing; a file already there is never replaced), or a new corpus file ending .pantraces.")
    var output: String

    @Option(help: "How many gestures.")
    var count: Int = 24

    @Option(help: "Random seed.")
    var seed: UInt64 = 1

    @Option(help: "Transition the gestures drive: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: GestureKind = .edgeBack

    @Option(
        name: .customLong("scenario"),
        help: "A scenario to draw from (repeat for several; default all): \(GestureScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenarios: [GestureScenario] = []

    @Option(help: "Samples per second: 60, 120 or 240.")
    var rate: Int = 120

    @Option(name: .customLong("jitter-us"), help: "Timestamp jitter, standard deviation in microseconds.")
    var jitterMicroseconds: Double = 20

    @Option(help: "Hand tremor, standard deviation in points.")
    var tremor: Double = 0.05

    @Option(name: .customLong("velocity-noise"), help: "Velocity noise, standard deviation in points per second.")
    var velocityNoise: Double = 1.0

    @Option(help: "Screen size in points, WIDTHxHEIGHT, each 1…100000.")
    var screen = ScreenGeometry(width: 390, height: 844, scale: 1)

    @Option(help: "Screen scale (pixels per point), 0.1…100.")
    var scale: Double = 3

    @Option(help: "File format: pantrace, jsonl or csv.")
    var format: String = "pantrace"

    @Option(
        name: .customLong("target-velocity"),
        help: "Inverse: the release velocity (pt/s, toward finish) the estimator must read; writes the shortest such gesture (docs/EMIT.md).")
    var targetVelocity: Double?

    @Option(name: .customLong("target-progress"), help: "Inverse: the progress at the release.")
    var targetProgress: Double?

    @Option(help: "Inverse: the estimator that must read the target: lsq2, impulse or flutter.")
    var estimator: VelocityStrategy = .lsq2

    @Option(help: "Inverse: the preset whose drag direction and progress mapping the target is in.")
    var preset: String = "swipe-dismiss"

    /// Runs of this many gestures or more show a progress bar when standard error is a terminal.
    static let progressThreshold = 1000

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must be 0 or more, got \(count)") }
        guard [60, 120, 240].contains(rate) else { throw ValidationError("--rate must be 60, 120 or 240, got \(rate)") }
        guard jitterMicroseconds >= 0, jitterMicroseconds.isFinite else { throw ValidationError("--jitter-us must be a non-negative number") }
        guard tremor >= 0, tremor.isFinite else { throw ValidationError("--tremor must be a non-negative number") }
        guard velocityNoise >= 0, velocityNoise.isFinite else { throw ValidationError("--velocity-noise must be a non-negative number") }
        try ScreenGeometry.validate(scale: scale)
        guard ["pantrace", "jsonl", "csv"].contains(format) else { throw ValidationError("--format must be pantrace, jsonl or csv, got \(format)") }
        guard (targetVelocity == nil) == (targetProgress == nil) else {
            throw ValidationError("--target-velocity and --target-progress go together")
        }
    }

    func run() throws {
        if let targetVelocity, let targetProgress {
            let target = InverseSynthesis.Target(
                velocity: targetVelocity, progress: targetProgress, estimator: estimator,
                period: 1 / Double(rate))
            let trace = try InverseSynthesis.gesture(
                for: target, preset: Preset(named: preset), screen: screen.scaled(scale), id: "inverse-\(preset)-\(estimator.rawValue)")
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let file = "\(output)/\(trace.metadata.id).\(format)"
            try TraceFiles.write(trace, to: file)
            print("wrote \(file): \(trace.samples.count) samples, \(trace.samples.last!.time) s")
            return
        }
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = kind
        if !scenarios.isEmpty { configuration.scenarios = scenarios }
        configuration.rate = Double(rate)
        configuration.timestampJitter = jitterMicroseconds * 1e-6
        configuration.tremor = tremor
        configuration.velocityNoise = velocityNoise
        configuration.screen = screen.scaled(scale)
        let synthesizer = GestureSynthesizer(configuration: configuration, seed: seed)
        if GestureCorpus.isCorpus(path: output) {
            // -o X.pantraces: every gesture into one new corpus file, named once it is whole.
            guard format == "pantrace" else { throw ValidationError("a corpus (\(output)) holds .pantrace gestures; leave out --format") }
            let corpus = try CorpusWriter(creatingFileAt: output, publication: .atFinish)
            var samples = 0
            let bar = ProgressBar.ifUseful(work: Double(count), threshold: Double(Self.progressThreshold), label: "synth", unit: "gestures")
            defer { bar?.finish() }
            for index in 0..<count {
                let trace = synthesizer.trace(at: index)
                try corpus.add(trace, name: trace.metadata.id)
                samples += trace.samples.count
                bar?.update(index + 1, of: count)
            }
            try corpus.finish()
            bar?.finish()
            print("wrote \(count) gestures (\(samples) samples) to \(output)")
            return
        }

        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create \(output): \(error.localizedDescription)")
        }
        var samples = 0
        let bar = ProgressBar.ifUseful(work: Double(count), threshold: Double(Self.progressThreshold), label: "synth", unit: "gestures")
        defer { bar?.finish() }
        for index in 0..<count {
            // Every format holds the same gesture: the values a .pantrace stores.
            let trace = synthesizer.trace(at: index).snappedToGrid
            try TraceFiles.write(trace, to: "\(output)/\(trace.metadata.id).\(format)")
            samples += trace.samples.count
            bar?.update(index + 1, of: count)
        }
        bar?.finish()
        print("wrote \(count) gestures (\(samples) samples) to \(output)")
    }
}
