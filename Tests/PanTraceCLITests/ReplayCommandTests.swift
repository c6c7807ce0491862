import ArgumentParser
import Foundation
import Testing
@testable import PanTraceCLI

/// `pantrace replay`, `tune` and `presets`: parsing, and the built binary on synthetic gestures.
struct ReplayCommandTests {
    static func swipes(count: Int = 12, seed: Int = 3) throws -> String {
        let dir = try BinaryTests.temporaryFolder()
        let result = try BinaryTests.run(["synth", "-o", dir, "--count", "\(count)", "--seed", "\(seed)", "--kind", "swipe-down"])
        #expect(result.status == 0)
        return dir
    }

    static func firstFile(in dir: String) throws -> String {
        "\(dir)/\(try FileManager.default.contentsOfDirectory(atPath: dir).sorted()[0])"
    }

    @Test func replayParsesItsOptions() throws {
        let command = try #require(
            try PanTraceCommand.parseAsRoot([
                "replay", "a.pantrace", "--preset", "best", "--set", "threshold=0.4", "--set", "velocity=lsq2",
                "--fps", "120", "--screen", "400x800", "--realtime", "--speed", "2", "--format", "summary"
            ]) as? ReplayCommand)
        #expect(command.assignments == ["threshold=0.4", "velocity=lsq2"])
        #expect(command.fps == 120)
        #expect(command.realtime && command.speed == 2)
        #expect(command.format == .summary)
    }

    @Test(arguments: [
        ["replay", "a.pantrace", "--preset", "zoom", "--fps", "90"],
        ["replay", "a.pantrace", "--preset", "zoom", "--speed", "2"],
        ["replay", "a.pantrace", "--preset", "zoom", "--realtime", "--speed", "0"],
        ["replay", "a.pantrace", "--preset", "zoom", "--format", "xml"],
        ["replay", "a.pantrace"],
        ["tune", "recordings", "--preset", "zoom", "--threads", "0"]
    ])
    func badArgumentsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(arguments) }
    }

    @Test func tuneParsesRepeatedGrids() throws {
        let command = try #require(
            try PanTraceCommand.parseAsRoot([
                "tune", "a", "b", "--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.05", "--grid", "velocity=recorded,lsq2",
                "--json", "--csv", "out.csv", "--svg", "out.svg", "--yes"
            ]) as? TuneCommand)
        #expect(command.paths == ["a", "b"])
        #expect(command.grids.count == 2)
        #expect(command.json && command.yes)
    }

    @Test func replayIsByteIdenticalAndEndsWithASummary() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let first = try BinaryTests.run(["replay", file, "--preset", "swipe-dismiss", "--fps", "120"])
        let second = try BinaryTests.run(["replay", file, "--preset", "swipe-dismiss", "--fps", "120"])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(summary["type"] as? String == "summary")
        for key in ["decision", "reason", "margin", "release_s", "completion_s", "overshoot", "discontinuity_pt_s", "flip_prone"] {
            #expect(summary[key] != nil, "missing \(key)")
        }
        #expect(summary["frames"] as? Int == lines.count - 1)
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(frame["layers"] != nil && frame["progress"] != nil)
    }

    @Test func summaryFormatPrintsOneLine() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let result = try BinaryTests.run(["replay", file, "--preset", "best", "--set", "velocity=impulse", "--format", "summary"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.contains("\"velocity\":\"impulse\""))
    }

    @Test func realtimeReportsItsPacing() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let result = try BinaryTests.run(["replay", file, "--preset", "swipe-dismiss", "--realtime", "--speed", "8", "--format", "summary"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"pacing\":{"))
        #expect(result.stdout.contains("max_error_ms"))
    }

    @Test func anUnknownParameterListsTheValidKeysOnOneLine() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let result = try BinaryTests.run(["replay", file, "--preset", "swipe-dismiss", "--set", "treshold=0.3"])
        #expect(result.status != 0)
        #expect(
            result.stderr.hasPrefix(
                "error: preset 'swipe-dismiss': unknown parameter 'treshold'; valid keys: direction, travel, travelUnit, threshold"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anUnknownPresetListsTheValidPresets() throws {
        let dir = try Self.swipes(count: 2)
        let result = try BinaryTests.run(["tune", dir, "--preset", "swipe", "--grid", "threshold=0.5"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("valid presets: zoom"))
    }

    @Test func tuneFindsAPointAndWritesJSONCSVAndSVG() throws {
        let dir = try Self.swipes(count: 24)
        let out = try BinaryTests.temporaryFolder()
        let result = try BinaryTests.run([
            "tune", dir, "--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.05", "--json", "--csv", "\(out)/t.csv", "--svg", "\(out)/t.svg"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in ["best", "defaults", "grid", "traces", "excluded", "misjudged"] { #expect(report[key] != nil, "missing \(key)") }
        let grid = try #require(report["grid"] as? [String: Any])
        #expect(grid["points"] as? Int == 13)
        let csv = try String(contentsOfFile: "\(out)/t.csv", encoding: .utf8)
        #expect(csv.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 14)
        #expect(csv.contains("\n# note: accuracy "))
        #expect(try String(contentsOfFile: "\(out)/t.svg", encoding: .utf8).hasPrefix("<svg"))
    }

    @Test func anUnreadableFileIsReportedAndSkippedWithANonZeroExit() throws {
        let dir = try Self.swipes(count: 8)
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: "\(dir)/zz-broken.pantrace"))
        let result = try BinaryTests.run(["tune", dir, "--preset", "swipe-dismiss", "--grid", "threshold=0.3:0.7:0.1"])
        #expect(result.status == TuneCommand.skippedStatus)
        #expect(result.stderr.contains("skipped: \(dir)/zz-broken.pantrace"))
        #expect(result.stdout.contains("8 traces"))
        #expect(result.stdout.contains("best:"))
    }

    @Test(arguments: [
        (["--grid", "threshold=0.2:0.8:0"], "the step is zero"),
        (["--grid", "threshold="], "empty grid"),
        ([], "empty grid"),
        (["--grid", "threshold=0:1:0.0001", "--grid", "duration=0.01:10:0.001"], "pass --yes")
    ])
    func badGridsAreRejectedWithTheReason(grid: [String], reason: String) throws {
        let dir = try Self.swipes(count: 2)
        let result = try BinaryTests.run(["tune", dir, "--preset", "swipe-dismiss"] + grid)
        #expect(result.status == 1)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test func presetsListsEveryPresetAndOnePresetsParameters() throws {
        let all = try BinaryTests.run(["presets"])
        #expect(all.status == 0)
        let lines = all.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // The eleven transition presets, a blank line, then the sheet libraries under a heading.
        #expect(lines.prefix(11).allSatisfy { !$0.isEmpty })
        #expect(lines[11].isEmpty && lines[12].hasPrefix("Sheets with detents"))
        #expect(lines.dropFirst(13).filter { !$0.isEmpty }.count == 9)
        let sheet = try BinaryTests.run(["presets", "floatingpanel", "--json"])
        let sheetObject = try #require(try JSONSerialization.jsonObject(with: Data(sheet.stdout.utf8)) as? [String: Any])
        #expect(sheetObject["velocity_gate"] as? String == "none")
        #expect((sheetObject["parameters"] as? [[String: Any]])?.contains { $0["key"] as? String == "redirectionalProgress" } == true)
        let one = try BinaryTests.run(["presets", "swipe-dismiss", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        let threshold = try #require(parameters.first { $0["key"] as? String == "threshold" })
        #expect(threshold["default"] as? Double == 0.5)
        #expect(parameters.contains { $0["key"] as? String == "velocity" })
        let unknown = try BinaryTests.run(["presets", "zoomy"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("valid presets"))
    }

    @Test func aSwipeDownUnderCircleRevealIsReportedThenDrivesItWithDirectionDown() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let off = try BinaryTests.run(["replay", file, "--preset", "circle-reveal", "--format", "summary"])
        #expect(off.status == 0)
        #expect(off.stderr.contains("does not drive circle-reveal (off_axis)"))
        #expect(off.stderr.contains("try --set direction=down"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any])
        #expect(summary["fit"] as? String == "off_axis")
        #expect((summary["fit_note"] as? String)?.contains("across") == true)
        #expect(summary["suggested_direction"] as? String == "down")
        // The frames output says so too, on standard error, and in its summary line.
        let frames = try BinaryTests.run(["replay", file, "--preset", "circle-reveal"])
        #expect(frames.stderr.contains("does not drive circle-reveal"))
        #expect(frames.stdout.split(separator: "\n").last?.contains("\"fit\":\"off_axis\"") == true)
        let down = try BinaryTests.run(["replay", file, "--preset", "circle-reveal", "--set", "direction=down", "--format", "summary"])
        #expect(down.status == 0 && !down.stderr.contains("does not drive"))
        let driven = try #require(try JSONSerialization.jsonObject(with: Data(down.stdout.utf8)) as? [String: Any])
        #expect(driven["fit"] as? String == "fits")
        #expect((driven["progress_at_release"] as? Double ?? 0) > 0.05)
    }

    @Test func anUnreachableThresholdAndABoundedCompletionAreReported() throws {
        let file = try Self.firstFile(in: try Self.swipes(count: 1))
        let result = try BinaryTests.run(["replay", file, "--preset", "swipe-dismiss", "--set", "threshold=1", "--format", "summary"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: finish is unreachable"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((summary["completion_s"] as? Double ?? 99) <= 10)
    }

    @Test func presetsSayWhichDragDrivesThem() throws {
        let text = try BinaryTests.run(["presets", "circle-reveal"])
        #expect(text.stdout.contains("driven by: drag left (−x) over W"))
        let json = try BinaryTests.run(["presets", "swipe-dismiss", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let drag = try #require(object["drag"] as? [String: Any])
        #expect(drag["direction"] as? String == "down" && drag["axis"] as? String == "y")
        #expect(drag["travel"] as? Double == 0.5 && drag["travel_unit"] as? String == "height")
    }
}
