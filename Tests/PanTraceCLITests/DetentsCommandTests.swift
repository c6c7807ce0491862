import Foundation
import PanTrace
import TestSupport
import Testing

/// `pantrace detents` and `replay --preset LIBRARY --set detents=…` as a user runs them: what
/// they print, what they refuse and say, and their exit status.
struct DetentsCommandTests {
    static let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/real").path

    @Test func theTableHasARowPerGestureAndTheDisagreementMatrix() throws {
        let result = try BinaryTests.run(["detents", Self.real, "--detents", "80,400,600", "--start", "auto"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("start auto (up from 2, down from 0)"))
        #expect(result.stdout.contains("disagreement: share of the 32 gestures"))
        // PanModal cannot drive three detents: said, and left out.
        #expect(result.stderr.contains("preset 'panmodal' cannot drive this sheet: PanModal has two detents"))
        #expect(result.stderr.contains("left out"))
        #expect(!result.stdout.contains("panmodal"))
    }

    @Test func jsonIsOneObjectPerGestureWithEveryLibrarysVerdict() throws {
        let result = try BinaryTests.run(["detents", Self.real, "--detents", "80,400,600", "--start", "2", "--json"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 32)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["start"] as? Int == 2)
        let presets = try #require(object["presets"] as? [String: [String: Any]])
        #expect(
            Set(presets.keys) == [
                "floatingpanel", "vaul", "mdc-bottomsheet", "compose-anchored", "m3-sheet", "flutter-sheet", "gorhom", "css-scroll-snap"
            ])
        for (_, verdict) in presets {
            #expect(verdict["reason"] is String)
            #expect(verdict.keys.contains("detent") && verdict.keys.contains("margin"))
        }
    }

    @Test(arguments: [
        (["--detents", "80,400,x"], "--detents item 3 'x' is not a number"),
        (["--detents", "400,80"], "does not increase"),
        (["--detents", "80,400,600", "--start", "3"], "start = 3 names no detent"),
        (["--detents", "80,400,600", "--start", "top"], "is not a detent index"),
        (["--detents", "80,400,600", "--presets", "floatingpanel,sheetkit"], "unknown preset 'sheetkit'"),
        (["--detents", "80,400,600", "--presets", "panmodal"], "PanModal has two detents"),
        (["--detents", "80,400,600", "--set", "redirectionalProgress=2"], "out of range"),
        (["--detents", "80,400,600", "--set", "treshold=1"], "unknown parameter 'treshold'")
    ])
    func aBadSheetOrSettingIsOneLineAndExitOne(arguments: [String], words: String) throws {
        let result = try BinaryTests.run(["detents", Self.real] + arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func anUnreadableFileIsSkippedAndTheExitStatusSaysSo() throws {
        let folder = try TemporaryFolder("detents-skip")
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: folder.path + "/broken.pantrace"))
        let real = Self.real + "/android-sailfish-SailfishFlingUpSlow1-1.pantrace"
        let result = try BinaryTests.run(["detents", real, folder.path + "/broken.pantrace", "--detents", "80,400,600"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("skipped: ") && result.stderr.contains("broken.pantrace"))
        #expect(result.stderr.contains("the report covers the other 1"))
        let none = try BinaryTests.run(["detents", folder.path, "--detents", "80,400,600"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no gesture could be replayed"))
    }

    /// A press of zero length (every sample at one time, as flutter_test's `drag` sends them):
    /// vaul divides into ∞ as JavaScript does, takes its fast branch, and the JSON says null.
    @Test func aZeroLengthPressIsAFastVaulReleaseWithANullVelocity() throws {
        let folder = try TemporaryFolder("detents-zero-press")
        let samples = [
            PanSample(time: 0, phase: .began, translation: PanVector(x: 0, y: 0), velocity: PanVector(x: 0, y: 0)),
            PanSample(time: 0, phase: .ended, translation: PanVector(x: 0, y: -60), velocity: PanVector(x: 0, y: 0))
        ]
        let file = folder.path + "/zero.pantrace"
        try TraceEncoder.write(Trace(metadata: TraceMetadata(id: "zero"), samples: samples), to: file)
        let result = try BinaryTests.run(["detents", file, "--detents", "80,400,600", "--start", "2", "--presets", "vaul", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let vaul = try #require((object["presets"] as? [String: [String: Any]])?["vaul"])
        #expect(vaul["velocity"] is NSNull)
        #expect(vaul["detent"] as? Int == 0)
    }

    @Test func replayOnASheetPrintsTheVerdictAndItsMotionFrameByFrame() throws {
        let file = Self.real + "/android-sailfish-SailfishFlingUpSlow1-1.pantrace"
        let text = try BinaryTests.run(["replay", file, "--preset", "gorhom", "--set", "detents=80,400,600", "--set", "start=2", "--format", "text"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("settles: detent 0 (80 pt)"))
        #expect(text.stdout.contains("margin: "))
        let summary = try BinaryTests.run(["replay", file, "--preset", "gorhom", "--set", "detents=80,400,600", "--format", "summary"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "summary" && object["detent"] as? Int == 0 && object["start"] as? Int == 2)
        let frames = try BinaryTests.run(["replay", file, "--preset", "gorhom", "--set", "detents=80,400,600", "--format", "jsonl"])
        #expect(frames.status == 0)
        let lines = frames.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let motion = lines.filter { $0["type"] as? String == "frame" }
        // The finger's part from the start detent (its first sample is already 13 pt up, past
        // the recognizer's slop), then gorhom's spring to detent 0, at rest there.
        #expect(motion.first?["phase"] as? String == "drag" && motion.first?["top"] as? Double == 587)
        #expect(motion.last?["phase"] as? String == "settle" && motion.last?["top"] as? Double == 80)
        #expect(motion.contains { $0["phase"] as? String == "settle" && ($0["top"] as? Double).map { $0 > 80 } == true })
        let times = motion.compactMap { $0["t"] as? Double }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let last = try #require(lines.last)
        #expect(last["type"] as? String == "summary" && last["detent"] as? Int == 0)
        #expect((last["settle_motion"] as? String)?.contains("withSpring") == true)
        #expect((last["settle_s"] as? Double).map { $0 > 0 && $0 < 2 } == true)
        #expect(text.stdout.contains("moves: Reanimated withSpring"))
        let panModal = try BinaryTests.run(["replay", file, "--preset", "panmodal", "--set", "detents=80,400,600"])
        #expect(panModal.status == 1)
        #expect(panModal.stderr.contains("PanModal has two detents"))
        let noSheet = try BinaryTests.run(["replay", file, "--preset", "vaul"])
        #expect(noSheet.status == 1)
        #expect(noSheet.stderr.contains("--set detents="))
    }
}
