public import ArgumentParser

/// The `pantrace` command: record, replay, watch and tune pan-driven transitions.
public struct PanTraceCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "pantrace",
        abstract: "Record, replay, watch and tune pan-gesture-driven transitions.",
        discussion: """
            Recordings are .pantrace files: compressed, checksummed, crash-tolerant chunks \
            (docs/FORMAT.md). Every command reads .pantrace, .jsonl and .csv by extension.
            """,
        version: "0.1.0",
        subcommands: [
            SynthCommand.self, RecordCommand.self, VelocityCommand.self, InspectCommand.self, ConvertCommand.self,
            PresetsCommand.self, ReplayCommand.self, TuneCommand.self, ServeCommand.self,
        ]
    )

    public init() {}

    /// Parses the command line, runs the command, and exits.
    ///
    /// Failures of the work itself (a damaged file, a bad log line, an unknown preset) print
    /// one `error: …` line, as the commands' own per-file errors do, and exit 1; usage errors
    /// keep swift-argument-parser's message and usage text.
    public static func runAsTool() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            exit()
        } catch let error as any CustomStringConvertible & Error where Self.isDomainError(error) {
            StandardError.line("error: \(error)")
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }

    private static func isDomainError(_ error: any Error) -> Bool {
        // ArgumentParser's own errors (usage, help, ExitCode) are not CustomStringConvertible
        // domain errors of a PanTrace module.
        let module = String(reflecting: type(of: error)).split(separator: ".").first ?? ""
        return ["PanTrace", "PanCapture", "PanReplay", "TransitionEngine", "LiveBridge", "PanTraceCLI"].contains(module)
    }
}
