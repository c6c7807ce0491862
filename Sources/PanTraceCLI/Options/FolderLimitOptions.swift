internal import ArgumentParser
internal import PanTrace

/// `--max-files`: how many trace files one folder may hold before a command refuses it.
///
/// A folder is never cut short quietly: past the limit the command stops with one `error:`
/// line naming the folder and this flag, and exit 1.
struct FolderLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-files"),
        help: "The most trace files one folder may hold; a folder with more is an error naming it (raise this to read them all).")
    var maxFiles: Int = TraceFolder.defaultLimit

    func validate() throws {
        guard maxFiles >= 1 else { throw ValidationError("--max-files must be at least 1, got \(maxFiles)") }
    }

    /// The error for a folder over the limit.
    static func failure(folder: String, limit: Int) -> CLIFailure {
        CLIFailure("\(folder): more than \(limit) trace files (the limit of --max-files); pass --max-files with a larger number to read them all")
    }
}
