import Foundation
import Testing

/// A setting travels (docs/TUNE.md, "A setting file"): the best point `tune --save-setting`
/// writes replays, emits and opens the viewer with the decisions `tune` reported for it; a
/// setting file that is not one is refused with one line naming it.
struct SettingFileTests {
    /// Twelve labelled synthetic swipes down, tuned on threshold and velocity; the best point
    /// saved.
    static func tuned() throws -> (folder: String, setting: String, report: [String: Any]) {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/set", "--count", "12", "--seed", "5", "--kind", "swipe-down"]).status == 0)
        let tune = try BinaryTests.run([
            "tune", "\(dir)/set", "--preset", "swipe-dismiss", "--grid", "threshold=0.2:0.8:0.1", "--grid", "velocity=lsq2,impulse",
            "--json", "--save-setting", "\(dir)/best.json"
        ])
        #expect(tune.status == 0, "\(tune.stderr)")
        #expect(tune.stderr.contains("setting: the best point (swipe-dismiss) written to \(dir)/best.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(tune.stdout.utf8)) as? [String: Any])
        return ("\(dir)/set", "\(dir)/best.json", report)
    }

    @Test func theSavedSettingIsTheBestPointInOneJSONForm() throws {
        let (_, setting, report) = try Self.tuned()
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setting))) as? [String: Any])
        #expect(saved["preset"] as? String == "swipe-dismiss")
        let parameters = try #require(saved["parameters"] as? [String: Any])
        let best = try #require((report["best"] as? [String: Any])?["values"] as? [String: Any])
        #expect(parameters["threshold"] as? Double == best["threshold"] as? Double)
        #expect(parameters["velocity"] as? String == best["velocity"] as? String)
        // Every parameter of the preset is written, not only the tuned ones.
        #expect(parameters.count > 2)
    }

    @Test func replayUnderTheSettingDecidesEachRecordingAsTuneReported() throws {
        let (folder, setting, report) = try Self.tuned()
        let misjudged = Set(
            ((report["misjudged"] as? [[String: Any]]) ?? []).compactMap {
                ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
            })
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pantrace") }.sorted()
        #expect(files.count == 12)
        var checked = 0
        for file in files {
            let replay = try BinaryTests.run(["replay", "\(folder)/\(file)", "--setting", setting, "--format", "summary"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
            guard let correct = summary["correct"] as? Bool else { continue }  // an unknown intent is not judged
            #expect(correct == !misjudged.contains(file), "\(file): tune and replay disagree")
            checked += 1
        }
        #expect(checked > 0)
        // --set still overrides the file; --preset with --setting is refused.
        let first = "\(folder)/\(files[0])"
        let velocity = try #require(((report["best"] as? [String: Any])?["values"] as? [String: Any])?["velocity"] as? String)
        let moved = try BinaryTests.run(["replay", first, "--setting", setting, "--set", "threshold=0.95", "--format", "summary"])
        let same = try BinaryTests.run([
            "replay", first, "--preset", "swipe-dismiss", "--set", "threshold=0.95", "--set", "velocity=\(velocity)", "--format", "summary"
        ])
        #expect(moved.status == 0 && moved.stdout == same.stdout)
        let both = try BinaryTests.run(["replay", first, "--setting", setting, "--preset", "best"])
        #expect(both.status != 0 && both.stderr.contains("give one of them"))
    }

    @Test func emitJudgesUnderTheSettingAndNamesItInASuite() throws {
        let (folder, setting, report) = try Self.tuned()
        let velocity = try #require(((report["best"] as? [String: Any])?["values"] as? [String: Any])?["velocity"] as? String)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pantrace") }.sorted()
        let file = "\(folder)/\(files[0])"
        let emitted = try BinaryTests.run(["emit", file, "--to", "webdriver-touch", "--setting", setting, "--json"])
        #expect(emitted.status == 0, "\(emitted.stderr)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(emitted.stdout.utf8)) as? [[String: Any]])
        let decisions = try #require(reports.first?["decisions"] as? [[String: Any]])
        #expect(Set(decisions.compactMap { $0["preset"] as? String }) == ["swipe-dismiss"], "only the setting's preset is judged")
        let replay = try BinaryTests.run(["replay", file, "--setting", setting, "--format", "summary"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        let row = try #require(decisions.first { $0["estimator"] as? String == velocity })
        #expect(row["original"] as? String == summary["decision"] as? String)
        let suite = try BinaryTests.run(["emit", folder, "--to", "webdriver-touch", "--suite", "--setting", setting])
        #expect(suite.status == 0, "\(suite.stderr)")
        let lines = suite.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 1 && lines[1].hasPrefix("# Unlabelled gestures assert what this setting decides: {\"parameters\":"))
        let both = try BinaryTests.run(["emit", file, "--to", "webdriver-touch", "--setting", setting, "--preset", "best"])
        #expect(both.status != 0 && both.stderr.contains("give one of them"))
    }

    @Test(arguments: [
        ("not json", "not a setting: "),
        (#"{"preset":"swipe-dismiss","parameters":{"threshold":7}}"#, "threshold"),
        (#"{"preset":"nonesuch","parameters":{}}"#, "nonesuch"),
        (#"{"preset":"swipe-dismiss","parameters":{"nope":1}}"#, "nope"),
        (#"{"preset":"swipe-dismiss","parameters":{"velocity":"guess"}}"#, "guess"),
        (#"{"parameters":{}}"#, "missing key \"preset\"")
    ])
    func aFileThatIsNotASettingIsRefusedNamingItAndWhy(text: String, words: String) throws {
        let dir = try BinaryTests.temporaryFolder()
        let path = "\(dir)/bad.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/one", "--count", "1", "--seed", "2"]).status == 0)
        let trace = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/one").first)
        let result = try BinaryTests.run(["replay", "\(dir)/one/\(trace)", "--setting", path, "--format", "summary"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: --setting \(path): ") && lines[0].contains(words), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aSettingFileLargerThanAnySettingIsNotRead() throws {
        let dir = try BinaryTests.temporaryFolder()
        let path = "\(dir)/huge.json"
        try Data(repeating: 0x20, count: 64 * 1024 + 1).write(to: URL(fileURLWithPath: path))
        let result = try BinaryTests.run(["replay", "whatever.pantrace", "--setting", path])
        #expect(result.status == 1 && result.stderr.contains("a setting file is at most 65536"), "\(result.stderr)")
    }

    @Test func tuneOnASheetLibraryRefusesToSaveASetting() throws {
        let dir = try BinaryTests.temporaryFolder()
        let result = try BinaryTests.run([
            "tune", dir, "--preset", "gorhom", "--grid", "projection=0:0.3:0.05", "--save-setting", "\(dir)/s.json"
        ])
        #expect(result.status == 1 && result.stderr.contains("ship its best point with --emit"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/s.json"))
    }
}
