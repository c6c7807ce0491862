import ArgumentParser
import Foundation
import PanCapture
import PanTrace
import Testing

@testable import PanTraceCLI

/// `pantrace record` and `pantrace velocity`: option parsing, then the built binary on real files.
struct RecordCommandTests {
    static func folder() throws -> String { try BinaryTests.temporaryFolder() }

    static func write(_ text: String, _ path: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let twoGestures = """
        t_ms,x,y,phase,pointer
        0,5,100,down,0
        8,20,100,move,0
        16,40,101,move,0
        24,60,102,move,0
        32,80,102,up,0
        500,5,300,down,0
        508,30,300,move,0
        516,55,300,move,0
        524,55,300,cancel,0

        """

    @Test func recordParsesItsOptions() throws {
        let command = try #require(
            try PanTraceCommand.parseAsRoot([
                "record", "--from", "touch.txt", "--format", "getevent", "-o", "out/", "--intent", "cancel", "--slop", "8", "--edge", "left",
                "--velocity", "impulse", "--screen", "360x800", "--scale", "2.625", "--axis-range", "0:1079,0:2399", "--device", "/dev/input/event2"
            ]) as? RecordCommand)
        #expect(command.format == .getevent)
        #expect(command.intent == .cancel)
        #expect(command.recognizing.slop == 8)
        #expect(command.recognizing.edge == .left)
        #expect(command.recognizing.velocity == .impulse)
        #expect(command.recognizing.scale == 2.625)
        #expect(command.recognizing.axisRange == "0:1079,0:2399")
    }

