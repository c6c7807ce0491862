import Foundation
import PanTrace
import Testing

@testable import PanCapture

struct PointerLogImporterTests {
    static func importer(_ format: PointerLogFormat = .csv, bufferSize: Int = 1 << 16) -> PointerLogImporter {
        PointerLogImporter(configuration: .init(format: format, bufferSize: bufferSize))
    }

    static func record(_ path: String, into folder: String, format: PointerLogFormat = .csv) throws -> (GestureRecording, PointerLogImporter.Summary)
    {
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "", source: format.source)), destination: RecordingDestination(folder: folder, stem: "g")
        )
        return (recording, try importer(format).record(logAt: path, into: recording))
    }

    static func events(_ path: String, _ format: PointerLogFormat = .csv) throws -> [PointerEvent] {
        var events: [PointerEvent] = []
        _ = try importer(format).forEachEvent(inLogAt: path) { event in
            events.append(event)
            return true
        }
        return events
    }

    /// Down, five moves 10 pt apart every 8 ms, up: one gesture, starting at `t` ms.
    static func gesture(at t: Int, pointer: Int? = nil) -> String {
        let p = pointer.map { ",\($0)" } ?? ""
        var text = "\(t),0,0,down\(p)\n"
        for k in 1...5 { text += "\(t + 8 * k),\(10 * k),0,move\(p)\n" }
        return text + "\(t + 48),50,0,up\(p)\n"
    }

    @Test func csvColumnsMayComeInAnyOrderWithExtrasIgnored() throws {
        let path = try CaptureTestFiles.log("# a comment\n\nphase, pressure ,y,x,t_ms,pointer\r\nmove,0.5,2,1,1.5,3\r\n")
        // A move before its down: read fine here, rejected by the recognizer or velocity reader.
        #expect(try Self.events(path) == [PointerEvent(nanoseconds: 1_500_000, x: 1, y: 2, phase: .move, pointer: 3)])
    }

    @Test func csvAndJSONLOfTheSameEventsRecordIdenticalSamples() throws {
        let folder = try CaptureTestFiles.folder()
        let csv = try CaptureTestFiles.log("t_ms,x,y,phase\n" + Self.gesture(at: 0), in: folder)
        var jsonl = ""
        for line in Self.gesture(at: 0).split(separator: "\n") {
            let f = line.split(separator: ",")
            jsonl += "{ \"phase\": \"\(f[3])\", \"t_ms\": \(f[0]), \"x\": \(f[1]), \"y\": \(f[2]), \"extra\": true }\n"
        }
        let jsonlPath = try CaptureTestFiles.log(jsonl, name: "log.jsonl", in: folder)
        let (fromCSV, _) = try Self.record(csv, into: try CaptureTestFiles.folder())
        let (fromJSONL, _) = try Self.record(jsonlPath, into: try CaptureTestFiles.folder(), format: .jsonl)
        let a = try CaptureTestFiles.read(fromCSV.gestures[0].path).trace, b = try CaptureTestFiles.read(fromJSONL.gestures[0].path).trace
        #expect(a.samples == b.samples)
        #expect(a.samples.count == 5)
        #expect(b.metadata.source == "import:jsonl")
    }

    @Test(arguments: [
        ("t_ms,x,y,phase\n0,0,0,down\n8,1,0\n", 3, "expected 4 comma-separated fields"),
        ("t_ms,x,y,phase\n0,0,0,down\n8,1,0,hover\n", 3, "unknown phase \"hover\""),
        ("t_ms,x,y,phase\n0,0,0,move\n", 2, "move of pointer 0, which is not down"),
        ("t_ms,x,y,phase\n0,0,0,down\n8,20,0,move\n7,30,0,move\n", 4, "time goes backwards: 7 ms is before the previous event's 8 ms"),
        ("t_ms,x,y,phase\n0,0,0,down\n8,nan,0,move\n", 3, "x is not a finite number: nan"),
        ("t_ms,x,y,phase\n0,0,0,down\n8,1,-inf,move\n", 3, "y is not a finite number: -inf"),
        ("t_ms,x,y,phase\n0,0,0,down\n8,1,1e999,move\n", 3, "y is not a finite number: 1e999"),
        ("t_ms,x,y,phase\nsoon,0,0,down\n", 2, "t_ms is not a number: \"soon\""),
        ("time,x,y,phase\n0,0,0,down\n", 1, "the header must name t_ms, x, y and phase"),
        ("t_ms,x,y,phase,pointer\n0,0,0,down,first\n", 2, "pointer is not an integer"),
        ("t_ms,x,y,phase\n0,0,0,down\n1,0,0,down\n", 3, "down of pointer 0, which is already down")
    ])
    func badCSVLinesAreErrorsNamingTheLine(log: String, line: Int, message: String) throws {
        let path = try CaptureTestFiles.log(log)
        let error = #expect(throws: CaptureError.self) { try Self.record(path, into: try CaptureTestFiles.folder()) }
        #expect(error?.line == line)
        #expect(error?.file == path)
        #expect(error?.description.contains("\(path): line \(line) at byte") == true, "\(String(describing: error))")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("{\"t_ms\":0,\"x\":0,\"y\":0}\n", "missing phase"),
        ("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":\"down\",\"x\":1}\n", "key \"x\" appears twice"),
        ("{\"t_ms\":0,\"x\":NaN,\"y\":0,\"phase\":\"down\"}\n", "not a JSON value"),
        ("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":\"tap\"}\n", "unknown phase \"tap\""),
        ("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":\"down\",\"p\":{}}\n", "nested objects"),
        ("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":\"down\"} {}\n", "text after the object"),
        ("[1,2]\n", "one JSON object"),
        ("{\"t_ms\":\"0\",\"x\":0,\"y\":0,\"phase\":\"down\"}\n", "t_ms is not a number"),
        ("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":down}\n", "not a JSON value")
    ])
    func badJSONLLinesAreErrorsNamingTheLine(line: String, message: String) throws {
        let path = try CaptureTestFiles.log("{\"t_ms\":0,\"x\":0,\"y\":0,\"phase\":\"cancel\",\"pointer\":9}\n" + line, name: "log.jsonl")
        let error = #expect(throws: CaptureError.self) { try Self.events(path, .jsonl) }
        #expect(error?.line == 2)
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func aBadLineLeavesEarlierFilesUntouchedAndTheCurrentGestureReadable() throws {
        let good = "t_ms,x,y,phase\n" + Self.gesture(at: 0) + "200,0,0,down\n208,20,0,move\n216,30,0,move\n"
        let goodPath = try CaptureTestFiles.log(good + "224,40,0,up\n")
        let badPath = try CaptureTestFiles.log(good + "224,40,0,lift\n")
        let reference = try CaptureTestFiles.folder(), folder = try CaptureTestFiles.folder()
        _ = try Self.record(goodPath, into: reference)
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "", source: "import:csv")), destination: RecordingDestination(folder: folder, stem: "g"))
        let error = #expect(throws: CaptureError.self) { try Self.importer().record(logAt: badPath, into: recording) }
        #expect(error?.line == 12)
        #expect(recording.gestures.map(\.isComplete) == [true, false])
        // The finished gesture is byte for byte what a clean log gives.
        #expect(CaptureTestFiles.bytes("\(folder)/g-1.pantrace") == CaptureTestFiles.bytes("\(reference)/g-1.pantrace"))
        // The interrupted one has every sample before the bad line, in complete chunks.
        let interrupted = try CaptureTestFiles.read("\(folder)/g-2.pantrace")
        #expect(!interrupted.isComplete)
        #expect(interrupted.trace.samples.map(\.translation.x) == [20, 30])
        let clean = try CaptureTestFiles.read("\(reference)/g-2.pantrace")
        #expect(Array(clean.trace.samples.prefix(2)) == interrupted.trace.samples)
    }

    @Test func aLogEndingMidGestureLeavesItIncompleteWithAWarning() throws {
        let path = try CaptureTestFiles.log("t_ms,x,y,phase\n0,0,0,down\n8,20,0,move\n")
        let (recording, summary) = try Self.record(path, into: try CaptureTestFiles.folder())
        #expect(recording.gestures.map(\.isComplete) == [false])
        #expect(summary.warnings.count == 1)
        #expect(summary.warnings.first?.isWarning == true)
        #expect(summary.warnings.first?.description.contains("left incomplete") == true)
    }

    @Test(arguments: [("8,20,0,mo", true), ("8,20,0,move", false)])
    func aLastLineCutBeforeItsNewlineIsDroppedWithAWarningOnlyIfUnreadable(lastLine: String, isDropped: Bool) throws {
        let path = try CaptureTestFiles.log("t_ms,x,y,phase\n0,0,0,down\n" + lastLine)
        var events: [PointerEvent] = []
        let summary = try Self.importer().forEachEvent(inLogAt: path) {
            events.append($0); return true
        }
        #expect(events.count == (isDropped ? 1 : 2))
        #expect(summary.warnings.count == (isDropped ? 1 : 0))
        if isDropped { #expect(summary.warnings.first?.description.contains("line 3 at byte 26: the log ends in the middle of this line") == true) }
    }

    @Test func aLongLogStreamsThroughABufferFarSmallerThanIt() throws {
        // 60,000 events (~1.2 MB) through a 256-byte buffer: loading the log whole would need
        // thousands of times the memory the importer may hold.
        var text = "t_ms,x,y,phase\n"
        for g in 0..<10_000 { text += Self.gesture(at: g * 100) }
        let path = try CaptureTestFiles.log(text)
        let folder = try CaptureTestFiles.folder()
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "")), destination: RecordingDestination(folder: folder, stem: "s"))
        let summary = try Self.importer(bufferSize: 256).record(logAt: path, into: recording)
        #expect(summary.lines == 70_001)
        #expect(summary.events == 70_000)
        #expect(summary.peakBufferedBytes <= 256)
        #expect(summary.bufferCapacity < 1024)
        #expect(text.utf8.count > 1000 * summary.bufferCapacity)
        #expect(recording.gestures.count == 10_000)
    }

    @Test func aLineLongerThanTheBufferIsAnError() throws {
        let path = try CaptureTestFiles.log("t_ms,x,y,phase\n0,0,0,down" + String(repeating: " ", count: 100) + "\n")
        let error = #expect(throws: CaptureError.self) { try Self.importer(bufferSize: 64).forEachEvent(inLogAt: path) { _ in true } }
        #expect(error?.line == 2)
        #expect(error?.description.contains("longer than the 64-byte read buffer") == true)
    }

    @Test func aMissingLogIsOneLine() throws {
        let error = #expect(throws: CaptureError.self) { try Self.events("/nonexistent/pointer.csv") }
        #expect(error?.description == "/nonexistent/pointer.csv: no such file")
    }
}

