import Foundation
import PanTrace
import TestSupport
import Testing

/// `pantrace tune --preset <sheet library>` as a user runs it on gestures labelled with the
/// detent they meant: the report, the JSON, the code, and every refusal in one line.
struct DetentTuneCommandTests {
    /// A straight upward drag of 100 pt from detent 2 of 100/400/700, released at `velocity`.
    static func drag(_ id: String, velocity: Double, meant: SheetLabel.Target?) -> Trace {
        let samples = (0...24).map { (i: Int) -> PanSample in
            let phase: GesturePhase = i == 0 ? .began : i == 24 ? .ended : .changed
            let moved = -100 * Double(i) / 24
            return PanSample(time: Double(i) / 120, phase: phase, translation: PanVector(x: 0, y: moved), velocity: PanVector(x: 0, y: velocity))
        }
        let sheet = SheetLabel(detents: [100, 400, 700], start: 2, target: meant)
        return Trace(metadata: TraceMetadata(id: id, intent: meant == nil ? .unknown : .detent, sheet: sheet), samples: samples)
    }

    /// Twelve labelled drags (detent 1 meant below 2000 pt/s, 0 above) and one unlabelled.
    static func corpus() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("detent-tune")
        for i in 0..<12 {
            let velocity = -1000 - 200 * Double(i)
            let trace = drag("d\(i)", velocity: velocity, meant: .detent(velocity > -2000 ? 1 : 0))
            try Data(try JSONLCodec.encode(trace)).write(to: URL(fileURLWithPath: folder.appending("d\(i).jsonl")))
        }
        try Data(try JSONLCodec.encode(drag("u", velocity: -1500, meant: nil))).write(to: URL(fileURLWithPath: folder.appending("u.jsonl")))
        return folder
    }

    @Test func theReportNamesTheBestPointTheRatesAndTheMisses() throws {
        let folder = try Self.corpus()
        let result = try BinaryTests.run(["tune", folder.path, "--preset", "gorhom", "--grid", "projection=0:0.3:0.05"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("tune: gorhom, 7 points, 12 gestures labelled with a detent"))
        #expect(result.stdout.contains("left out: 1 without a detent label"))
        #expect(result.stdout.contains("  defaults  hit "))
        #expect(result.stdout.contains("cross-validated hit"))
        #expect(result.stdout.contains("start 2, 12 gestures"))
    }

    @Test func jsonHasTheRatesPerStartAndTheFolds() throws {
        let folder = try Self.corpus()
        let result = try BinaryTests.run(["tune", folder.path, "--preset", "gorhom", "--grid", "projection=0:0.3:0.05", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "detent_tune" && object["unlabelled"] as? Int == 1)
        let best = try #require(object["best"] as? [String: Any])
        let total = ["hit", "skip", "stuck", "wrong"].compactMap { best[$0] as? Int }.reduce(0, +)
        #expect(total == 12 && best["gestures"] as? Int == 12)
        #expect((object["by_start"] as? [[String: Any]])?.count == 1)
        #expect((object["cross_validation"] as? [String: Any])?["gestures"] as? Int == 12)
    }

    @Test func emitPrintsTheLibrarysOwnCode() throws {
        let folder = try Self.corpus()
        let result = try BinaryTests.run(["tune", folder.path, "--preset", "vaul", "--grid", "velocityThreshold=0.2,0.4", "--emit", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["props"] is [String: Any] && object["still_wrong"] is [Any])
    }

    @Test(arguments: [
        (["--grid", "skip=0,1"], "unknown parameter 'skip'"),
        (["--grid", "projection=0:5:1"], "out of range"),
        (["--grid", "projection=0.2", "--csv", "/tmp/x.csv"], "--csv is for a two-state preset's sweep"),
        (["--grid", "projection=0.2", "--emit", "swift"], "gorhom is configured in js: give --emit js")
    ])
    func aSweepTheLibraryCannotRunIsOneLineAndExitOne(arguments: [String], words: String) throws {
        let folder = try Self.corpus()
        let result = try BinaryTests.run(["tune", folder.path, "--preset", "gorhom"] + arguments)
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains(words) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func nothingLabelledSaysWhyAndAnUnreadableFileExitsThree() throws {
        let folder = try TemporaryFolder("detent-tune-none")
        try Data(try JSONLCodec.encode(Self.drag("u", velocity: -1500, meant: nil))).write(to: URL(fileURLWithPath: folder.appending("u.jsonl")))
        let none = try BinaryTests.run(["tune", folder.path, "--preset", "gorhom", "--grid", "projection=0.2"])
        #expect(none.status == 1 && none.stderr.contains("1 without a detent label"), "\(none.stderr)")
        let labelled = try Self.corpus()
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: labelled.appending("bad.jsonl")))
        let skipped = try BinaryTests.run(["tune", labelled.path, "--preset", "gorhom", "--grid", "projection=0.2"])
        #expect(skipped.status == 3 && skipped.stderr.contains("skipped: ") && skipped.stderr.contains("bad.jsonl"), "\(skipped.stderr)")
        #expect(skipped.stdout.contains("12 gestures labelled with a detent"))
    }
}
