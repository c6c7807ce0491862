internal import ArgumentParser

/// `pantrace velocity`: not built yet.
struct VelocityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "velocity", abstract: "(not built yet)")

    func run() throws {
        StandardError.line("pantrace velocity: not built yet")
        throw ExitCode(2)
    }
}
