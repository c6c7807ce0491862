/// The file formats `pantrace convert` reads and writes, chosen by file extension.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    /// The compressed, chunked binary format (docs/FORMAT.md).
    case pantrace
    /// JSON Lines: a metadata line, then one sample per line.
    case jsonl
    /// Comma-separated samples behind `#` metadata lines.
    case csv
    /// Chrome trace event format with counter tracks, for Perfetto (write only).
    case chromeTrace = "trace.json"

    /// The format a path's extension names.
    /// - Throws: ``PanTraceError`` listing the known extensions.
    public init(path: String) throws(PanTraceError) {
        let lower = path.lowercased()
        // Longest suffix first: ".trace.json" before any plain ".json".
        if lower.hasSuffix(".trace.json") {
            self = .chromeTrace
        } else if lower.hasSuffix(".pantrace") {
            self = .pantrace
        } else if lower.hasSuffix(".jsonl") {
            self = .jsonl
        } else if lower.hasSuffix(".csv") {
            self = .csv
        } else {
            throw PanTraceError(.unsupportedFormat("unknown extension; use .pantrace, .jsonl, .csv or .trace.json"), file: path)
        }
    }

    /// Whether traces can be read from this format.
    public var isReadable: Bool { self != .chromeTrace }
}
