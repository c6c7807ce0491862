import ArgumentParser
import Foundation
import Testing
@testable import PanTraceCLI

/// `pantrace convert … .trace.json --preset NAME`: the replay in the Perfetto export.
struct ConvertCommandTests {
    static let recording = ReplayTextTests.recording

    @Test func withAPresetTheTraceCarriesTheReplay() throws {
        let dir = try BinaryTests.temporaryFolder()
        let result = try BinaryTests.run(["convert", Self.recording, "\(dir)/g.trace.json", "--preset", "swipe-dismiss", "--fps", "120"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("replay frames under swipe-dismiss (finish)"))
        let text = try String(contentsOfFile: "\(dir)/g.trace.json", encoding: .utf8)
        #expect(text.contains("\"name\":\"release: finish\"") && text.contains("\"ph\":\"X\""))
        // Never over an existing file; nothing partial left behind.
        let again = try BinaryTests.run(["convert", Self.recording, "\(dir)/g.trace.json", "--preset", "swipe-dismiss"])
        #expect(again.status == 1 && again.stderr.hasPrefix("error: ") && again.stderr.contains("never overwrites"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["g.trace.json"])
    }

    @Test func withoutAPresetTheTraceSaysItHasTheSamplesOnly() throws {
        let dir = try BinaryTests.temporaryFolder()
        let result = try BinaryTests.run(["convert", Self.recording, "\(dir)/g.trace.json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("note: the trace carries the samples only; add --preset NAME"))
        #expect(!(try String(contentsOfFile: "\(dir)/g.trace.json", encoding: .utf8)).contains("release: "))
    }

    @Test(arguments: [
        ["convert", "a.pantrace", "b.jsonl", "--preset", "zoom"],
        ["convert", "a.pantrace", "b.trace.json", "--set", "threshold=0.4"],
        ["convert", "a.pantrace", "b.trace.json", "--preset", "zoom", "--fps", "90"]
    ])
    func replayOptionsOutsideAPerfettoExportAreArgumentErrors(arguments: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(arguments) }
    }
}
