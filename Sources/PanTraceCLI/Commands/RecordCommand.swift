internal import ArgumentParser

/// `pantrace record`: not built yet.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "(not built yet)")

    func run() throws {
        StandardError.line("pantrace record: not built yet")
        throw ExitCode(2)
    }
}
