import Foundation
import Testing
@testable import PanTrace

/// The JSON Lines and CSV readers check every value where it enters, against the same
/// hostile values as the binary reader (``BoundaryValueTests``): each is read exactly when the
/// binary writer would write it (and then round-trips), and otherwise refused with an error
/// naming the line and the field.
struct TextReaderBoundaryTests {
    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case jsonl, csv
        var testDescription: String { rawValue }

        func encode(_ trace: Trace) throws -> [UInt8] { self == .jsonl ? try JSONLCodec.encode(trace) : try CSVCodec.encode(trace) }
        func decode(_ bytes: [UInt8]) throws -> Trace { self == .jsonl ? try JSONLCodec.decode(bytes) : try CSVCodec.decode(bytes) }
    }

    /// The fields of a sample, each with a value no other field of the trace spells.
    static let sentinels: [(field: String, value: Double)] = [
        ("t", 0.04321), ("tx", 111.11), ("ty", 222.22), ("vx", 333.33), ("vy", 444.44), ("x", 555.55), ("y", 666.66)
    ]

    /// Five samples; the last carries every sentinel.
    static func trace(_ field: String? = nil, _ value: Double? = nil) -> Trace {
        var samples = (0..<4).map { i in
            PanSample(
                time: Double(i) / 100, phase: i == 0 ? .began : .changed, translation: PanVector(x: Double(i), y: 1),
                velocity: PanVector(x: 10, y: 0), location: PanVector(x: 20, y: 30), touches: 1)
        }
        func v(_ name: String) -> Double { name == field ? value! : sentinels.first { $0.field == name }!.value }
        samples.append(
            PanSample(
                time: v("t"), phase: .ended, translation: PanVector(x: v("tx"), y: v("ty")), velocity: PanVector(x: v("vx"), y: v("vy")),
                location: PanVector(x: v("x"), y: v("y")), touches: 1))
        return Trace(metadata: TraceMetadata(id: "edge", intent: .finish), samples: samples)
    }

    static var values: [Double] { BoundaryValueTests.hostile + BoundaryValueTests.hostileTimes.map(\.0) }

    /// How each format spells `value`: JSON has no NaN or infinity at all, so JSON Lines gets
    /// JavaScript's words, CSV the ones `Double(_:)` would take.
    static func spelling(_ value: Double, _ format: Format) -> String {
        if value.isNaN { return format == .jsonl ? "NaN" : "nan" }
        if value.isInfinite { return (value < 0 ? "-" : "") + (format == .jsonl ? "Infinity" : "inf") }
        return "\(value)"
    }

    @Test(arguments: Format.allCases, sentinels.map(\.field))
    func everyHostileValueIsReadExactlyWhenTheBinaryWriterWritesIt(format: Format, field: String) throws {
        let sentinel = try #require(Self.sentinels.first { $0.field == field }).value
        let text = String(decoding: try format.encode(Self.trace()), as: UTF8.self)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\(sentinel)") }) + 1
        for value in Self.values {
            let hostile = Array(text.replacingOccurrences(of: "\(sentinel)", with: Self.spelling(value, format)).utf8)
            let expected = Self.trace(field, value)
            let written = try? TraceReader().decode(TraceEncoder.encode(expected)).trace
            if let written {
                let read = try format.decode(hostile)
                #expect(read == expected, "\(format) \(field)=\(value)")
                // Round trip: the binary file, and the text written back from it.
                #expect(try TraceReader().decode(TraceEncoder.encode(read)).trace == written)
                #expect(try format.decode(format.encode(written)) == written)
            } else {
                let error = #expect(throws: PanTraceError.self, "\(format) \(field)=\(value)") { try format.decode(hostile) }
                #expect(error?.line == line, "\(format) \(field)=\(value): \(error.map(String.init(describing:)) ?? "")")
                if value.isFinite { #expect(error?.field == field, "\(format) \(field)=\(value)") }
                // The writer refuses it too, naming the sample and the field.
                let refused = #expect(throws: PanTraceError.self) { try format.encode(expected) }
                #expect(refused?.sample == 4 && refused?.field == (value.isFinite ? field : refused?.field))
            }
        }
    }

    /// The issue's three times and a time going backwards: `inspect` and `replay` trapped on them.
    @Test(arguments: Format.allCases, [1e308, 9.3e12, -0x1p63, 0.001])
    func aTimeOutOfRangeOrGoingBackwardsIsAnErrorNamingLineAndField(format: Format, time: Double) throws {
        let text = String(decoding: try format.encode(Self.trace()), as: UTF8.self).replacingOccurrences(of: "0.04321", with: "\(time)")
        let error = #expect(throws: PanTraceError.self) { try format.decode(Array(text.utf8)) }
        #expect(error?.field == "t")
        #expect(error?.description.contains(time == 0.001 ? "goes backwards" : "is outside ±4000000000 s") == true)
    }

    @Test(arguments: Format.allCases)
    func metadataOverTheHeaderLimitsIsRefusedNamingTheKey(format: Format) throws {
        var long = Self.trace()
        long.metadata.notes = String(repeating: "n", count: 65_537)
        var many = Self.trace()
        many.metadata.tags = (0...1024).map { "t\($0)" }
        for (trace, key) in [(long, "notes"), (many, "tags")] {
            // Written as the writer would write it if it did not check.
            var allowed = trace
            if key == "notes" { allowed.metadata.notes = String(repeating: "n", count: 65_536) } else { allowed.metadata.tags.removeLast() }
            let text = String(decoding: try format.encode(allowed), as: UTF8.self)
            let hostile =
                key == "notes"
                ? text.replacingOccurrences(of: String(repeating: "n", count: 65_536), with: String(repeating: "n", count: 65_537))
                : text.replacingOccurrences(of: "\"t1023\"]", with: "\"t1023\",\"t1024\"]")
            #expect(try format.decode(Array(text.utf8)) == allowed)
            let error = #expect(throws: PanTraceError.self) { try format.decode(Array(hostile.utf8)) }
            #expect(error?.field == key)
            #expect(error?.line != nil)
            #expect(throws: PanTraceError.self) { try format.encode(trace) }
        }
    }

    @Test func aSampleKeyTheWriterNeverWritesIsRefused() throws {
        let text = String(decoding: try JSONLCodec.encode(Self.trace()), as: UTF8.self).replacingOccurrences(
            of: "\"tx\":111.11", with: "\"tX\":111.11")
        let error = #expect(throws: PanTraceError.self) { try JSONLCodec.decode(Array(text.utf8)) }
        #expect(error?.line == 6 && error?.description.contains("unknown key \"tX\"") == true)
    }

    @Test func csvNumbersAreJSONNumbers() {
        for good in ["0", "-0.0", "12.5", "1e-05", "1e+16", "5e-324", "-9.3E15"] { #expect(CSVCodec.isJSONNumber(good[...]), "\(good)") }
        for bad in ["", "+1", "01", "1.", ".5", "0x1p3", "inf", "nan", "1e", "--1", "1_000"] { #expect(!CSVCodec.isJSONNumber(bad[...]), "\(bad)") }
    }

    /// Line and paragraph separators travel as `\u` escapes, so no line reader splits a line.
    @Test(arguments: Format.allCases)
    func lineSeparatorsInStringsAreEscapedAndRoundTrip(format: Format) throws {
        var trace = Self.trace()
        trace.metadata.notes = "a\u{2028}b\u{2029}c\u{85}d"
        trace.metadata.tags = ["x\u{2028}y"]
        let bytes = try format.encode(trace)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { [0x2028, 0x2029, 0x85].contains($0.value) })
        #expect(text.contains(#"a\u2028b\u2029c\u0085d"#))
        #expect(try format.decode(bytes) == trace)
    }

    /// A metadata key a `# key: value` line cannot spell is refused by the CSV writer, not
    /// written as a line that reads back as another key.
    @Test(arguments: ["a:b", " lead", "new\nline", "grid", "pantrace-csv 2"])
    func csvRefusesAKeyItsLinesCannotSpell(key: String) throws {
        var trace = Self.trace()
        trace.metadata.extra = [key: .number(1)]
        let error = #expect(throws: PanTraceError.self) { try CSVCodec.encode(trace) }
        #expect(error?.field == key)
        #expect(try JSONLCodec.decode(JSONLCodec.encode(trace)) == trace)
    }

    /// A key given twice in CSV is an error naming both lines, as a repeated tag is in a header.
    @Test func aRepeatedCSVKeyIsRefused() throws {
        let text = String(decoding: try CSVCodec.encode(Self.trace()), as: UTF8.self).replacingOccurrences(
            of: "# intent: \"finish\"\n", with: "# intent: \"finish\"\n# intent: \"cancel\"\n")
        let error = #expect(throws: PanTraceError.self) { try CSVCodec.decode(Array(text.utf8)) }
        #expect(error?.field == "intent" && error?.description.contains("appears twice") == true)
    }
}

/// A file that ends early is called what it is: cut inside a chunk ("truncated"), or whole
/// chunks without the end mark ("unfinished"), docs/FORMAT.md §1.
struct EarlyEndWordingTests {
    @Test func wholeChunksWithoutTheEndMarkAreUnfinishedAndACutChunkIsTruncated() throws {
        let bytes = try TraceEncoder.encode(TestTraces.synthetic(0), configuration: .live)
        let last = try #require(TestTraces.memberStarts(bytes).last)
        let unfinished = try TraceReader().decode(Array(bytes[..<last]))
        #expect(!unfinished.isComplete)
        let warning = try #require(unfinished.warnings.first)
        #expect(warning.isTruncation)
        #expect(warning.description.contains("no end mark") && !warning.description.contains("truncated"), "\(warning)")
        let cut = try TraceReader().decode(Array(bytes[..<(last + 5)]))
        #expect(cut.warnings.first?.description.contains("ends inside a chunk (truncated") == true)
        let strict = #expect(throws: PanTraceError.self) { try TraceReader(configuration: .init(isStrict: true)).decode(Array(bytes[..<last])) }
        #expect(strict?.description.contains("no end mark") == true)
    }
}
