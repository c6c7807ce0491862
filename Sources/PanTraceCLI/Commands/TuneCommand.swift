internal import ArgumentParser

/// `pantrace tune`: not built yet.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tune", abstract: "(not built yet)")

    func run() throws {
        StandardError.line("pantrace tune: not built yet")
        throw ExitCode(2)
    }
}
