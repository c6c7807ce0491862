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

    /// A JSON Lines value finer than the grid is rounded in the `.pantrace`, and that is said;
    /// values on the grid convert without a word. `synth` writes the same gesture in every format.
    @Test func valuesFinerThanTheGridAreRoundedAndSaid() throws {
        let dir = try BinaryTests.temporaryFolder()
        for format in ["jsonl", "pantrace"] {
            let made = try BinaryTests.run([
                "synth", "-o", "\(dir)/\(format)", "--count", "1", "--seed", "1", "--kind", "swipe-down", "--format", format
            ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let jsonl = "\(dir)/jsonl/synth-1-00000.jsonl"
        let onGrid = try BinaryTests.run(["convert", jsonl, "\(dir)/on.pantrace"])
        #expect(onGrid.status == 0 && !onGrid.stderr.contains("warning"), "\(onGrid.stderr)")
        // The .pantrace synth wrote reads back as the very lines synth wrote as JSON Lines.
        let back = try BinaryTests.run(["convert", "\(dir)/pantrace/synth-1-00000.pantrace", "\(dir)/back.jsonl"])
        #expect(back.status == 0)
        #expect(try String(contentsOfFile: "\(dir)/back.jsonl", encoding: .utf8) == String(contentsOfFile: jsonl, encoding: .utf8))
        // One value made finer than the grid (steps of 1/100 pt): rounded, and named.
        var lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let second = try #require(lines[2].range(of: "\"tx\":"))
        let end = lines[2][second.upperBound...].firstIndex(of: ",")!
        let value = Double(lines[2][second.upperBound..<end])!
        lines[2].replaceSubrange(second.upperBound..<end, with: "\(value + 0.004)")
        try lines.joined(separator: "\n").write(toFile: "\(dir)/fine.jsonl", atomically: true, encoding: .utf8)
        let fine = try BinaryTests.run(["convert", "\(dir)/fine.jsonl", "\(dir)/fine.pantrace"])
        #expect(fine.status == 0)
        #expect(
            fine.stderr.contains("warning: \(dir)/fine.jsonl: 1 value(s) finer than the file's grid were rounded to it (first: sample 1 tx"),
            "\(fine.stderr)")
    }
}
