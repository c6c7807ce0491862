internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTune
internal import PanTrace
internal import TransitionEngine

/// `pantrace tune`: sweep decision parameters over labelled recordings.
struct TuneCommand: PathListCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Sweep preset parameters over labelled recordings and find the settings that agree with what people meant.",
        discussion: """
            Every trace with a known intent is decided under every grid point; traces with unknown \
            intent are left out and counted. Unreadable files are reported and skipped (exit status 3). \
            --json schema: docs/TUNE.md. With --partial, writes the shard's share of the sweep for \
            `pantrace tune merge PARTIAL…` (see `pantrace tune merge --help`) instead of a report.
            """)

    @Argument(help: "Trace files, corpora (.pantraces) and folders (searched recursively for .pantrace, .jsonl, .csv and .pantraces).")
    var paths: [String]

    static let optionsTakingValues: Set<String> = [
        "--preset", "--grid", "--csv", "--svg", "--save-setting", "--emit", "--fps", "--screen", "--threads", "--max-files", "--partial"
    ]

    @Option(help: "Transition preset (see `pantrace presets`).")
    var preset: String

    @Option(
        name: .customLong("grid"), help: "An axis: KEY=FROM:TO:STEP or KEY=V1,V2,… (repeatable); keys from `pantrace presets NAME`, plus velocity.")
    var grids: [String] = []

    @OptionGroup var report: TuneReportOptions

    @Option(help: "Write this shard's share of the sweep to this file, for `pantrace tune merge`, instead of a report (docs/TUNE.md).")
    var partial: String?

    @Flag(help: "Run a grid of more than 10,000,000 points.")
    var yes = false

    @Option(help: "Display frame rate for completion times: 60, 120 or 240.")
    var fps: Int = 60

    @Option(help: "Screen size in points, WIDTHxHEIGHT, each 1…100000 (default: each trace's own).")
    var screen: ScreenGeometry?

    @Option(help: "Worker threads (default: the active cores).")
    var threads: Int?

    @OptionGroup var read: ReadOptions

    @OptionGroup var folders: FolderLimitOptions

    /// The exit status when the sweep ran but some files or traces were skipped.
    static let skippedStatus: Int32 = 3

    var json: Bool { report.json }
    var csv: String? { report.csv }
    var svg: String? { report.svg }
    var force: Bool { report.force }
    var emit: EmitLanguage? { report.emit }
    var all: Bool { report.all }

    func validate() throws {
        if let emit, emit != .swift, DetentPresetName(rawValue: preset) == nil {
            throw ValidationError("--emit \(emit.rawValue): preset '\(preset)' is a two-state transition, emitted as swift")
        }
        guard [60, 120, 240].contains(fps) else { throw ValidationError("--fps must be 60, 120 or 240, got \(fps)") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if force && !report.writesFiles && partial == nil {
            throw ValidationError("--force only applies with --csv, --svg, --save-setting or --partial")
        }
        if partial != nil && (json || csv != nil || svg != nil || emit != nil || all || report.saveSetting != nil) {
            throw ValidationError(
                "--partial writes the shard's share, not a report: give --json, --csv, --svg, --save-setting and --all to `pantrace tune merge` "
                    + "(--emit too: the merged result is the whole run's)")
        }
    }

    func run() throws {
        if DetentPresetName(rawValue: preset) != nil { return try tuneSheet() }
        if let partial { return try writePartial(partial) }
        // Before the sweep: a run that could only fail at the end fails at once.
        try report.checkFiles()
        var tuner: Tuner?
        let result: TuningResult = try { () throws -> TuningResult in
            let grid = try TuningGrid(parsing: grids, isConfirmed: yes)
            let configuration = Tuner.Configuration(
                threadCount: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                frameRate: Double(fps),
                screen: screen.map(Size.init))
            let made = try Tuner(presetNamed: preset, grid: grid, configuration: configuration)
            tuner = made
            if emit != nil { try Self.checkEmittable(made) }
            // One file at a time: each gesture keeps only its label and release states.
            let prepared = try made.admission.prepare(paths: paths, reader: read.reader, maximumFiles: folders.maxFiles) { failure in
                StandardError.line("skipped: \(failure.reason)")
            }
            if let folder = prepared.folderOverLimit { throw FolderLimitOptions.failure(folder: folder, limit: folders.maxFiles) }
            guard let admitted = prepared.admitted else { preconditionFailure("admitted traces or a folder over the limit") }
            let bar = ProgressBar.ifUseful(
                work: Double(admitted.traceCount) * Double(grid.pointCount), threshold: 50_000_000, label: "tuning", unit: "points")
            defer { bar?.finish() }
            var progress: (@Sendable (Int, Int) -> Void)?
            if let bar { progress = { done, total in bar.update(done, of: total) } }
            return made.run(on: admitted, progress: progress)
        }()
        guard let tuner else { preconditionFailure("a sweep has its tuner") }
        try Self.report(result, tuner: tuner, options: report, paths: paths)
    }

    /// `--partial FILE`: admits the shard's traces and writes what the merge needs.
    private func writePartial(_ path: String) throws {
        try OutputFile.checkWritable(path, flag: "--partial", replacing: force)
        let grid = try TuningGrid(parsing: grids, isConfirmed: yes)
        let configuration = Tuner.Configuration(
            threadCount: threads ?? ProcessInfo.processInfo.activeProcessorCount, frameRate: Double(fps), screen: screen.map(Size.init))
        let tuner = try Tuner(presetNamed: preset, grid: grid, configuration: configuration)
        let prepared = try tuner.admission.prepare(paths: paths, reader: read.reader, maximumFiles: folders.maxFiles, allowsNone: true) { failure in
            StandardError.line("skipped: \(failure.reason)")
        }
        if let folder = prepared.folderOverLimit { throw FolderLimitOptions.failure(folder: folder, limit: folders.maxFiles) }
        guard let admitted = prepared.admitted else { preconditionFailure("admitted traces or a folder over the limit") }
        let made = tuner.partial(of: admitted)
        for failure in made.unreplayable { StandardError.line("skipped: \(failure.reason)") }
        try OutputFile.write(String(decoding: try made.json(), as: UTF8.self), to: path, flag: "--partial", replacing: force)
        StandardError.line(
            "partial: \(made.gestures.count) tuned trace(s), \(made.unknownIntent) with unknown intent, "
                + "\(made.notFitting.count) not driving the preset, written to \(path)")
        if !made.unreadable.isEmpty || !made.unreplayable.isEmpty {
            StandardError.line("warning: \(made.unreadable.count + made.unreplayable.count) file(s) skipped; the partial covers the rest")
            throw ExitCode(Self.skippedStatus)
        }
    }

    /// Prints a sweep's report, or its best point as code (`--emit`), and writes its files, as
    /// `tune` and `tune merge` do; `paths` are what the sweep read (traces, or partials).
    static func report(_ result: TuningResult, tuner: Tuner, options: TuneReportOptions, paths: [String]) throws {
        for failure in result.unreplayable { StandardError.line("skipped: \(failure.reason)") }
        // The files first: if one cannot be written, the error is the only thing said.
        if let csv = options.csv { try OutputFile.write(result.csv(), to: csv, flag: "--csv", replacing: options.force) }
        if let svg = options.svg { try OutputFile.write(TuningHeatMap(result).svg(), to: svg, flag: "--svg", replacing: options.force) }
        if let path = options.saveSetting {
            let best = tuner.space.parameters(atPoint: result.bestPoint)
            try OutputFile.write(try best.settingJSON(), to: path, flag: "--save-setting", replacing: options.force)
            StandardError.line(
                "setting: the best point (\(best.preset.name.rawValue)) written to \(path); replay, emit and serve take it with --setting")
        }
        if options.emit != nil {
            let command = ShellQuoting.invocation
            print(
                try SwiftSnippet.emit(
                    tuner.space.parameters(atPoint: result.bestPoint), provenance: result.provenance(command: command, paths: paths)),
                terminator: "")
            for note in result.notes { StandardError.line("note: \(note)") }
        } else if options.json {
            // In pieces: the misjudged list of a large corpus is never held as one text.
            try TuningReport(result).writeJSON { print(String(decoding: $0, as: UTF8.self), terminator: "") }
            print()
        } else {
            StandardOutput.text(result.text(listingAll: options.all))
        }
        if result.hasSkipped {
            StandardError.line("warning: \(result.unreadable.count + result.unreplayable.count) file(s) skipped; the result covers the rest")
            throw ExitCode(Self.skippedStatus)
        }
    }

    /// Fails before the sweep when no grid point could be emitted (none reads `recorded` velocity).
    static func checkEmittable(_ tuner: Tuner) throws {
        let axis = tuner.space.grid.axes.first { $0.key == VelocitySource.parameterKey }
        if !(axis?.values.contains(.choice(VelocitySource.recorded.rawValue)) ?? false) {
            try SwiftSnippet.check(tuner.space.parameters(atPoint: 0))
        }
    }
}

