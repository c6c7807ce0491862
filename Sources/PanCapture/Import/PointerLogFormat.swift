/// The raw pointer logs PanTrace imports (docs/CAPTURE.md describes each).
public enum PointerLogFormat: String, Hashable, Sendable, CaseIterable {
    /// `t_ms,x,y,phase[,pointer]` with a header line.
    case csv
    /// One `{"t_ms":…,"x":…,"y":…,"phase":"…","pointer":…}` object per line.
    case jsonl
    /// Android `getevent -lt` or `getevent -t`, multi-touch protocol B.
    case getevent

    /// The source name recorded in metadata: `import:csv`, `import:jsonl`, `import:getevent`.
    public var source: String { "import:\(rawValue)" }
}
