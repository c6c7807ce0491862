internal import ArgumentParser

/// `pantrace replay`: not built yet.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "(not built yet)")

    func run() throws {
        StandardError.line("pantrace replay: not built yet")
        throw ExitCode(2)
    }
}
