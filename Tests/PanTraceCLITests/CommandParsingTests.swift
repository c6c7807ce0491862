import ArgumentParser
import PanCapture
import Testing
@testable import PanTraceCLI

struct CommandParsingTests {
    @Test func synthParsesItsOptions() throws {
        let command = try #require(
            try PanTraceCommand.parseAsRoot([
                "synth", "-o", "out", "--count", "3", "--seed", "9", "--rate", "240", "--scenario", "quick-flick", "--kind", "swipe-down"
            ]) as? SynthCommand)
        #expect(command.count == 3)
        #expect(command.seed == 9)
        #expect(command.rate == 240)
        #expect(command.scenarios == [.quickFlick])
        #expect(command.kind == .swipeDown)
    }

    @Test(arguments: [
        ["synth", "-o", "x", "--rate", "90"], ["synth", "-o", "x", "--count", "-1"], ["synth", "-o", "x", "--scenario", "moonwalk"], ["synth"],
        ["synth", "-o", "x", "--screen", "10by20"], ["synth", "-o", "x", "--tremor", "nan"],
        ["synth", "-o", "x", "--screen", "0x844"], ["synth", "-o", "x", "--screen", "5e-324x5e-324"], ["synth", "-o", "x", "--screen", "390x1e308"],
        ["synth", "-o", "x", "--screen", "nanxnan"], ["synth", "-o", "x", "--scale", "0"], ["synth", "-o", "x", "--scale", "1e-300"],
        ["record", "--from", "x.csv", "-o", "y", "--screen", "-1x5"], ["record", "--from", "x.csv", "-o", "y", "--scale", "inf"],
        ["record", "--from", "x.csv", "-o", "y", "--intent", "maybe"], ["replay", "x.pantrace", "--preset", "zoom", "--screen", "0x0"]
    ])
    func badSynthArgumentsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(arguments) }
    }

    @Test func inspectTakesSeveralFilesAndReadOptions() throws {
        let command = try #require(try PanTraceCommand.parseAsRoot(["inspect", "a.pantrace", "b.jsonl", "--json", "--salvage"]) as? InspectCommand)
        #expect(command.files == ["a.pantrace", "b.jsonl"])
        #expect(command.json)
        #expect(command.read.salvage)
        #expect(!command.read.strict)
    }

    @Test func convertNeedsTwoPaths() {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(["convert", "only-one.pantrace"]) }
    }
}
