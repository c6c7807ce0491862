import ArgumentParser
import Foundation
import Testing
@testable import PanTraceCLI

/// `pantrace replay` for people: a short summary on a terminal, JSON Lines in a pipe.
struct ReplayTextTests {
    static let recording = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/synthetic/swipe-down-60hz/synth-13-00000.pantrace").path

    @Test(
        arguments: [
            (nil, true, ReplayCommand.Format.text),
            (nil, false, .jsonl),
            (.jsonl, true, .jsonl),
            (.summary, true, .summary),
            (.text, false, .text)
        ] as [(ReplayCommand.Format?, Bool, ReplayCommand.Format)])
    func theDefaultFormatFollowsWhereStandardOutputGoes(asked: ReplayCommand.Format?, isTerminal: Bool, expected: ReplayCommand.Format) {
        #expect(ReplayCommand.resolved(asked, isTerminal: isTerminal) == expected)
    }

    @Test func textIsAShortRoundedSummaryAndJSONStaysExact() throws {
        let text = try BinaryTests.run(["replay", Self.recording, "--preset", "swipe-dismiss", "--format", "text"])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("synth-13-00000 under swipe-dismiss: D1 + T1a"))
        for row in ["decision       finish (meant finish: as meant)", "reason         progress 0.61 > 0.5 → finish", "margin         0.113 progress"]
        {
            #expect(text.stdout.contains(row), "\(row)")
        }
        #expect(text.stdout.contains("completion     1.500 s (T1a)") && text.stdout.contains("discontinuity  -30.5 pt/s"))
        #expect(!text.stdout.contains("{"))
        // Piped (as here) without --format: today's JSON Lines, exact numbers.
        let piped = try BinaryTests.run(["replay", Self.recording, "--preset", "swipe-dismiss"])
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.count == 127 && lines.allSatisfy { $0.hasPrefix("{") })
        #expect(piped.stdout.contains("\"margin\":0.11331753554502366"))
    }

    /// On a real terminal (a pseudo-terminal from util-linux `script`), the default is text.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no /usr/bin/script to make a terminal"))
    func onATerminalTheDefaultIsText() throws {
        let command = "'\(BinaryTests.binary.path)' replay '\(Self.recording)' --preset swipe-dismiss"
        let result = try BinaryTests.runExecutable("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("decision       finish"))
        #expect(!result.stdout.contains("\"type\":\"summary\""))
        let forced = try BinaryTests.runExecutable("/usr/bin/script", ["-qec", command + " --format jsonl", "/dev/null"])
        #expect(forced.stdout.contains("\"type\":\"summary\"") && forced.stdout.contains("\"rendered_progress\""))
    }

    @Test func aValueThatRoundsToZeroPrintsWithoutASign() {
        #expect(ReplaySummaryText.fixed(-5.7e-14, 1) == "0.0")
        #expect(ReplaySummaryText.fixed(-0.04, 1) == "0.0")
        #expect(ReplaySummaryText.fixed(-0.05001, 1) == "-0.1")
        #expect(ReplaySummaryText.fixed(-30.5, 1) == "-30.5")
        #expect(ReplaySummaryText.fixed(0, 3) == "0.000")
    }
}
