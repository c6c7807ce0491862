import Foundation
import PanCapture
import TestSupport
import Testing

/// `pantrace tune --partial` on shards and `pantrace tune merge` against `pantrace tune` on the
/// whole corpus, through the built binary, on seeded random corpora, grids and cuts.
struct TuneMergeCommandTests {
    /// A synthetic corpus in `folder/corpus`, its files in sorted order.
    static func corpus(in folder: TemporaryFolder, count: Int, seed: UInt64, kind: String) throws -> [String] {
        let path = folder.appending("corpus")
        let made = try BinaryTests.run(["synth", "-o", path, "--count", "\(count)", "--seed", "\(seed)", "--kind", kind])
        #expect(made.status == 0, "\(made.stderr)")
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
    }

    /// Cuts `files` into `shards` runs at random boundaries, none empty.
    static func cut(_ files: [String], into shards: Int, using generator: inout SeededGenerator) -> [[String]] {
        var boundaries: Set<Int> = []
        while boundaries.count < shards - 1 { boundaries.insert(1 + Int(generator.next() % UInt64(files.count - 1))) }
        let edges = [0] + boundaries.sorted() + [files.count]
        return (0..<shards).map { Array(files[edges[$0]..<edges[$0 + 1]]) }
    }

    /// Writes each shard's partial; returns their paths.
    /// `text` (a partial) with its `"grid":[…]` replaced by `grid`.
    static func replacingGrid(in text: String, with grid: String) -> String {
        guard let start = text.range(of: "\"grid\":[") else { return text }
        var depth = 0
        var index = text.index(before: start.upperBound)
        while index < text.endIndex {
            if text[index] == "[" { depth += 1 }
            if text[index] == "]" {
                depth -= 1
                if depth == 0 { break }
            }
            index = text.index(after: index)
        }
        return text.replacingCharacters(in: start.lowerBound...index, with: grid)
    }

    static func partials(_ shards: [[String]], options: [String], in folder: TemporaryFolder, status: (Int) -> Int32 = { _ in 0 }) throws
        -> [String]
    {
        try shards.enumerated().map { index, files in
            let path = folder.appending("shard-\(index).json")
            let made = try BinaryTests.run(["tune"] + files + options + ["--partial", path])
            #expect(made.status == status(index), "\(made.stderr)")
            #expect(made.stdout.isEmpty)
            return path
        }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func mergedShardsGiveTheWholeReportByteForByteInAnyOrder(trial: UInt64) throws {
        var generator = SeededGenerator(seed: trial)
        let folder = try TemporaryFolder("pantrace-merge")
        let isEdge = generator.next() % 2 == 0
        var files = try Self.corpus(
            in: folder, count: 12 + Int(generator.next() % 30), seed: trial, kind: isEdge ? "edge-back" : "swipe-down")
        // A damaged file in the middle: skipped and named by the whole run and by the merge alike.
        let damaged = folder.appending("corpus/damaged.pantrace")
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: damaged))
        // Gestures along the other axis: left out as not driving the preset, listed in both reports.
        let across = folder.appending("across")
        let made = try BinaryTests.run(["synth", "-o", across, "--count", "4", "--seed", "\(trial)", "--kind", isEdge ? "swipe-down" : "edge-back"])
        #expect(made.status == 0, "\(made.stderr)")
        files += try FileManager.default.contentsOfDirectory(atPath: across).map { across + "/" + $0 }
        files = (files + [damaged]).sorted()
        let from = 0.05 * Double(1 + generator.next() % 6)
        let step = 0.01 * Double(1 + generator.next() % 10)
        var options = ["--preset", isEdge ? "zoom" : "swipe-dismiss"]
        switch generator.next() % 3 {
        case 0: options += ["--grid", "threshold=\(from):0.9:\(step)"]
        case 1: options += ["--grid", "threshold=\(from):0.9:\(step)", "--grid", "velocity=recorded,lsq2"]
        default: options += ["--grid", "velocity=recorded,lsq2,impulse"]  // no threshold axis: the per-decision path
        }
        let shards = Self.cut(files, into: 2 + Int(generator.next() % 3), using: &generator)
        let holding = shards.firstIndex { $0.contains(damaged) }!

