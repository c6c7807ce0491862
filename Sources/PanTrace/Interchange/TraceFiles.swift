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

    /// Reads every trace `path` holds: the one trace of a `.pantrace`, `.jsonl` or `.csv`
    /// file, or each gesture of a corpus (`.pantraces`, docs/FORMAT.md §11), labelled
    /// `corpus.pantraces#name`. Whatever cannot be read (the file, a gesture, damage between
    /// gestures) is handed to `visit` as a failure with its label, and the rest still are:
    /// the one place where a path that is a corpus stands for its gestures.
    public static func readEach(_ path: String, reader: TraceReader = TraceReader(), visit: (String, Result<TraceFile, PanTraceError>) -> Void) {
        guard GestureCorpus.isCorpus(path: path) else {
            do {
                visit(path, .success(try read(path, reader: reader)))
            } catch {
                visit(path, .failure(error))
            }
            return
        }
        do {
            let problems = try CorpusReader(reader: reader).read(contentsOf: path) { gesture, outcome in
                visit(gesture.label(in: path), outcome)
            }
            for problem in problems { visit(path, .failure(problem)) }
        } catch {
            visit(path, .failure(error))
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
