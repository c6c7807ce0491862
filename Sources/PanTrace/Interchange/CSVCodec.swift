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
///
/// The reader accepts exactly what the writer writes: numbers in JSON's syntax (the writer's
/// shortest round-trip spelling is one), each key once, each sample and the metadata within
/// the limits of docs/FORMAT.md §5 (``TraceCheck``). The writer refuses what the reader
/// would, and a metadata key its `# key: value` line cannot spell.
public enum CSVCodec {
    static let columns = "t,phase,tx,ty,vx,vy,x,y,touches"

    /// The CSV text of `trace`.
    /// - Throws: ``PanTraceError`` naming the sample and field the reader would refuse.
    public static func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        try TraceCheck.trace(trace)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = "# pantrace-csv 1\n"
        let object: [String: JSONValue]
        do {
            text += "# grid: \(String(decoding: try encoder.encode(GridRecord(trace.grid)), as: UTF8.self))\n"
            // Each metadata key on its own line, as JSON, so unknown keys round-trip too.
            object = try JSONDecoder().decode([String: JSONValue].self, from: try encoder.encode(trace.metadata))
        } catch {
            throw PanTraceError(.invalidValue("cannot encode metadata: \(error)"))
        }
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            if let problem = keyProblem(key) { throw PanTraceError(.invalidValue(problem), field: key) }
            let json: Data
            do {
                json = try encoder.encode(value)
            } catch {
                throw PanTraceError(.invalidValue("cannot encode metadata: \(error)"), field: key)
            }
            text += "# \(key): \(String(decoding: TextLines.escapingLineBreaks(Array(json)), as: UTF8.self))\n"
        }
        text += columns + "\n"
        func cell(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        for s in trace.samples {
            text += "\(s.time),\(s.phase),\(s.translation.x),\(s.translation.y),\(s.velocity.x),\(s.velocity.y),"
            text += "\(cell(s.location?.x)),\(cell(s.location?.y)),\(s.touches.map(String.init) ?? "")\n"
        }
        return Array(text.utf8)
    }

    /// Why `key` cannot be a `# key: value` line that reads back as the same key, or nil.
    static func keyProblem(_ key: String) -> String? {
        if key == "grid" || key.hasPrefix("pantrace-csv") { return "metadata key \"\(key)\" is a CSV line of its own; use .jsonl or .pantrace" }
        if key.contains(":") || key.hasPrefix(" ") || key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "metadata key \(String(reflecting: key)) cannot be spelled in a \"# key: value\" line; use .jsonl or .pantrace"
        }
        return nil
    }

    /// Parses CSV text; errors name the 1-based line and, for a bad value, the field.
    public static func decode(_ bytes: [UInt8]) throws(PanTraceError) -> Trace {
        var metadataObject: [String: JSONValue] = [:]
        var keyLines: [String: Int] = [:]
        var grid = SampleGrid.standard
        var sawFormat = false, sawColumns = false
        var samples: [PanSample] = []
        var previous = -Double.infinity
        try TextLines.forEach(in: bytes) { number, _, line throws(PanTraceError) in
            if line.isEmpty { return }
            if line.hasPrefix("#") {
                guard !sawColumns else { throw PanTraceError(.malformedLine("a # line after the samples began")) }
                let body = line.dropFirst().drop { $0 == " " }
                if body.hasPrefix("pantrace-csv") {
                    guard body == "pantrace-csv 1" else { throw PanTraceError(.malformedLine("unsupported CSV version: \(body)")) }
                    guard !sawFormat else { throw PanTraceError(.malformedLine("a second \"# pantrace-csv 1\" line")) }
                    sawFormat = true
                    return
                }
                guard let colon = body.firstIndex(of: ":") else { throw PanTraceError(.malformedLine("a # line must be \"# key: JSON value\"")) }
                let key = String(body[..<colon])
                guard keyLines[key] == nil else {
                    throw PanTraceError(.malformedLine("\"\(key)\" appears twice (first on line \(keyLines[key] ?? 0))"), field: key)
                }
                let json = Data(body[body.index(after: colon)...].utf8)
                do {
                    if key == "grid" {
                        grid = try JSONDecoder().decode(GridRecord.self, from: json).grid()
                    } else {
                        metadataObject[key] = try JSONDecoder().decode(JSONValue.self, from: json)
                    }
                } catch let error as PanTraceError {
                    var located = error
                    located.field = key
                    throw located
                } catch {
                    throw PanTraceError(.malformedLine("the value is not JSON: \(DecodingProblem.describe(error))"), field: key)
                }
                keyLines[key] = number
                return
            }
            guard sawColumns else {
                guard sawFormat else { throw PanTraceError(.malformedLine("missing \"# pantrace-csv 1\" line")) }
                guard line == columns else { throw PanTraceError(.malformedLine("the header row must be \(columns)")) }
                sawColumns = true
                return
            }
            let sample = try parseRow(line)
            try TraceCheck.sample(sample, after: previous, grid: grid)
            previous = sample.time
            samples.append(sample)
        }
        guard sawColumns else { throw PanTraceError(.malformedLine("no header row \(columns)")) }
        let metadata: TraceMetadata
        do {
            metadata = try JSONDecoder().decode(TraceMetadata.self, from: JSONEncoder().encode(metadataObject))
        } catch {
            // The key the problem is under, and its line when it has one.
            let key = (error as? DecodingError).flatMap(Self.firstKey)
            throw PanTraceError(.badHeader("metadata lines: \(DecodingProblem.describe(error))"), line: key.flatMap { keyLines[$0] }, field: key)
        }
        do {
            try MetadataCoding.check(metadata)
        } catch {
            var located = error
            located.line = located.field.flatMap { keyLines[$0] }
            throw located
        }
        return Trace(metadata: metadata, samples: samples, grid: grid)
    }

    private static func firstKey(_ error: DecodingError) -> String? {
        let context: DecodingError.Context
        switch error {
        case .keyNotFound(let key, _): return key.stringValue
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return nil
        }
        return context.codingPath.first?.stringValue
    }

    private static func parseRow(_ line: Substring) throws(PanTraceError) -> PanSample {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 9 else { throw PanTraceError(.malformedLine("expected 9 cells, found \(cells.count)")) }
        let names = ["t", "phase", "tx", "ty", "vx", "vy", "x", "y", "touches"]
        func number(_ i: Int) throws(PanTraceError) -> Double {
            guard isJSONNumber(cells[i]), let value = Double(cells[i]), value.isFinite else {
                throw PanTraceError(.malformedLine("\(names[i]) \"\(cells[i].prefix(40))\" is not a finite number"), field: names[i])
            }
            return value
        }
        guard let phase = GesturePhase(name: String(cells[1])) else {
            throw PanTraceError(
                .malformedLine("unknown phase \"\(cells[1].prefix(40))\" (expected began, changed, ended or cancelled)"), field: "phase")
        }
        var sample = PanSample(
            time: try number(0), phase: phase, translation: PanVector(x: try number(2), y: try number(3)),
            velocity: PanVector(x: try number(4), y: try number(5)))
        switch (cells[6].isEmpty, cells[7].isEmpty) {
        case (true, true): break
        case (false, false): sample.location = PanVector(x: try number(6), y: try number(7))
        default: throw PanTraceError(.malformedLine("a location needs both x and y"), field: cells[6].isEmpty ? "x" : "y")
        }
        if !cells[8].isEmpty {
            guard cells[8].allSatisfy(\.isASCIIDigit), cells[8].count <= 4, let touches = Int(cells[8]) else {
                throw PanTraceError(.malformedLine("touches \"\(cells[8].prefix(40))\" is not a count 0…1000"), field: "touches")
            }
            sample.touches = touches
        }
        return sample
    }

    /// Whether `text` is a number in JSON's syntax (RFC 8259 §6): `-`, digits without a
    /// leading zero, an optional fraction and exponent. No `+`, hex, `inf` or `nan`, which
    /// `Double(_:)` would take and no writer writes.
    static func isJSONNumber(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let whole = digits()
        guard whole == 1 || (whole > 1 && !leadingZero) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
