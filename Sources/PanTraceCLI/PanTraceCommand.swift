public import ArgumentParser

/// The `pantrace` command: record, replay, watch and tune pan-driven transitions.
public struct PanTraceCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "pantrace",
        abstract: "Record, replay, watch and tune pan-gesture-driven transitions.",
        discussion: """
            Recordings are .pantrace files: compressed, checksummed, crash-tolerant chunks \
            (docs/FORMAT.md). Every command reads .pantrace, .jsonl and .csv by extension.
            """,
        version: "0.1.0",
        subcommands: [
            SynthCommand.self, RecordCommand.self, VelocityCommand.self, InspectCommand.self, ConvertCommand.self, EmitCommand.self,
            PresetsCommand.self, ReplayCommand.self, TuneCommand.self, DetentsCommand.self, ServeCommand.self, LiveCommand.self
        ]
    )

    public init() {}

    /// Parses the command line, runs the command, and exits.
    ///
    /// The CLI's one error path (README, "Errors and exit status"): a failure of the work
    /// itself (a damaged file, a bad log line, an unknown preset: any ``UserFacingError``)
    /// prints one `error: …` line and exits 1; an argument error keeps swift-argument-parser's
    /// one line and usage hint and exits 64.
    public static func runAsTool() async -> Never {
        do {
            var command = try PathArguments.parse(Array(CommandLine.arguments.dropFirst()))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit()
        } catch let error as any UserFacingError {
            StandardError.line("error: \(error)")
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
