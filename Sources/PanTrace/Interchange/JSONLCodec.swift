internal import Foundation

/// Traces as JSON Lines: the first line is `{"pantrace":1,"grid":…,"metadata":…}`, then one
/// sample object per line (docs/FORMAT.md §6).
///
/// The reader accepts exactly what the writer writes: the keys of §6 and no others, each
/// sample and the metadata within the limits of §5 (``TraceCheck``), so what it reads
/// converts to `.pantrace` and back. The writer refuses what the reader would.
public enum JSONLCodec {
    /// The JSONL text of `trace`.
    /// - Throws: ``PanTraceError`` naming the sample and field the reader would refuse.
    public static func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        try TraceCheck.trace(trace)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [UInt8] = []
        do {
            out.append(contentsOf: try encoder.encode(JSONLHeader(pantrace: 1, grid: GridRecord(trace.grid), metadata: trace.metadata)))
            out.append(0x0a)
            for sample in trace.samples {
                out.append(contentsOf: try encoder.encode(SampleRecord(sample)))
                out.append(0x0a)
            }
        } catch {
            throw PanTraceError(.invalidValue("cannot encode JSON: \(error)"))
        }
        // Only the metadata's strings can hold them; one pass over the whole text is cheap.
        return TextLines.escapingLineBreaks(out)
    }

    /// Parses JSONL text; errors name the 1-based line and, for a bad value, the field.
    public static func decode(_ bytes: [UInt8]) throws(PanTraceError) -> Trace {
        let decoder = JSONDecoder()
        var header: JSONLHeader?
        var grid = SampleGrid.standard
        var samples: [PanSample] = []
        var previous = -Double.infinity
        try TextLines.forEach(in: bytes) { _, line, _ throws(PanTraceError) in
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            guard header != nil else {
                let read: JSONLHeader
                do {
                    read = try decoder.decode(JSONLHeader.self, from: Data(line))
                } catch {
                    throw PanTraceError(
                        .malformedLine("the first line must be {\"pantrace\":1,\"grid\":…,\"metadata\":…}: \(DecodingProblem.describe(error))"))
                }
                guard read.pantrace == 1 else { throw PanTraceError(.unsupportedVersion(read.pantrace)) }
                grid = try read.grid.grid()
                try MetadataCoding.check(read.metadata)
                header = read
                return
            }
            let record: SampleRecord
            do {
                record = try decoder.decode(SampleRecord.self, from: Data(line))
            } catch {
                throw PanTraceError(.malformedLine("not a sample: \(DecodingProblem.describe(error))"))
            }
            let sample = try record.sample()
            try TraceCheck.sample(sample, after: previous, grid: grid)
            previous = sample.time
            samples.append(sample)
        }
        guard let header else { throw PanTraceError(.emptyFile) }
        return Trace(metadata: header.metadata, samples: samples, grid: grid)
    }
}