extension EmitLanguage: ExpressibleByArgument {}

/// `pantrace tune merge`: the report of partials written by `pantrace tune … --partial`.
struct TuneMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pantrace tune merge",
        abstract: "Merge the partials of shards tuned apart into the report of the whole (docs/TUNE.md, \"Tuning in shards\").",
        discussion: """
            The partials must come from the same preset, grid, --fps and --screen. The report is the one \
            `pantrace tune` prints for all the shards' traces at once, byte for byte, in any order of \
            the partials, and so are --json, --csv, --svg and --all. --emit prints the code `pantrace \
            tune --emit` prints for the whole run (the partials hold the preset, the grid and every \
            gesture's decisions, all the code needs); only its two comment lines that say how it was \
            made differ: Command names this merge, Tuned on the partial files.
            """)

    @Argument(help: "Partial files written by `pantrace tune … --partial FILE`.")
    var partials: [String]

    @OptionGroup var report: TuneReportOptions

    @Option(help: "Worker threads (default: the active cores).")
    var threads: Int?

    @Flag(help: "Run the partials' grid when it has more than 10,000,000 points.")
    var yes = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if report.force && !report.writesFiles { throw ValidationError("--force only applies with --csv, --svg or --save-setting") }
    }

    func run() throws {
        try report.checkFiles()
        var read: [(name: String, partial: TunePartial)] = []
        for path in partials {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CLIFailure("\(path): cannot read: \(error.localizedDescription)")
            }
            read.append((path, try TunePartial(json: data, file: path)))
        }
        let (tuner, admitted) = try Tuner.merging(
            read, threadCount: threads ?? ProcessInfo.processInfo.activeProcessorCount, isConfirmed: yes)
        // Before the sweep, as tune checks: the partials carry the preset and grid, all the code needs.
        if report.emit != nil { try TuneCommand.checkEmittable(tuner) }
        let result = tuner.run(on: admitted)
        for failure in result.unreadable { StandardError.line("skipped: \(failure.reason)") }
        try TuneCommand.report(result, tuner: tuner, options: report, paths: partials)
    }
}
