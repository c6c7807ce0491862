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
}
