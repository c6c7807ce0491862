internal import ArgumentParser
internal import PanTrace
internal import Foundation

/// `pantrace inspect`: one line, or one JSON object, per file.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarize trace files: samples, duration, rate, peak velocity, intent, chunks, size, completeness.")

    @Argument(help: "Trace files (.pantrace, .jsonl, .csv).")
    var files: [String]

    @Flag(
        help:
            "One JSON object per line (keys: file, samples, duration_s, rate_hz, peak_velocity_pt_s, intent, source, chunks, bytes, bytes_per_sample, complete, …)."
    )
    var json = false

    @OptionGroup var read: ReadOptions

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failures = 0
        for file in files {
            do {
                let contents = try TraceFiles.read(file, reader: read.reader)
                let summary = TraceSummary(file: file, contents: contents)
                if json {
                    print(String(decoding: try encoder.encode(summary), as: UTF8.self))
                } else {
                    print(Self.line(summary))
                    for warning in summary.warnings { StandardError.line("warning: \(warning)") }
                }
            } catch let error as PanTraceError {
                StandardError.line("error: \(error)")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    static func line(_ s: TraceSummary) -> String {
        func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        let screen = "\(f(s.screen.width, 0))x\(f(s.screen.height, 0))@\(f(s.screen.scale, 0))x"
        return "\(s.file): \(s.samples) samples, \(f(s.duration_s, 3)) s, \(f(s.rate_hz, 1)) Hz, peak \(f(s.peak_velocity_pt_s, 1)) pt/s, "
            + "intent \(s.intent.rawValue), source \(s.source), screen \(screen), \(s.chunks) \(s.chunks == 1 ? "chunk" : "chunks"), \(s.bytes) bytes, "
            + "\(f(s.bytes_per_sample, 2)) B/sample, \(s.complete ? "complete" : "INCOMPLETE")"
    }
}
