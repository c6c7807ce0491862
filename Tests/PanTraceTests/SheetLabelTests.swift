import Foundation
import Testing
@testable import PanTrace

/// A target detent as a recording's label (format version 4): every format carries it, every
/// reader checks it where it enters, and a version 3 reader's rules stay as they were.
struct SheetLabelTests {
    static func labelled(_ sheet: SheetLabel?, intent: Intent = .detent) -> Trace {
        var trace = TextReaderBoundaryTests.trace()
        trace.metadata.intent = intent
        trace.metadata.sheet = sheet
        return trace
    }

    static let sheets: [SheetLabel] = [
        SheetLabel(detents: [80, 400, 600], start: 2, target: .detent(1)),
        SheetLabel(detents: [80.125, 400.5], start: 0, target: .dismissed),
        SheetLabel(detents: [200], start: 0, target: .detent(0)),
        SheetLabel(detents: [10, 20, 30, 40, 50, 60, 70, 80], start: 7, target: .detent(0))
    ]

    @Test(arguments: sheets)
    func aTargetDetentRoundTripsThroughEveryFormat(sheet: SheetLabel) throws {
        let trace = Self.labelled(sheet)
        let binary = try TraceReader().decode(try TraceEncoder.encode(trace)).trace
        #expect(binary == trace)
        #expect(try JSONLCodec.decode(try JSONLCodec.encode(trace)) == trace)
        #expect(try CSVCodec.decode(try CSVCodec.encode(trace)) == trace)
    }

    @Test func aSheetWithoutATargetIsAnUnlabelledDrag() throws {
        let trace = Self.labelled(SheetLabel(detents: [80, 400, 600], start: 2), intent: .unknown)
        #expect(try TraceReader().decode(try TraceEncoder.encode(trace)).trace == trace)
        let line = String(decoding: try JSONLCodec.encode(trace), as: UTF8.self).split(separator: "\n")[0]
        #expect(line.contains(#""sheet":{"detents":[80,400,600],"start":2}"#))
    }

    @Test func theJSONSpellsTheTargetAsAnIndexOrDismissed() throws {
        for (sheet, spelled) in [(Self.sheets[0], #""target":1"#), (Self.sheets[1], #""target":"dismissed""#)] {
            let line = String(decoding: try JSONLCodec.encode(Self.labelled(sheet)), as: UTF8.self)
            #expect(line.contains(spelled) && line.contains(#""intent":"detent""#), "\(line.prefix(300))")
        }
    }

    /// The intent and the target say one thing: each without the other is refused by the writer
    /// and by every reader, naming the field.
    @Test func theIntentAndTheTargetComeTogether() throws {
        let noTarget = Self.labelled(SheetLabel(detents: [80, 400], start: 1), intent: .detent)
        let noIntent = Self.labelled(SheetLabel(detents: [80, 400], start: 1, target: .detent(0)), intent: .finish)
        for trace in [noTarget, noIntent] {
            let error = #expect(throws: PanTraceError.self) { try TraceEncoder.encode(trace) }
            #expect(error?.description.contains("intent") == true, "\(String(describing: error))")
            #expect(throws: PanTraceError.self) { try JSONLCodec.encode(trace) }
        }
        let good = String(decoding: try JSONLCodec.encode(Self.labelled(Self.sheets[0])), as: UTF8.self)
        let bad = good.replacingOccurrences(of: #""intent":"detent""#, with: #""intent":"cancel""#)
        let error = #expect(throws: PanTraceError.self) { try JSONLCodec.decode(Array(bad.utf8)) }
        #expect(error?.description.contains("line 1") == true && error?.description.contains("target 1") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (#""sheet":{"detents":[400,80],"start":0,"target":1}"#, "not below detent 0"),
        (#""sheet":{"detents":[80,400],"start":2,"target":1}"#, "start 2 names no detent"),
        (#""sheet":{"detents":[80,400],"start":0,"target":5}"#, "target 5 names no detent"),
        (#""sheet":{"detents":[],"start":0,"target":0}"#, "0 detents"),
        (#""sheet":{"detents":[1,2,3,4,5,6,7,8,9],"start":0,"target":0}"#, "9 detents"),
        (#""sheet":{"detents":[80,400],"start":0,"target":"up"}"#, "not a detent index"),
        (#""sheet":{"detents":[80,400],"start":0,"target":1,"speed":2}"#, "unknown key 'speed'")
    ])
    func aSheetThatIsNoSheetIsRefusedWhereItIsRead(json: String, problem: String) throws {
        let good = String(decoding: try JSONLCodec.encode(Self.labelled(Self.sheets[0])), as: UTF8.self)
        let bad = good.replacingOccurrences(of: #""sheet":{"detents":[80,400,600],"start":2,"target":1}"#, with: json)
        #expect(bad != good)
        let error = #expect(throws: PanTraceError.self) { try JSONLCodec.decode(Array(bad.utf8)) }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }

    /// Tag 14 and intent code 3 are version 4's: a version 3 header with either is a bad header,
    /// as a version 3 reader would have said.
    @Test func versionThreeHasNoSheetAndNoDetentIntent() throws {
        let header = try ChunkPayload.encodeHeader(grid: .standard, metadata: Self.labelled(Self.sheets[0]).metadata)
        #expect(header[8] == 4)
        var four = ByteReader(header)
        #expect(try ChunkPayload.decodeHeader(&four).metadata.sheet == Self.sheets[0])
        var three = header
        three[8] = 3
        var r = ByteReader(three)
        let error = #expect(throws: PanTraceError.self) { try ChunkPayload.decodeHeader(&r) }
        #expect(error?.description.contains("unknown intent code 3") == true || error?.description.contains("unknown metadata field 14") == true)
    }

    @Test func aBinaryTargetPastTheDetentsIsABadHeader() throws {
        var header = try ChunkPayload.encodeHeader(grid: .standard, metadata: Self.labelled(Self.sheets[0]).metadata)
        let at = try #require(header.lastIndex(of: UInt8(MetadataCoding.Tag.sheet.rawValue)))
        // The tag, the count, the three numbers, the start, then the target's code (index 1 is 3).
        let targetAt = try at + 1 + 1 + Self.numberBytes([80, 400, 600]) + 1
        #expect(header[targetAt] == 3)
        header[targetAt] = 9
        var r = ByteReader(header)
        let error = #expect(throws: PanTraceError.self) { try ChunkPayload.decodeHeader(&r) }
        #expect(error?.description.contains("target 7 names no detent") == true, "\(String(describing: error))")
    }

    static func numberBytes(_ values: [Double]) throws -> Int {
        var w = ByteWriter()
        for value in values { MetadataCoding.number(value, into: &w) }
        return w.bytes.count
    }
}
