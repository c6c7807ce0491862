/// A trace read from a `.pantrace` file, with what the reader found on the way.
public struct TraceFile: Sendable {
    /// The samples and the latest metadata.
    public var trace: Trace
    /// Chunks read, the header included (skipped chunks are not counted).
    public var chunkCount: Int
    /// Size of the file in bytes.
    public var byteCount: Int
    /// Whether the file ends with its end mark and nothing is cut off.
    public var isComplete: Bool
    /// Problems that did not stop the read: a truncated tail, chunks skipped by salvage.
    public var warnings: [PanTraceError]
    /// Chunks skipped by salvage.
    public var skippedChunks: Int

    /// Bytes per sample, the file's compactness; 0 for an empty trace.
    public var bytesPerSample: Double {
        trace.samples.isEmpty ? 0 : Double(byteCount) / Double(trace.samples.count)
    }
}
