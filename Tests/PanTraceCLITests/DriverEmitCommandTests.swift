import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import PanTraceCLI

/// `pantrace emit --to TARGET` and `synth --target-velocity` through the built binary.
struct DriverEmitCommandTests {
    static let fling = EmitCommandTests.recordings + "/real/android-sailfish-SailfishFlingDownFast2-1.pantrace"

    @Test(arguments: ["webdriver-touch", "webdriver-mouse", "compose", "xcuitest", "maestro", "adb", "evemu"])
    func everyTargetWritesItsScriptAndReportsOnStandardError(target: String) throws {
        let result = try BinaryTests.run(["emit", Self.fling, "--to", target, "--preset", "swipe-dismiss"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains("→ \(target):") && result.stderr.contains("release velocity, recorded → delivered: "))
        // A difference, not an uncertainty; the decisions name their presets and estimators.
        #expect(!result.stderr.contains("±") && result.stderr.contains("(off by "))
        #expect(result.stderr.contains("decisions: 3 of 3 the same (preset swipe-dismiss × estimators flutter, impulse, lsq2)"), "\(result.stderr)")
        // A 1080×1920 pt recording on XCUITest, larger than any iPhone, is said; elsewhere not.
        #expect(
            result.stderr.contains("warning: \(Self.fling) was recorded on a 1080×1920 pt screen, larger than any iPhone's")
                == (target == "xcuitest"), "\(result.stderr)")
        // One WebDriver script on standard output says how to perform it.
        #expect(result.stderr.contains("POST /session/{session id}/actions") == target.hasPrefix("webdriver"))
    }

    @Test func theJSONReportHasEveryEstimatorAndPreset() throws {
        let result = try BinaryTests.run(["emit", Self.fling, "--to", "adb", "--json"])
        #expect(result.status == 0)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let report = try #require(reports.first)
        let velocities = try #require(report["velocities"] as? [[String: Any]])
        #expect(velocities.compactMap { $0["estimator"] as? String } == ["lsq2", "impulse", "flutter", "ios-fling"])
        #expect((report["decisions"] as? [Any])?.count == 11 * 3)
        #expect(report["carries_path"] as? Bool == false)
    }

    @Test func aFolderNeedsAnOutputFolderAndNeverOverwrites() throws {
        let many = try BinaryTests.run(["emit", EmitCommandTests.recordings + "/real", "--to", "evemu", "--preset", "swipe-dismiss"])
        #expect(many.status == 1 && many.stderr.contains("give -o FOLDER"))
        try withTemporaryFolder("emit-cli") { folder in
            let written = try BinaryTests.run([
                "emit", EmitCommandTests.recordings + "/real", "--to", "evemu", "--preset", "swipe-dismiss", "-o", folder
            ])
            #expect(written.status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".events") }.count == 32)
            let again = try BinaryTests.run(["emit", Self.fling, "--to", "evemu", "-o", folder])
            #expect(again.status == 1 && again.stderr.contains("pantrace never overwrites"))
        }
    }

    /// `emit` reads through the walker `tune` uses: a corpus file stands for its gestures (each
    /// written under its name in the corpus), `--max-files` bounds a folder, and a file that
    /// cannot be read is named and left out while the rest are written, with exit 1.
    @Test func emitReadsCorporaAndFoldersAsTuneDoes() throws {
        try withTemporaryFolder("emit-walker") { folder in
            let corpus = folder + "/real.pantraces"
            let packed = try BinaryTests.run(["convert", EmitCommandTests.recordings + "/real", corpus])
            try #require(packed.status == 0, "\(packed.stderr)")
            let fromCorpus = try BinaryTests.run(["emit", corpus, "--to", "evemu", "--preset", "swipe-dismiss", "-o", folder + "/out"])
            #expect(fromCorpus.status == 0, "\(fromCorpus.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".events") }
            #expect(written.count == 32)
            #expect(written.contains("android_sailfish_SailfishFlingDownFast2_1.events"), "\(written.sorted().prefix(3))")

            let limited = try BinaryTests.run([
                "emit", EmitCommandTests.recordings + "/real", "--to", "evemu", "--max-files", "31", "-o", folder + "/limited"
            ])
            #expect(limited.status == 1 && limited.stderr.contains("--max-files"), "\(limited.stderr)")
            let exactly = try BinaryTests.run([
                "emit", EmitCommandTests.recordings + "/real", "--to", "evemu", "--max-files", "32", "-o", folder + "/exactly"
            ])
            #expect(exactly.status == 0, "\(exactly.stderr)")
            // A run over many recordings ends with its total, and names those that lose a decision.
            let total = try #require(exactly.stderr.split(separator: "\n").last.map(String.init))
            #expect(total.hasPrefix("total: ") && total.contains(" of 32 recordings keep every decision they drive under evemu"), "\(total)")

            let mixed = folder + "/mixed"
            try FileManager.default.createDirectory(atPath: mixed, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.fling, toPath: mixed + "/a.pantrace")
            try Data("not a recording".utf8).write(to: URL(fileURLWithPath: mixed + "/b.pantrace"))
            let partly = try BinaryTests.run(["emit", mixed, "--to", "evemu", "--preset", "swipe-dismiss", "-o", folder + "/partly"])
            #expect(partly.status == 1)
            #expect(partly.stderr.contains("skipped \(mixed)/b.pantrace"), "\(partly.stderr)")
            #expect(partly.stderr.contains("1 of 2 recordings could not be read and were left out"))
            #expect(FileManager.default.fileExists(atPath: folder + "/partly/a.events"))
        }
    }

    @Test func theSuiteHasOneTestPerGesture() throws {
        let result = try BinaryTests.run([
            "emit", EmitCommandTests.recordings + "/real", "--to", "webdriver-touch", "--suite", "--preset", "swipe-dismiss"
        ])
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "\ndef test_").count - 1 == 32)
    }

    @Test func theInverseWritesAGestureOrSaysWhyNot() throws {
        try withTemporaryFolder("emit-inverse") { folder in
            let made = try BinaryTests.run(["synth", "-o", folder, "--target-velocity", "900", "--target-progress", "0.4", "--estimator", "flutter"])
            #expect(made.status == 0 && made.stdout.contains("inverse-swipe-dismiss-flutter.pantrace"))
            let refused = try BinaryTests.run(["synth", "-o", folder, "--target-velocity", "9000", "--target-progress", "0.05", "--rate", "60"])
            #expect(refused.status == 1 && refused.stderr.hasPrefix("error: no gesture reads as that target: "))
        }
    }

    @Test(arguments: [
        ["emit", "f", "--to", "maestro", "--suite"],
        ["emit", "f", "--to", "kotlin"],
        ["emit", "f", "g", "--to", "adb", "--delivered", "log.csv"],
        ["emit", "f", "--to", "adb", "--estimator", "ios"],
        ["synth", "-o", "x", "--target-velocity", "100"]
    ])
    func argumentErrorsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try PanTraceCommand.parseAsRoot(arguments) }
    }
}