    @Test(arguments: [
        ["record", "--from", "log.csv"], ["record", "-o", "x"], ["record", "--from", "log.txt", "-o", "x"],
        ["record", "--from", "log.csv", "-o", "x", "--intent", "maybe"], ["record", "--from", "log.csv", "-o", "x", "--edge", "middle"],
        ["record", "--from", "log.csv", "-o", "x", "--velocity", "guess"], ["record", "--from", "log.csv", "-o", "x", "--slop", "-1"],
        ["velocity", "log.csv", "--strategy", "lsq3"], ["velocity"]
    ])
    func badRecordAndVelocityArgumentsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(arguments) }
    }

    @Test func recordWritesOneFilePerGestureAndSaysWhat() throws {
        let dir = try Self.folder()
        let log = try Self.write(Self.twoGestures, "\(dir)/swipes.csv")
        let result = try BinaryTests.run(["record", "--from", log, "-o", "\(dir)/out", "--intent", "finish", "--created", "2026-01-02T03:04:05Z"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote \(dir)/out-1.pantrace: 4 samples"))
        #expect(result.stdout.contains("wrote \(dir)/out-2.pantrace: 3 samples, 0.016 s, cancelled"))
        #expect(result.stdout.contains("2 gestures recorded"))
        let first = try TraceReader().read(contentsOf: "\(dir)/out-1.pantrace").trace
        #expect(first.metadata.intent == .finish)
        #expect(first.metadata.source == "import:csv")
        #expect(first.metadata.created == "2026-01-02T03:04:05Z")
        #expect(first.metadata.velocityOrigin == "lsq2")
    }

    @Test func recordIntoAFolderNamesFilesAfterTheLogAndNeverOverwrites() throws {
        let dir = try Self.folder()
        let log = try Self.write(Self.twoGestures, "\(dir)/my swipes.csv")
        let out = "\(dir)/recs/"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(try BinaryTests.run(["record", "--from", log, "-o", out]).status == 0)
        let before = FileManager.default.contents(atPath: "\(out)my-swipes-1.pantrace")
        #expect(before != nil)
        let again = try BinaryTests.run(["record", "--from", log, "-o", out])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists"))
        #expect(FileManager.default.contents(atPath: "\(out)my-swipes-1.pantrace") == before)
    }

    @Test func aBadLineFailsWithOneLineNamingItAndKeepsWhatWasWritten() throws {
        let dir = try Self.folder()
        let log = try Self.write(Self.twoGestures.replacingOccurrences(of: "516,55,300,move", with: "516,55,300,hover"), "\(dir)/bad.csv")
        let result = try BinaryTests.run(["record", "--from", log, "-o", "\(dir)/out"])
        #expect(result.status != 0)
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("bad.csv: line 9 at byte") == true)
        #expect(errors.first?.contains("unknown phase \"hover\"") == true)
        #expect(result.stdout.contains("out-1.pantrace: 4 samples"))
        #expect(result.stdout.contains("out-2.pantrace: 1 samples, 0.000 s, INCOMPLETE"))
        #expect(try TraceReader().read(contentsOf: "\(dir)/out-1.pantrace").isComplete)
    }

    @Test func velocityPrintsJSONWithNullForNone() throws {
        let dir = try Self.folder()
        let log = try Self.write("t_ms,x,y,phase\n0,0,0,down\n10,5,0,move\n20,10,0,move\n20,10,0,up\n", "\(dir)/v.csv")
        let moving = try BinaryTests.run(["velocity", "--strategy", "lsq2", log])
        #expect(moving.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(moving.stdout.utf8)) as? [String: Any])
        #expect(abs((object["vx"] as? Double ?? 0) - 500) < 0.01)
        #expect(object["vy"] as? Double == 0)
        #expect(object["gesture"] as? Int == 1 && object["duration_s"] as? Double == 0.02)
        let late = try Self.write("t_ms,x,y,phase\n0,0,0,down\n10,5,0,move\n20,10,0,move\n61,10,0,up\n", "\(dir)/late.csv")
        #expect(try BinaryTests.run(["velocity", late]).stdout.contains("\"vx\":null,\"vy\":null"))
        #expect(try BinaryTests.run(["velocity", "--strategy", "flutter", late]).stdout.contains("\"vx\":0,\"vy\":0"))
    }

    /// A session that starts with a tap: every touch gets its line (the tap's velocity is
    /// null, not the log's), and `--gesture` picks one or names how many there are.
    @Test func velocityReportsEveryTouchAndGesturePicksOne() throws {
        let dir = try Self.folder()
        let log = try Self.write(
            "t_ms,x,y,phase\n0,0,0,down\n5,1,0,up\n100,0,0,down\n110,5,0,move\n120,10,0,move\n120,10,0,up\n", "\(dir)/s.csv")
        let all = try BinaryTests.run(["velocity", log])
        let lines = all.stdout.split(separator: "\n")
        #expect(all.status == 0 && lines.count == 2)
        #expect(lines[0].contains("\"gesture\":1") && lines[0].contains("\"vx\":null"))
        #expect(lines[1].contains("\"gesture\":2") && lines[1].contains("\"start_s\":0.1"))
        let second = try BinaryTests.run(["velocity", "--gesture", "2", log])
        #expect(second.stdout == String(lines[1]) + "\n")
        let beyond = try BinaryTests.run(["velocity", "--gesture", "3", log])
        #expect(beyond.status == 1 && beyond.stderr.contains("the log has 2 touches"))
        let empty = try Self.write("t_ms,x,y,phase\n", "\(dir)/e.csv")
        #expect(try BinaryTests.run(["velocity", empty]).status == 1)
    }
}

/// `inspect` on folders, with the exact scale.
struct InspectCommandTests {
    @Test func aFolderIsEveryTraceUnderItAndTheScaleIsExact() throws {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["synth", "-o", dir + "/a", "--count", "2", "--seed", "3", "--scale", "2.625"]).status == 0)
        #expect(try BinaryTests.run(["synth", "-o", dir + "/a/b", "--count", "1", "--seed", "4"]).status == 0)
        let result = try BinaryTests.run(["inspect", dir + "/a"])
        let lines = result.stdout.split(separator: "\n")
        #expect(result.status == 0 && lines.count == 3)
        #expect(lines.filter { $0.contains("@2.625x") }.count == 2)
        #expect(lines.filter { $0.contains("@3x") }.count == 1)
        let empty = try BinaryTests.temporaryFolder()
        let none = try BinaryTests.run(["inspect", empty])
        #expect(none.status == 1 && none.stderr.contains("no trace files"))
    }
}
