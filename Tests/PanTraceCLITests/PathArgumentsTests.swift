import ArgumentParser
import Foundation
import Testing
@testable import PanTraceCLI

/// The paths of `inspect` and `tune` are picked out around swift-argument-parser (which is
/// quadratic in them): the result must be the parser's own, repeats and order kept.
struct PathArgumentsTests {
    static let lines: [[String]] = [
        ["inspect", "a.pantrace"],
        ["inspect", "a.pantrace", "b.jsonl", "a.pantrace", "--json"],
        ["inspect", "--json", "a", "--strict", "b", "--max-files", "7", "c"],
        ["inspect", "--max-files=3", "a", "-", "b"],
        ["inspect", "a", "--", "--json", "-x.pantrace"],
        ["tune", "x", "--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.1", "y", "x"],
        [
            "tune", "--preset", "best", "--grid", "threshold=0.1,0.2", "--grid", "velocity=lsq2,recorded", "--csv", "c.csv", "--svg", "s.svg",
            "--force", "--fps", "240", "--screen", "390x844", "--threads", "2", "--max-files", "5", "--all", "--yes", "--strict", "--salvage",
            "p1", "p2", "p1"
        ],
        ["tune", "p", "--preset", "swipe-dismiss", "--grid", "threshold=0.5", "--emit", "swift", "q"]
    ]

    @Test(arguments: lines)
    func pathsAreTheParsersOwn(line: [String]) throws {
        let direct = try PanTraceCommand.parseAsRoot(line)
        let around = try PathArguments.parse(line)
        let expected = try #require(direct as? any PathListCommand).paths
        #expect(try #require(around as? any PathListCommand).paths == expected)
        // The options too: the same command, but for the paths.
        #expect(String(describing: type(of: around)) == String(describing: type(of: direct)))
        if let a = around as? TuneCommand, let d = direct as? TuneCommand {
            #expect(a.preset == d.preset && a.grids == d.grids && a.csv == d.csv && a.fps == d.fps && a.folders.maxFiles == d.folders.maxFiles)
        }
        if let a = around as? InspectCommand, let d = direct as? InspectCommand {
            #expect(a.json == d.json && a.read.strict == d.read.strict && a.folders.maxFiles == d.folders.maxFiles)
        }
    }

    /// A path named twice is read twice, as before: nothing is deduplicated.
    @Test func repeatsAreKept() throws {
        let command = try #require(try PathArguments.parse(["inspect", "a", "b", "a", "a"]) as? InspectCommand)
        #expect(command.files == ["a", "b", "a", "a"])
    }

    /// 10,000 paths come through in order (what the parser alone took seconds for).
    @Test func manyPathsComeThroughInOrder() throws {
        let paths = (0..<10_000).map { "f\($0).pantrace" }
        let line = ["tune"] + paths + ["--preset", "swipe-dismiss", "--grid", "threshold=0.5"]
        let command = try #require(try PathArguments.parse(line) as? TuneCommand)
        #expect(command.paths == paths)
    }

    /// Argument errors stay the parser's (exit 64 and its message), paths or not.
    @Test(arguments: [
        ["inspect", "a", "--max-files"], ["inspect", "a", "--bogus"], ["inspect", "a", "--max-files", "0"], ["inspect"],
        ["tune", "a", "--grid", "threshold=0.5"], ["tune", "a", "--preset", "swipe-dismiss", "--grid", "threshold=0.5", "--fps", "90"]
    ])
    func argumentErrorsStayTheParsers(line: [String]) {
        #expect(throws: (any Error).self) { try PathArguments.parse(line) }
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(line) }
    }

    /// Every option of `inspect` and `tune` that takes a value is known, so its value is never
    /// taken for a path (a new option that takes a value must be added).
    @Test func everyOptionTakingAValueIsKnown() throws {
        for (name, type) in PathArguments.commands {
            let help = type.helpMessage(columns: 10_000)
            let regex = try NSRegularExpression(pattern: "(--[a-z][a-z-]*)(?:, -[a-z])? <")
            let range = NSRange(help.startIndex..., in: help)
            let named = Set(regex.matches(in: help, range: range).compactMap { Range($0.range(at: 1), in: help).map { String(help[$0]) } })
            #expect(!named.isEmpty)
            #expect(named == type.optionsTakingValues, "\(name)")
        }
    }

    @Test func helpAndVersionStayTheParsers() throws {
        let help = try PathArguments.parse(["inspect", "a", "--help"])
        #expect(!(help is any PathListCommand))
        #expect(String(describing: type(of: help)) == String(describing: type(of: try PanTraceCommand.parseAsRoot(["inspect", "a", "--help"]))))
        #expect(throws: (any Error).self) { try PathArguments.parse(["--version"]) }
    }
}