/// Hostile values in a pointer log: one error naming the line, nothing written; values at the
/// edge of their range are read.
struct PointerLogBoundaryTests {
    @Test(arguments: [
        "1e309,10,10,down,0", "nan,10,10,down,0", "-9223372036854775809,10,10,down,0", "0,1e309,10,down,0", "0,nan,10,down,0",
        "0,10,-inf,down,0", "0,10,10,down,9223372036854775808", "0,10,10,hover,0", String(repeating: "9", count: 5000) + ",1,1,down,0"
    ])
    func aHostileLineIsOneErrorNamingItsLine(line: String) throws {
        let folder = try CaptureTestFiles.folder()
        let path = try CaptureTestFiles.log("t_ms,x,y,phase,pointer\n\(line)\n", in: folder)
        let error = #expect(throws: CaptureError.self) { try PointerLogImporterTests.record(path, into: folder) }
        #expect(error?.description.contains("line 2") == true, "\(error.map(String.init(describing:)) ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pantrace") }.isEmpty)
    }

    @Test func timesAtTheEdgeOfTheRangeAreRead() throws {
        let events = try PointerLogImporterTests.events(
            try CaptureTestFiles.log("t_ms,x,y,phase,pointer\n-4000000000000,1,1,down,0\n4000000000000,1e9,-1e9,up,0\n"))
        #expect(events.map(\.nanoseconds) == [-4_000_000_000_000_000_000, 4_000_000_000_000_000_000])
    }
}
