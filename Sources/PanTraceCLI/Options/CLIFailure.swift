/// A failure of the work that no library reported: one `error:` line and exit 1, like a
/// library's own errors (``PanTraceCommand/runAsTool()``).
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
