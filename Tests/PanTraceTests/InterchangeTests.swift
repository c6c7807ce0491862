import Foundation
import Testing
@testable import PanTrace

struct InterchangeTests {
    @Test(arguments: [0, 1, 2])
    func pantraceToJSONLAndBackIsByteIdentical(index: Int) throws {
        let original = try TraceEncoder.encode(TestTraces.synthetic(index))
        let trace = try TraceReader().decode(original).trace
        let back = try JSONLCodec.decode(try JSONLCodec.encode(trace))
        #expect(back == trace)
        #expect(try TraceEncoder.encode(back) == original)
    }

    @Test(arguments: [0, 1, 2])
    func pantraceToCSVAndBackIsByteIdentical(index: Int) throws {
        let original = try TraceEncoder.encode(TestTraces.synthetic(index))
        let trace = try TraceReader().decode(original).trace
        let back = try CSVCodec.decode(try CSVCodec.encode(trace))
        #expect(back == trace)
        #expect(try TraceEncoder.encode(back) == original)
    }

    @Test func everyFieldSurvivesJSONLAndCSV() throws {
        let trace = TestTraces.snapped(TestTraces.everyField())
        #expect(try JSONLCodec.decode(try JSONLCodec.encode(trace)) == trace)
        #expect(try CSVCodec.decode(try CSVCodec.encode(trace)) == trace)
    }

    @Test func aMalformedJSONLLineNamesItsLineNumber() throws {
        var lines = String(decoding: try JSONLCodec.encode(TestTraces.synthetic(0)), as: UTF8.self).split(separator: "\n").map(String.init)
        lines[4] = "{\"t\":0.1,\"phase\":\"changed\""
        let error = #expect(throws: PanTraceError.self) { try JSONLCodec.decode(Array(lines.joined(separator: "\n").utf8)) }
        #expect(error?.line == 5)
    }

    @Test func anUnknownPhaseInCSVNamesItsLineAndThePhase() throws {
        var text = String(decoding: try CSVCodec.encode(TestTraces.synthetic(0)), as: UTF8.self)
        text = text.replacingOccurrences(of: ",began,", with: ",pressed,")
        let error = #expect(throws: PanTraceError.self) { try CSVCodec.decode(Array(text.utf8)) }
        let description = error?.description ?? ""
        #expect(description.contains("unknown phase \"pressed\""))
        #expect(error?.line != nil)
    }

    @Test func nanInCSVIsRejected() throws {
        var lines = String(decoding: try CSVCodec.encode(TestTraces.synthetic(0)), as: UTF8.self).split(separator: "\n").map(String.init)
        let row = lines.firstIndex { $0.hasPrefix("t,") }! + 2
        var cells = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        cells[4] = "nan"
        lines[row] = cells.joined(separator: ",")
        let error = #expect(throws: PanTraceError.self) { try CSVCodec.decode(Array(lines.joined(separator: "\n").utf8)) }
        #expect(error?.line == row + 1)
        #expect(error?.description.contains("not a finite number") == true)
    }

    @Test func chromeTraceHasCounterTracksAndPhaseMarks() throws {
        let trace = TestTraces.synthetic(1)
        struct Document: Decodable {
            struct Event: Decodable { var name: String; var ph: String; var ts: Double }
            var traceEvents: [Event]
            var displayTimeUnit: String
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(try ChromeTraceExporter.encode(trace)))
        #expect(document.traceEvents.filter { $0.ph == "C" }.count == 2 * trace.samples.count)
        #expect(document.traceEvents.contains { $0.ph == "i" && $0.name == "ended" })
        #expect(document.traceEvents.contains { $0.ph == "M" && $0.name == "process_name" })
    }

    @Test func formatsAreChosenByExtension() throws {
        #expect(try InterchangeFormat(path: "a/b.trace.json") == .chromeTrace)
        #expect(try InterchangeFormat(path: "b.PANTRACE") == .pantrace)
        #expect(try InterchangeFormat(path: "b.jsonl") == .jsonl)
        let error = #expect(throws: PanTraceError.self) { try InterchangeFormat(path: "b.txt") }
        #expect(error?.description.contains("unknown extension") == true)
    }
}
