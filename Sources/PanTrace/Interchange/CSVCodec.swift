internal import Foundation

/// Traces as CSV: `#` lines carry the format, grid and each metadata key as JSON, then a
/// header row and one sample per row (docs/FORMAT.md §7).
///
/// ```
/// # pantrace-csv 1
/// # grid: {"position_per_pt":100,"time_tick_ns":1000,"velocity_per_pt_s":100}
/// # id: "synth-1-00000"
/// t,phase,tx,ty,vx,vy,x,y,touches
/// 0.0,began,10.0,0.0,812.5,3.25,,,
/// ```
public enum CSVCodec {
    static let columns = "t,phase,tx,ty,vx,vy,x,y,touches"

    /// The CSV text of `trace`.
    public static func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = "# pantrace-csv 1\n"
        do {
            text += "# grid: \(String(decoding: try encoder.encode(GridRecord(trace.grid)), as: UTF8.self))\n"
            // Each metadata key on its own line, as JSON, so unknown keys round-trip too.
            let object = try JSONDecoder().decode([String: JSONValue].self, from: try encoder.encode(trace.metadata))
            for key in object.keys.sorted() {
                text += "# \(key): \(String(decoding: try encoder.encode(object[key]!), as: UTF8.self))\n"
            }
        } catch {
            throw PanTraceError(.invalidValue("cannot encode metadata: \(error)"))
        }
        text += columns + "\n"
        func cell(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        for (index, s) in trace.samples.enumerated() {
            guard s.time.isFinite, s.translation.isFinite, s.velocity.isFinite, s.location?.isFinite ?? true else {
                throw PanTraceError(.invalidSample("a value is not finite"), sample: index)
            }
            text += "\(s.time),\(s.phase),\(s.translation.x),\(s.translation.y),\(s.velocity.x),\(s.velocity.y),"
            text += "\(cell(s.location?.x)),\(cell(s.location?.y)),\(s.touches.map(String.init) ?? "")\n"
        }
        return Array(text.utf8)
    }

    /// Parses CSV text; errors name the 1-based line.
    public static func decode(_ bytes: [UInt8]) throws(PanTraceError) -> Trace {
        let text = String(decoding: bytes, as: UTF8.self)
        var metadataObject: [String: JSONValue] = [:]
        var grid = SampleGrid.standard
        var sawFormat = false, sawColumns = false
        var samples: [PanSample] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            do throws(PanTraceError) {
                if line.isEmpty { continue }
                if line.hasPrefix("#") {
                    guard !sawColumns else { throw PanTraceError(.malformedLine("a # line after the samples began")) }
                    let body = line.dropFirst().drop { $0 == " " }
                    if body.hasPrefix("pantrace-csv") {
                        guard body == "pantrace-csv 1" else { throw PanTraceError(.malformedLine("unsupported CSV version: \(body)")) }
                        sawFormat = true
                        continue
                    }
                    guard let colon = body.firstIndex(of: ":") else { throw PanTraceError(.malformedLine("a # line must be \"# key: JSON value\"")) }
                    let key = String(body[..<colon])
                    let json = Data(body[body.index(after: colon)...].utf8)
                    do {
                        if key == "grid" {
                            grid = try JSONDecoder().decode(GridRecord.self, from: json).grid()
                        } else {
                            metadataObject[key] = try JSONDecoder().decode(JSONValue.self, from: json)
                        }
                    } catch let error as PanTraceError {
                        throw error
                    } catch {
                        throw PanTraceError(.malformedLine("the value of \"\(key)\" is not JSON: \(DecodingProblem.describe(error))"))
                    }
                    continue
                }
                if !sawColumns {
                    guard sawFormat else { throw PanTraceError(.malformedLine("missing \"# pantrace-csv 1\" line")) }
                    guard line == columns else { throw PanTraceError(.malformedLine("the header row must be \(columns)")) }
                    sawColumns = true
                    continue
                }
                samples.append(try parseRow(line))
            } catch {
                var located = error
                located.line = lineNumber
                throw located
            }
        }
        guard sawColumns else { throw PanTraceError(.malformedLine("no header row \(columns)")) }
        let metadata: TraceMetadata
        do {
            metadata = try JSONDecoder().decode(TraceMetadata.self, from: JSONEncoder().encode(metadataObject))
        } catch {
            throw PanTraceError(.badHeader("metadata lines: \(DecodingProblem.describe(error))"))
        }
        return Trace(metadata: metadata, samples: samples, grid: grid)
    }

    private static func parseRow(_ line: Substring) throws(PanTraceError) -> PanSample {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 9 else { throw PanTraceError(.malformedLine("expected 9 cells, found \(cells.count)")) }
        func number(_ i: Int, _ name: String) throws(PanTraceError) -> Double {
            guard let value = Double(cells[i]), value.isFinite else {
                throw PanTraceError(.malformedLine("\(name) \"\(cells[i])\" is not a finite number"))
            }
            return value
        }
        guard let phase = GesturePhase(name: String(cells[1])) else {
            throw PanTraceError(.malformedLine("unknown phase \"\(cells[1])\" (expected began, changed, ended or cancelled)"))
        }
        var sample = PanSample(
            time: try number(0, "t"), phase: phase,
            translation: PanVector(x: try number(2, "tx"), y: try number(3, "ty")),
            velocity: PanVector(x: try number(4, "vx"), y: try number(5, "vy")))
        switch (cells[6].isEmpty, cells[7].isEmpty) {
        case (true, true): break
        case (false, false): sample.location = PanVector(x: try number(6, "x"), y: try number(7, "y"))
        default: throw PanTraceError(.malformedLine("a location needs both x and y"))
        }
        if !cells[8].isEmpty {
            guard let touches = Int(cells[8]), touches >= 0 else { throw PanTraceError(.malformedLine("touches \"\(cells[8])\" is not a count")) }
            sample.touches = touches
        }
        return sample
    }
}
