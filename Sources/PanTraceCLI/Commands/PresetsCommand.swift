internal import ArgumentParser

/// `pantrace presets`: not built yet.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presets", abstract: "(not built yet)")
}
