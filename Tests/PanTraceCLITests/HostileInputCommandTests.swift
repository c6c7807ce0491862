import Foundation
import Testing

/// Every command that reads traces, tried as an unlucky user would: on a `.jsonl` or `.csv`
/// trace with one hostile time, each gives one error naming the file, line and field, and
/// never a trap. Every output flag refuses to replace a file unless asked, and a failure
/// prints no success line.
struct HostileInputCommandTests {
    /// A small labelled trace in `format`, with the time of sample 3 (0-based) replaced by `time`.
    /// Returns the file and the 1-based line of that sample.
    static func hostileTrace(_ format: String, time: String, in dir: String) throws -> (path: String, line: Int) {
        let source = "\(dir)/source-\(format)"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        #expect(try BinaryTests.run(["synth", "-o", source, "--count", "1", "--seed", "9", "--kind", "swipe-down", "--format", format]).status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: source).first)
        var lines = try String(contentsOfFile: "\(source)/\(name)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let first = try #require(lines.firstIndex { format == "jsonl" ? $0.contains("\"phase\":\"began\"") : $0.contains(",began,") })
        let target = first + 3
        if format == "jsonl" {
            let range = try #require(lines[target].range(of: #""t":[^,}]*"#, options: .regularExpression))
            lines[target].replaceSubrange(range, with: "\"t\":\(time)")
        } else {
            let comma = try #require(lines[target].firstIndex(of: ","))
            lines[target].replaceSubrange(..<comma, with: time)
        }
        let path = "\(dir)/hostile-\(time.filter(\.isLetter).isEmpty ? time : "x").\(format)"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (path, target + 1)
    }

    /// The three times of the report, and one going backwards.
    static let times = ["1e308", "9.3e12", "-9223372036854775808", "0.000001"]

    @Test(arguments: ["jsonl", "csv"], times)
    func everyCommandRefusesAHostileTimeWithOneErrorNamingLineAndField(format: String, time: String) throws {
        let dir = try BinaryTests.temporaryFolder()
        let (file, line) = try Self.hostileTrace(format, time: time, in: dir)
        let runs: [(arguments: [String], status: Int32)] = [
            (["inspect", file], 1), (["inspect", "--json", file], 1),
            (["replay", file, "--preset", "swipe-dismiss"], 1), (["replay", file, "--preset", "swipe-dismiss", "--format", "summary"], 1),
            (["convert", file, "\(dir)/out.pantrace"], 1), (["convert", file, "\(dir)/out.csv"], 1),
            (["convert", file, "\(dir)/out.trace.json", "--preset", "swipe-dismiss"], 1),
            (["tune", file, "--preset", "swipe-dismiss", "--grid", "threshold=0.4,0.5"], 1)
        ]
        for run in runs {
            let result = try BinaryTests.run(run.arguments)
            let command = run.arguments.joined(separator: " ")
            #expect(!result.stderr.contains("Fatal error") && result.status < 128, "\(command) trapped: \(result.stderr.prefix(300))")
            // tune reports each unreadable file and goes on; with none left it fails.
            if run.arguments[0] == "tune" {
                #expect(result.status != 0 && result.stderr.contains("\(file): line \(line) field t:"), "\(command): \(result.stderr)")
            } else {
                #expect(result.status == run.status, "\(command): \(result.stderr)")
                #expect(result.stderr.hasPrefix("error: \(file): line \(line) field t: "), "\(command): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(command) printed: \(result.stdout)")
            }
        }
        // Nothing was written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("out") }.isEmpty)
    }

    // MARK: - Output files

    static func recordings(in dir: String) throws -> String {
        let folder = "\(dir)/gestures"
        #expect(try BinaryTests.run(["synth", "-o", folder, "--count", "6", "--seed", "3", "--kind", "swipe-down"]).status == 0)
        return folder
    }

    @Test(arguments: ["--csv", "--svg", "--save-setting"])
    func tuneRefusesToReplaceAReportFileUnlessForcedAndSaysSoBeforeTheSweep(flag: String) throws {
        let dir = try BinaryTests.temporaryFolder()
        let gestures = try Self.recordings(in: dir)
        let report = "\(dir)/report.out"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: report))
        let tune = ["tune", gestures, "--preset", "swipe-dismiss", "--grid", "threshold=0.4,0.5", flag, report]
        let refused = try BinaryTests.run(tune)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: \(flag) \(report): the file exists; add --force to replace it\n")
        #expect(refused.stdout.isEmpty)  // no report: the sweep never ran
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "keep me\n")
        let forced = try BinaryTests.run(tune + ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: report, encoding: .utf8) != "keep me\n")
        // A new name is written without --force.
        #expect(
            try BinaryTests.run(["tune", gestures, "--preset", "swipe-dismiss", "--grid", "threshold=0.4,0.5", flag, "\(dir)/new.out"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: "\(dir)/new.out"))
    }

    @Test func forceIsSaidInTuneHelpAndNeedsAFile() throws {
        let help = try BinaryTests.run(["tune", "--help"])
        #expect(help.stdout.contains("--force"))
        let alone = try BinaryTests.run(["tune", "x", "--preset", "zoom", "--force"])
        #expect(alone.status == 64 && alone.stderr.contains("--force only applies with --csv, --svg, --save-setting or --partial"))
    }

    /// The commands that write recordings never replace one, and have no --force.
    @Test func synthRecordAndConvertNeverReplaceAFile() throws {
        let dir = try BinaryTests.temporaryFolder()
        let gestures = try Self.recordings(in: dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: gestures).sorted()
        let first = "\(gestures)/\(names[0])"
        let before = FileManager.default.contents(atPath: first)
        let synth = try BinaryTests.run(["synth", "-o", gestures, "--count", "6", "--seed", "3", "--kind", "swipe-down"])
        #expect(synth.status == 1 && synth.stderr.contains("already exists") && synth.stdout.isEmpty)
        for output in ["\(gestures)/\(names[1])", "\(dir)/taken.trace.json"] {
            if !FileManager.default.fileExists(atPath: output) { try Data("x".utf8).write(to: URL(fileURLWithPath: output)) }
            let kept = FileManager.default.contents(atPath: output)
            var convert = ["convert", first, output]
            if output.hasSuffix(".trace.json") { convert += ["--preset", "swipe-dismiss"] }
            let result = try BinaryTests.run(convert)
            #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.hasPrefix("error: "), "\(result.stderr)")
            #expect(FileManager.default.contents(atPath: output) == kept)
        }
        #expect(FileManager.default.contents(atPath: first) == before)
        for command in ["synth", "record", "convert"] {
            #expect(try !BinaryTests.run([command, "--help"]).stdout.contains("--force"))
        }
    }

    // MARK: - One story

    /// A hard error before the first gesture: an error line, exit 1, nothing on standard output.
    @Test(arguments: [
        "t_ms,x,y,phase\n0,5,100,down\n8,20,100,hover\n",  // a bad line
        "t_ms,x,y,phase\n0,5,100,down\n8,20,1e999,move\n",  // a value that is not finite
        "not a header\n"
    ])
    func recordFailingBeforeAnyGesturePrintsNoSuccessLine(log: String) throws {
        let dir = try BinaryTests.temporaryFolder()
        try Data(log.utf8).write(to: URL(fileURLWithPath: "\(dir)/log.csv"))
        let result = try BinaryTests.run(["record", "--from", "\(dir)/log.csv", "-o", "\(dir)/out"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func recordIntoAnExistingRecordingPrintsNoSuccessLine() throws {
        let dir = try BinaryTests.temporaryFolder()
        let log = "\(dir)/s.csv"
        try Data("t_ms,x,y,phase\n0,5,100,down\n8,20,100,move\n16,40,101,move\n24,60,102,up\n".utf8).write(to: URL(fileURLWithPath: log))
        #expect(try BinaryTests.run(["record", "--from", log, "-o", "\(dir)/out"]).stdout.contains("1 gesture recorded"))
        let again = try BinaryTests.run(["record", "--from", log, "-o", "\(dir)/out"])
        #expect(again.status == 1 && again.stderr.contains("already exists"))
        #expect(!again.stdout.contains("recorded"), "\(again.stdout)")
    }

    // MARK: - Generated code

    /// A path with a newline, a lone CR, U+2028 and a bidi override, and a `--csv` name that
    /// carries a `max(_:_:)`: the Swift printed has exactly the code lines of a plain run.
    @Test func tuneEmitKeepsHostilePathsInsideItsComments() throws {
        let dir = try BinaryTests.temporaryFolder()
        let gestures = try Self.recordings(in: dir)
        let hostile = "\(dir)/a\nfunc max(_ a: Double, _ b: Double) -> Double { a }\r//\u{2028}\u{202E}x"
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: gestures) {
            try FileManager.default.copyItem(atPath: "\(gestures)/\(name)", toPath: "\(hostile)/\(name)")
        }
        func code(_ folder: String, csv: String) throws -> [Substring] {
            let result = try BinaryTests.run([
                "tune", folder, "--preset", "swipe-dismiss", "--grid", "threshold=0.4,0.5", "--emit", "swift", "--csv", csv
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.unicodeScalars.contains { [0x0D, 0x2028, 0x202E].contains($0.value) })
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("//") }
        }
        let plain = try code(gestures, csv: "\(dir)/plain.csv")
        let injected = try code(hostile, csv: "\(dir)/b\nfunc max(_ a: Double, _ b: Double) -> Double { a }\nenum Injected {}\r.csv")
        #expect(injected == plain)
        #expect(!injected.contains { $0.contains("func max") })
    }

    /// A file named with ESC, BEL, CR and a bidi override is listed by `inspect` and the
    /// `tune` report with each escaped (`\x1b`, `\x07`, `\x0d`, `\u{202e}`), as standard
    /// error does: nothing from a file can act on the terminal or forge a line.
    @Test func namesFromFilesAreEscapedOnStandardOutput() throws {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["synth", "-o", dir, "--count", "3", "--seed", "4", "--kind", "swipe-down"]).status == 0)
        // The gesture the grid's one point misjudges (seed 4), so the report lists it.
        let first = "synth-4-00001.pantrace"
        let hostile = "\(dir)/red\u{1b}[31m\u{07}\r\u{202e}gnp.pantrace"
        try FileManager.default.moveItem(atPath: "\(dir)/\(first)", toPath: hostile)
        let inspected = try BinaryTests.run(["inspect", hostile])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("red\\x1b[31m\\x07\\x0d\\u{202e}gnp.pantrace: "), "\(inspected.stdout)")
        let tuned = try BinaryTests.run(["tune", dir, "--preset", "swipe-dismiss", "--grid", "threshold=0.99", "--all"])
        #expect(tuned.status == 0, "\(tuned.stderr)")
        for output in [inspected.stdout, tuned.stdout] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D || $0.value == 0x202E })
        }
        #expect(tuned.stdout.contains("red\\x1b[31m"), "\(tuned.stdout)")
    }
}