        let whole = try BinaryTests.run(["tune"] + files + options + ["--json", "--csv", folder.appending("whole.csv")])
        #expect(whole.status == 3, "\(whole.stderr)")
        let paths = try Self.partials(shards, options: options, in: folder) { $0 == holding ? 3 : 0 }
        var shuffled = paths
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
        for (order, listed) in [paths, shuffled, paths.reversed()].enumerated() {
            let csv = folder.appending("merged-\(order).csv")
            let merged = try BinaryTests.run(["tune", "merge"] + listed + ["--json", "--csv", csv])
            #expect(merged.status == 3, "\(merged.stderr)")
            #expect(merged.stdout == whole.stdout, "order \(listed)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == Data(contentsOf: URL(fileURLWithPath: folder.appending("whole.csv"))))
            #expect(merged.stderr.contains("skipped: \(damaged)"), "\(merged.stderr)")
        }
        let text = try BinaryTests.run(["tune"] + files + options + ["--all"])
        let mergedText = try BinaryTests.run(["tune", "merge"] + shuffled + ["--all"])
        #expect(mergedText.stdout == text.stdout && mergedText.status == 3)
        #expect(whole.stdout.contains("\"cv_accuracy\" : {"), "cross-validation is part of what is compared")
        #expect(whole.stdout.contains("\"not_fitting\""), "the left-out gestures are part of what is compared")
    }

    /// The refusals: partials of other sweeps, and damaged partial files, each one line naming
    /// the difference or the file and field, exit 1, nothing on standard output.
    @Test
    func partialsOfDifferentSweepsAndDamagedFilesAreRefusedInOneLine() throws {
        let folder = try TemporaryFolder("pantrace-merge-refuse")
        let files = try Self.corpus(in: folder, count: 12, seed: 5, kind: "swipe-down")
        let options = ["--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.1"]
        let paths = try Self.partials([Array(files[..<6]), Array(files[6...])], options: options, in: folder)
        func refused(_ arguments: [String], _ expected: String) throws {
            let result = try BinaryTests.run(["tune", "merge"] + arguments)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: \(expected)\n", "\(result.stderr)")
        }
        // Both sides: the same sweep merges; each option changed alone is named.
        #expect(try BinaryTests.run(["tune", "merge"] + paths + ["--json"]).status == 0)
        let variants: [(String, [String], String)] = [
            (
                "grid", ["--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.2"],
                "grid axis threshold 0.2,0.4,0.6,0.8, \(paths[0]) has 7 values 0.2…0.8"
            ),
            ("axes", options + ["--grid", "velocity=recorded,lsq2"], "grid axes threshold,velocity, \(paths[0]) has threshold"),
            ("preset", ["--preset", "semi-modal", "--grid", "threshold=0.2:0.8:0.1"], "preset semi-modal, \(paths[0]) has swipe-dismiss"),
            ("fps", options + ["--fps", "120"], "fps 120.0, \(paths[0]) has 60.0"),
            ("screen", options + ["--screen", "400x800"], "screen 400.0x800.0, \(paths[0]) has (each trace's own)")
        ]
        for (name, changed, difference) in variants {
            let other = folder.appending("other-\(name).json")
            let made = try BinaryTests.run(["tune"] + files[6...] + changed + ["--partial", other])
            #expect(made.status == 0, "\(made.stderr)")
            try refused([paths[0], other], "cannot merge: \(other) has \(difference): partials of different sweeps")
        }

        // A partial with no tuned trace (no swipe down drives semi-modal) is valid; alone it has nothing to tune.
        let empty = try BinaryTests.run(["tune", "merge", folder.appending("other-preset.json")])
        #expect(empty.status == 1 && empty.stderr.hasPrefix("error: nothing to tune: "), "\(empty.stderr)")

        let text = try String(contentsOfFile: paths[1], encoding: .utf8)
        func damaged(_ name: String, _ content: String) throws -> String {
            let path = folder.appending(name)
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let truncated = try damaged("truncated.json", String(text.prefix(text.count / 2)))
        try refused([paths[0], truncated], "\(truncated): field (top level): not valid JSON (truncated or damaged)")
        let noVersion = try damaged("version.json", text.replacingOccurrences(of: "\"version\":1", with: "\"version\":2"))
        try refused([paths[0], noVersion], "\(noVersion): field version: is 2; this build reads 1")
        let hash = try #require(text.range(of: "\"fold_hash\":\""))
        let badHash = try damaged("hash.json", text.replacingCharacters(in: hash.upperBound..<text.index(hash.upperBound, offsetBy: 3), with: "xyz"))
        try refused([paths[0], badHash], "\(badHash): field gestures[0].fold_hash: must be 16 hex digits")
        let missing = try damaged("missing.json", text.replacingOccurrences(of: "\"unknown_intent\":0,", with: ""))
        try refused([paths[0], missing], "\(missing): field unknown_intent: is missing")
        let release = try #require(text.range(of: "\"releases\":[\""))
        let badRelease = try damaged(
            "release.json", text.replacingCharacters(in: release.upperBound..<text.index(release.upperBound, offsetBy: 1), with: "g"))
        try refused(
            [paths[0], badRelease],
            "\(badRelease): field gestures[0].releases[0]: is not 10 hex finite doubles (distance positive), a phase and 0 or 1")
        // A NaN progress, which no replay writes, is refused like any damaged state.
        let nan = try damaged(
            "nan.json", text.replacingCharacters(in: release.upperBound..<text.index(release.upperBound, offsetBy: 16), with: "7ff8000000000000"))
        try refused(
            [paths[0], nan], "\(nan): field gestures[0].releases[0]: is not 10 hex finite doubles (distance positive), a phase and 0 or 1")
        // Counts: up to 2⁴⁰ is read (and two such add without overflow), past it refused.
        let most = try damaged("most.json", text.replacingOccurrences(of: "\"unknown_intent\":0,", with: "\"unknown_intent\":1099511627776,"))
        let most2 = try damaged("most2.json", text.replacingOccurrences(of: "\"unknown_intent\":0,", with: "\"unknown_intent\":1099511627776,"))
        let counted = try BinaryTests.run(["tune", "merge", most, most2, "--json"])
        #expect(counted.status == 0 && counted.stdout.contains("\"unknown_intent\" : 2199023255552"), "\(counted.stderr)")
        let huge = try damaged("huge.json", text.replacingOccurrences(of: "\"unknown_intent\":0,", with: "\"unknown_intent\":4611686018427387904,"))
        try refused([paths[0], huge], "\(huge): field unknown_intent: is more than 1099511627776")
        // A partial's grid is bounded as tune's own: 3,163 × 3,163 points need --yes.
        let values = (0..<3163).map { "\(Double($0) / 4000)" }.joined(separator: ",")
        let axes = "\"grid\":[{\"key\":\"threshold\",\"values\":[\(values)]},{\"key\":\"completionSpeed\",\"values\":[\(values)]}]"
        let big = try damaged("big.json", Self.replacingGrid(in: text, with: axes))
        let large = try BinaryTests.run(["tune", "merge", big])
        #expect(large.status != 0 && large.stdout.isEmpty, "\(large.stderr)")
        #expect(large.stderr.contains("the grid has 10004569 points, more than 10000000; pass --yes to sweep it anyway"), "\(large.stderr)")
        let absent = folder.appending("absent.json")
        let result = try BinaryTests.run(["tune", "merge", paths[0], absent])
        #expect(result.status == 1 && result.stderr.hasPrefix("error: \(absent): cannot read:"), "\(result.stderr)")
    }

    /// `--partial` is a shard's share, not a report: the report's options are refused before any work.
    @Test
    func partialRefusesReportOptions() throws {
        let result = try BinaryTests.run(["tune", "x.pantrace", "--preset", "zoom", "--partial", "p.json", "--json"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--partial writes the shard's share"))
    }
    /// `tune merge --emit` prints `tune --emit`'s code for the whole corpus: byte for byte
    /// but for the two comment lines saying how it was made (the command, what was read).
    @Test(arguments: [UInt64(21), 22])
    func mergedEmitIsTheWholeRunsCode(trial: UInt64) throws {
        var generator = SeededGenerator(seed: trial)
        let folder = try TemporaryFolder("pantrace-merge-emit")
        let files = try Self.corpus(in: folder, count: 14 + Int(generator.next() % 10), seed: trial, kind: "swipe-down")
        let options = ["--preset", "swipe-dismiss", "--grid", "threshold=0.1:0.9:0.05", "--grid", "velocity=recorded"]
        let shards = Self.cut(files, into: 3, using: &generator)
        let paths = try Self.partials(shards, options: options, in: folder)
        let whole = try BinaryTests.run(["tune"] + files + options + ["--emit", "swift"])
        let merged = try BinaryTests.run(["tune", "merge"] + paths + ["--emit", "swift"])
        #expect(whole.status == 0 && merged.status == 0, "\(whole.stderr) \(merged.stderr)")
        func split(_ text: String) -> (made: [Substring], code: [Substring]) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let made = lines.filter { $0.hasPrefix("// Command: ") || $0.hasPrefix("// Tuned on: ") }
            return (made, lines.filter { !made.contains($0) })
        }
        let (wholeMade, wholeCode) = split(whole.stdout)
        let (mergedMade, mergedCode) = split(merged.stdout)
        #expect(mergedCode == wholeCode)
        #expect(wholeCode.contains { $0.contains("threshold") })
        #expect(wholeMade.count == 2 && mergedMade.count == 2)
        #expect(mergedMade.first?.hasPrefix("// Command: pantrace tune merge ") == true, "\(mergedMade)")
        #expect(mergedMade.last?.hasPrefix("// Tuned on: \(paths.joined(separator: ", ")) (") == true, "\(mergedMade)")
        // The counts after the names are the whole run's.
        #expect(mergedMade.last?.split(separator: " (").last == wholeMade.last?.split(separator: " (").last)
        #expect(merged.stderr == whole.stderr)

        // A grid no point of which the code can reproduce: refused by both, the same line, before the sweep.
        let lsq = ["--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.1", "--grid", "velocity=lsq2"]
        let lsqFolder = try TemporaryFolder("pantrace-merge-emit-lsq")
        let lsqPaths = try Self.partials([files], options: lsq, in: lsqFolder)
        let refusedWhole = try BinaryTests.run(["tune"] + files + lsq + ["--emit", "swift"])
        let refusedMerge = try BinaryTests.run(["tune", "merge"] + lsqPaths + ["--emit", "swift"])
        #expect(refusedWhole.status != 0 && refusedWhole.stdout.isEmpty)
        #expect(refusedMerge.status == refusedWhole.status && refusedMerge.stdout.isEmpty)
        #expect(
            refusedMerge.stderr == refusedWhole.stderr && refusedMerge.stderr.contains("velocity=recorded"),
            "\(refusedWhole.stderr) // \(refusedMerge.stderr)")
    }

    /// The report flags are one option group: merge takes --emit and refuses --emit with --json as tune does.
    @Test func mergeTakesTunesReportFlags() throws {
        for command in [["tune", "x.pantrace", "--preset", "zoom", "--grid", "threshold=0.2,0.4"], ["tune", "merge", "x.json"]] {
            let both = try BinaryTests.run(command + ["--emit", "swift", "--json"])
            #expect(both.status == 64 && both.stderr.contains("--emit and --json both print to standard output"), "\(command) \(both.stderr)")
            let same = try BinaryTests.run(command + ["--csv", "a", "--svg", "a"])
            #expect(same.status == 64 && same.stderr.contains("--csv and --svg name the same file"), "\(command) \(same.stderr)")
        }
    }
}
