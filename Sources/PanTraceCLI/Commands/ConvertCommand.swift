internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// `pantrace convert`: between .pantrace, .jsonl and .csv, and out to .trace.json.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between formats, chosen by extension: .pantrace, .jsonl, .csv, .trace.json (Perfetto, write only).",
        discussion: """
            The output file must not exist: pantrace never overwrites a recording. A folder of \
            .pantrace files converts to a corpus (OUT ending .pantraces, one file of many gestures) and \
            a corpus back to a folder (OUT, which must not exist or be empty), byte for byte \
            (docs/FORMAT.md §11). With --preset, a \
            .trace.json also carries the replay: progress and rendered progress per frame, the release \
            with its decision and reason, and the completion (docs/REPLAY.md, "Perfetto").
            """)

    @Argument(help: "The trace to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "For a .trace.json: also replay the trace through this preset and add its tracks.")
    var preset: String?

    @Option(
        name: .customLong("set"),
        help: "With --preset: override a parameter, KEY=VALUE (repeatable); keys from `pantrace presets NAME`, plus velocity.")
    var assignments: [String] = []

    @Option(help: "With --preset: display frame rate of the replay, 60, 120 or 240.")
    var fps: Int = 60

    @OptionGroup var read: ReadOptions

    func validate() throws {
        let isPerfetto = output.lowercased().hasSuffix(".trace.json")
        if preset != nil && !isPerfetto { throw ValidationError("--preset only applies to a .trace.json output") }
        if preset == nil && !assignments.isEmpty { throw ValidationError("--set only applies with --preset") }
        guard [60, 120, 240].contains(fps) else { throw ValidationError("--fps must be 60, 120 or 240, got \(fps)") }
    }

    func run() throws {
        if try convertCorpus() { return }
        let contents = try TraceFiles.read(input, reader: read.reader)
        for warning in contents.warnings { StandardError.line("warning: \(warning)") }
        guard let preset else {
            try TraceFiles.write(contents.trace, to: output)
            // A text format may hold values finer than the file's grid: a .pantrace keeps them rounded.
            if output.lowercased().hasSuffix(".pantrace") {
                let off = contents.trace.offGridValues()
                if let first = off.first {
                    StandardError.line(
                        "warning: \(input): \(off.count) value(s) finer than the file's grid were rounded to it "
                            + "(first: sample \(first.sample) \(first.field) \(first.value) → \(first.stored))")
                }
            }
            if output.lowercased().hasSuffix(".trace.json") {
                StandardError.line("note: the trace carries the samples only; add --preset NAME for the replay's tracks")
            }
            print("\(input) → \(output): \(contents.trace.samples.count) samples")
            return
        }
        var overrides: [String: PresetValue] = [:]
        for text in assignments {
            let (key, value) = try ReplayParameters.assignment(parsing: text)
            overrides[key] = value
        }
        let parameters = try ReplayParameters(presetNamed: preset, overrides: overrides)
        let replayer = try Replayer(trace: contents.trace, configuration: .init(parameters: parameters, frameRate: Double(fps)))
        for line in ReplayCommand.notes(replayer.summary, file: input, preset: preset) { StandardError.line(line) }
        let bytes = try ReplayTraceExport.encode(contents.trace, replayer: replayer)
        try Self.writeNew(bytes, to: output)
        print(
            "\(input) → \(output): \(contents.trace.samples.count) samples, \(replayer.summary.frames) replay frames under \(preset) "
                + "(\(replayer.summary.decision.rawValue))")
    }

    /// A folder into a corpus, or a corpus into a folder; false when neither applies.
    private func convertCorpus() throws -> Bool {
        var isFolder: ObjCBool = false
        let inputIsFolder = FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) && isFolder.boolValue
        let report: CorpusFolder.Report
        if inputIsFolder {
            guard GestureCorpus.isCorpus(path: output) else {
                throw CLIFailure("\(input) is a folder: convert it into a corpus, an OUT ending \(GestureCorpus.fileExtension)")
            }
            report = try CorpusFolder.pack(folder: input, into: output, reader: read.reader)
        } else if GestureCorpus.isCorpus(path: input) {
            guard (try? InterchangeFormat(path: output)) == nil, !GestureCorpus.isCorpus(path: output) else {
                throw CLIFailure("\(input) is a corpus: convert it into a folder (an OUT with no trace extension)")
            }
            if let names = try? FileManager.default.contentsOfDirectory(atPath: output), !names.isEmpty {
                throw CLIFailure("\(output): the folder is not empty; a corpus is extracted into a new or empty folder")
            }
            report = try CorpusFolder.unpack(corpus: input, into: output, reader: read.reader)
        } else {
            return false
        }
        for warning in report.warnings { StandardError.line("warning: kept as it is: \(warning)") }
        for problem in report.problems { StandardError.line("error: \(problem)") }
        print(
            "\(input) → \(output): \(report.gestures) gestures (\(report.packed) packed, \(report.verbatim) verbatim, \(report.live) live)"
                + (report.problems.isEmpty ? "" : "; \(report.problems.count) left out or lost"))
        if !report.problems.isEmpty { throw ExitCode(1) }
        return true
    }

    /// Writes a new file that gets its name only once it is complete, and never replaces one:
    /// the bytes go to a hidden file beside it, which is then hard-linked to the name (the
    /// link fails if the name exists) and removed.
    static func writeNew(_ bytes: [UInt8], to path: String) throws {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: path) else { throw CLIFailure("\(path): the file exists; pantrace never overwrites a file") }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        do {
            try Data(bytes).write(to: temporary, options: .withoutOverwriting)
            defer { try? manager.removeItem(at: temporary) }  // cleanup: the name, if linked, keeps the data
            try manager.linkItem(at: temporary, to: url)
        } catch {
            throw CLIFailure("\(path): cannot write: \(error.localizedDescription)")
        }
    }
}
