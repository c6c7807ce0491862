internal import Foundation

/// Traces as JSON Lines: the first line is `{"pantrace":1,"grid":…,"metadata":…}`, then one
/// sample object per line (docs/FORMAT.md §6).
public enum JSONLCodec {
    /// The JSONL text of `trace`.
    public static func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [UInt8] = []
        do {
            out.append(contentsOf: try encoder.encode(JSONLHeader(pantrace: 1, grid: GridRecord(trace.grid), metadata: trace.metadata)))
            out.append(0x0a)
            for (index, sample) in trace.samples.enumerated() {
                guard sample.time.isFinite, sample.translation.isFinite, sample.velocity.isFinite, sample.location?.isFinite ?? true else {
                    throw PanTraceError(.invalidSample("a value is not finite; JSON cannot hold NaN or infinity"), sample: index)
                }
                out.append(contentsOf: try encoder.encode(SampleRecord(sample)))
                out.append(0x0a)
            }
        } catch let error as PanTraceError {
            throw error
        } catch {
            throw PanTraceError(.invalidValue("cannot encode JSON: \(error)"))
        }
        return out
    }

    /// Parses JSONL text; errors name the 1-based line.
    public static func decode(_ bytes: [UInt8]) throws(PanTraceError) -> Trace {
        let decoder = JSONDecoder()
        var header: JSONLHeader?
        var samples: [PanSample] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0a { end += 1 }
            lineNumber += 1
            var line = bytes[start..<end]
            if line.last == 0x0d { line = line.dropLast() }
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do throws(PanTraceError) {
                if header == nil {
                    do {
                        header = try decoder.decode(JSONLHeader.self, from: Data(line))
                    } catch {
                        throw PanTraceError(
                            .malformedLine("the first line must be {\"pantrace\":1,\"grid\":…,\"metadata\":…}: \(DecodingProblem.describe(error))"))
                    }
                    guard header!.pantrace == 1 else { throw PanTraceError(.unsupportedVersion(header!.pantrace)) }
                } else {
                    let record: SampleRecord
                    do {
                        record = try decoder.decode(SampleRecord.self, from: Data(line))
                    } catch {
                        throw PanTraceError(.malformedLine("not a sample: \(DecodingProblem.describe(error))"))
                    }
                    samples.append(try record.sample())
                }
            } catch {
                var located = error
                located.line = lineNumber
                throw located
            }
        }
        guard let header else { throw PanTraceError(.emptyFile) }
        return Trace(metadata: header.metadata, samples: samples, grid: try header.grid.grid())
    }
}
