internal import ArgumentParser

/// A command whose positional arguments are a list of paths that may run to tens of thousands
/// (`inspect`, `tune`).
protocol PathListCommand: ParsableCommand {
    /// The options that take a value (the next argument is theirs, not a path), by long name.
    static var optionsTakingValues: Set<String> { get }
    /// The paths named on the command line, in order, repeats kept.
    var paths: [String] { get set }
}

/// Parses a command line whose paths go around swift-argument-parser.
///
/// swift-argument-parser 1.8 spends time quadratic in the number of positional arguments
/// (each value it takes is removed from an array, and each adds its origin to a set copied
/// per value): 10,000 paths cost seconds before any work. For the commands that take a list
/// of paths, the paths are picked out here in one pass, the parser sees the options and the
/// first path only, and the command gets every path back after parsing. Options, their
/// errors and `--help` are the parser's as before; the paths are the same, in the same order,
/// repeats kept (`PathArgumentsTests` holds both to the parser's own result).
enum PathArguments {
    static let commands: [String: any PathListCommand.Type] = [
        "inspect": InspectCommand.self, "tune": TuneCommand.self, "detents": DetentsCommand.self
    ]

    /// The command `arguments` (without the program name) name, parsed.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        guard let name = arguments.first, let type = commands[name] else { return try PanTraceCommand.parseAsRoot(arguments) }
        // `tune merge FILE…` is a command of its own (`tune` takes paths, so it has no subcommands).
        if name == "tune" && arguments.dropFirst().first == "merge" { return try TuneMergeCommand.parseAsRoot(Array(arguments.dropFirst(2))) }
        let (rest, paths) = split(Array(arguments.dropFirst()), optionsTakingValues: type.optionsTakingValues)
        guard let first = paths.first else { return try PanTraceCommand.parseAsRoot(arguments) }
        let parsed = try PanTraceCommand.parseAsRoot([name] + rest + ["--", first])
        guard var command = parsed as? any PathListCommand else { return parsed }  // --help, --version: not the command
        command.paths = paths
        return command
    }

    /// The arguments that are not paths, in order, and the paths, in order.
    ///
    /// A path is any argument that is not an option (`-x`, `--name`, `--name=value`; `-` alone
    /// is a path, standard input) and not the value of the option before it, and every argument
    /// after `--`.
    static func split(_ arguments: [String], optionsTakingValues: Set<String>) -> (rest: [String], paths: [String]) {
        var rest: [String] = []
        var paths: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                paths += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                paths.append(argument)
                continue
            }
            rest.append(argument)
            if optionsTakingValues.contains(argument), index < arguments.count {
                rest.append(arguments[index])
                index += 1
            }
        }
        return (rest, paths)
    }
}
