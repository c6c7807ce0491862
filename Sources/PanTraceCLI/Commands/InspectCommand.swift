internal import ArgumentParser
internal import PanCapture
internal import PanTrace
internal import Foundation

/// `pantrace inspect`: one line, or one JSON object, per file.
struct InspectCommand: PathListCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarize trace files: samples, duration, rate, peak velocity, intent, chunks, size, completeness.",
        discussion: """
            A folder stands for every trace file under it (sorted; hidden names skipped), a corpus \
            file in it for each of its gestures, as when it is named; --max-files counts a corpus \
            as one file. \
            Peak velocity is the largest speed Android's lsq2 tracker reports at any sample from \
            the third on, recomputed from the translations (degree 2, the last 100 ms), in pt/s: \
            the velocities recorded in the file are not used, since a recorder's first ones are \
            often a start-of-gesture artefact. The screen is printed with its exact scale \
            (390x844@3x, 411x731@2.625x).
            """)

    @Argument(help: "Trace files (.pantrace, .jsonl, .csv), corpora (.pantraces: one line per gesture) or folders of them.")
    var files: [String]

    static let optionsTakingValues: Set<String> = ["--max-files"]
    var paths: [String] {
        get { files }
        set { files = newValue }
    }

    @Flag(
        help:
            "One JSON object per line (keys: file, samples, duration_s, rate_hz, peak_velocity_pt_s, intent, source, chunks, bytes, bytes_per_sample, complete, …)."
    )
    var json = false

    @OptionGroup var read: ReadOptions

    @OptionGroup var folders: FolderLimitOptions

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failures = 0
        for path in try Self.expand(files, maxFiles: folders.maxFiles) {
            TraceFiles.readEach(path, reader: read.reader) { file, outcome in
                do {
                    let contents = try outcome.get()
                    let summary = TraceSummary(file: file, contents: contents, peakVelocity: PeakVelocity.of(contents.trace.samples))
                    if json {
                        print(String(decoding: TextLines.escapingLineBreaks(Array(try encoder.encode(summary))), as: UTF8.self))
                    } else {
                        StandardOutput.text(Self.line(summary))
                        for warning in summary.warnings { StandardError.line("warning: \(warning)") }
                    }
                } catch {
                    StandardError.line("error: \(error)")
                    failures += 1
                }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The files named, with each folder replaced by the trace files under it; a folder with
    /// none is an error rather than a silent nothing, and so is one with more than `maxFiles`.
    static func expand(_ paths: [String], maxFiles: Int = TraceFolder.defaultLimit) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                files.append(path)
                continue
            }
            let listing = TraceFolder.list(path, formats: [.pantrace, .jsonl, .csv], corpora: true, limit: maxFiles)
            if listing.limitReached { throw FolderLimitOptions.failure(folder: path, limit: maxFiles) }
            for problem in listing.problems { StandardError.line("warning: \(problem)") }
            guard !listing.files.isEmpty else {
                throw CLIFailure("\(path): no trace files (.pantrace, .jsonl, .csv) or corpora (.pantraces) in the folder")
            }
            let base = path.hasSuffix("/") ? path : path + "/"
            files += listing.files.map { base + $0 }
        }
        return files
    }

    /// A number as short as it can be written exactly: 3, 2.625, 390.5.
    static func exact(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int(value)) : String(value)
    }

    /// ` (detent 1 of 80/400/600, from 2)`: the sheet and the target, after the intent.
    static func sheetText(_ sheet: SheetLabel) -> String {
        let detents = sheet.detents.map(exact).joined(separator: "/")
        return " (\(sheet.target.map { "\($0 == .dismissed ? "dismissed" : "detent \($0)") of " } ?? "sheet ")\(detents), from \(sheet.start))"
    }

    static func line(_ s: TraceSummary) -> String {
        func f(_ value: Double, _ digits: Int) -> String { DecimalText.fixed(value, digits: digits) }
        let screen = "\(exact(s.screen.width))x\(exact(s.screen.height))@\(exact(s.screen.scale))x"
        return "\(s.file): \(s.samples) samples, \(f(s.duration_s, 3)) s, \(f(s.rate_hz, 1)) Hz, peak \(f(s.peak_velocity_pt_s, 1)) pt/s, "
            + "intent \(s.intent.rawValue)\(s.sheet.map(sheetText) ?? ""), source \(s.source), screen \(screen), \(s.chunks) \(s.chunks == 1 ? "chunk" : "chunks"), \(s.bytes) bytes, "
            + "\(f(s.bytes_per_sample, 2)) B/sample, \(s.complete ? "complete" : "INCOMPLETE")"
    }
}
