internal import ArgumentParser
internal import PanTrace

/// `pantrace convert`: between .pantrace, .jsonl and .csv, and out to .trace.json.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between formats, chosen by extension: .pantrace, .jsonl, .csv, .trace.json (Perfetto, write only).",
        discussion: "The output file must not exist: pantrace never overwrites a recording.")

    @Argument(help: "The trace to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @OptionGroup var read: ReadOptions

    func run() throws {
        let contents = try TraceFiles.read(input, reader: read.reader)
        for warning in contents.warnings { StandardError.line("warning: \(warning)") }
        try TraceFiles.write(contents.trace, to: output)
        print("\(input) → \(output): \(contents.trace.samples.count) samples")
    }
}
