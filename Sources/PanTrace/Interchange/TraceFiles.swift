/// Reads and writes traces in any ``InterchangeFormat``, chosen by extension.
public enum TraceFiles {
    /// Reads a trace from `path` in the format its extension names.
    public static func read(_ path: String, reader: TraceReader = TraceReader()) throws(PanTraceError) -> TraceFile {
        let format = try InterchangeFormat(path: path)
        switch format {
        case .pantrace:
            return try reader.read(contentsOf: path)
        case .chromeTrace:
            throw PanTraceError(.unsupportedFormat(".trace.json is an export for Perfetto; it cannot be read back"), file: path)
        case .jsonl, .csv:
            let bytes = try FileDescriptor.readAll(path, limit: reader.configuration.maximumFileBytes)
            do {
                let trace = format == .jsonl ? try JSONLCodec.decode(bytes) : try CSVCodec.decode(bytes)
                return TraceFile(trace: trace, chunkCount: 0, byteCount: bytes.count, isComplete: true, warnings: [], skippedChunks: 0)
            } catch {
                throw error.in(file: path)
            }
        }
    }

    /// Writes `trace` to a new file at `path` (never overwriting) in the format its extension names.
    public static func write(_ trace: Trace, to path: String) throws(PanTraceError) {
        let format = try InterchangeFormat(path: path)
        let bytes: [UInt8]
        do {
            switch format {
            case .pantrace:
                try TraceEncoder.write(trace, to: path)
                return
            case .jsonl: bytes = try JSONLCodec.encode(trace)
            case .csv: bytes = try CSVCodec.encode(trace)
            case .chromeTrace: bytes = try ChromeTraceExporter.encode(trace)
            }
        } catch {
            throw error.in(file: path)
        }
        try FileDescriptor.writeNew(path, bytes)
    }
}
