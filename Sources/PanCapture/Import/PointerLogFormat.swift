/// The raw pointer logs PanTrace imports (docs/CAPTURE.md describes each).
public enum PointerLogFormat: String, Hashable, Sendable, CaseIterable {
    /// `t_ms,x,y,phase[,pointer]` with a header line.
    case csv
    /// One `{"t_ms":…,"x":…,"y":…,"phase":"…","pointer":…}` object per line.
    case jsonl
    /// Android `getevent -lt` or `getevent -t`: multi-touch protocol A or B, or single touch.
    case getevent
    /// Linux `evemu-record`: `E: sec.usec TYPE CODE VALUE`, with the device's `A:` axis lines.
    case evemu

    /// The source name recorded in metadata: `import:csv`, `import:jsonl`, `import:getevent`, `import:evemu`.
    public var source: String { "import:\(rawValue)" }
}
