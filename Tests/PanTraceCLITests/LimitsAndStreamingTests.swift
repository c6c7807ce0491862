import Foundation
import PanTrace
import TestSupport
import Testing

/// `--max-files` on both sides of its limit, and `replay` writing frames as it computes them,
/// through the built binary.
struct LimitsAndStreamingTests {
    /// A folder of `count` synthetic swipes down (two subfolders).
    static func folder(count: Int) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("pantrace-limit")
        let result = try BinaryTests.run(["synth", "-o", folder.appending("one"), "--count", "\(count - 1)", "--seed", "4", "--kind", "swipe-down"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try BinaryTests.run(["synth", "-o", folder.appending("two"), "--count", "1", "--seed", "5", "--kind", "swipe-down"])
        #expect(last.status == 0, "\(last.stderr)")
        return folder
    }

    static func expectLimitError(_ result: BinaryTests.Result, folder: String, limit: Int) {
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(folder): more than \(limit) trace files (the limit of --max-files)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func inspectReadsNFilesUnderALimitOfNAndRefusesNPlusOne() throws {
        let folder = try Self.folder(count: 6)
        let within = try BinaryTests.run(["inspect", folder.path, "--max-files", "6"])
        #expect(within.status == 0, "\(within.stderr)")
        #expect(within.stdout.split(separator: "\n").count == 6)
        Self.expectLimitError(try BinaryTests.run(["inspect", folder.path, "--max-files", "5"]), folder: folder.path, limit: 5)
    }

    @Test func tuneReadsNFilesUnderALimitOfNAndRefusesNPlusOne() throws {
        let folder = try Self.folder(count: 6)
        let tune = ["tune", folder.path, "--preset", "swipe-dismiss", "--grid", "threshold=0.5", "--json"]
        let within = try BinaryTests.run(tune + ["--max-files", "6"])
        #expect(within.status == 0, "\(within.stderr)")
        #expect(within.stdout.contains("\"tuned\" : 6"))
        Self.expectLimitError(try BinaryTests.run(tune + ["--max-files", "5"]), folder: folder.path, limit: 5)
    }

    /// `serve` refuses a library over the limit before it listens; at the limit it starts.
    @Test func serveStartsWithNRecordingsUnderALimitOfNAndRefusesNPlusOne() throws {
        let folder = try Self.folder(count: 3)
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("web").path
        let serve = ["serve", "--recordings", folder.path, "--web", web, "--port", "0", "--token", "limit-test-token-0001"]
        Self.expectLimitError(try BinaryTests.run(serve + ["--max-files", "2"]), folder: folder.path, limit: 2)

        let process = Process()
        process.executableURL = BinaryTests.binary
        process.arguments = serve + ["--max-files", "3"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let first = Self.firstLine(of: out.fileHandleForReading)
        process.terminate()
        process.waitUntilExit()
        #expect(first.hasPrefix("pantrace serve: open http://127.0.0.1:"), "\(first)")
    }

    static func firstLine(of handle: FileHandle) -> String {
        var line: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let value = byte.first, value != 0x0A else { break }
            line.append(value)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// A 20-minute drag replayed at 240 fps is about 140 MB of JSON Lines. Its first line can be
    /// read while the replay still runs, and by then the process has used far less memory than
    /// its output: frames leave as they are made (docs/REPLAY.md, "Output").
    @Test func replayStreamsItsFrames() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/status") else {
            print("skipped: replayStreamsItsFrames needs /proc (Linux) to read the process's peak memory")
            return
        }
        let folder = try TemporaryFolder("pantrace-stream")
        let rate = 60.0, count = 20 * 60 * 60
        let samples = (0...count).map { index in
            let time = Double(index) / rate
            let phase: PanTrace.GesturePhase = index == 0 ? .began : (index == count ? .ended : .changed)
            let translation = PanVector(x: 0, y: 300 - 300 * cos(time / 60))
            return PanSample(time: time, phase: phase, translation: translation, velocity: PanVector(x: 0, y: 5 * sin(time / 60)))
        }
        let path = folder.appending("long.pantrace")
        try TraceFiles.write(Trace(metadata: TraceMetadata(id: "long", intent: .finish), samples: samples), to: path)

        let process = Process()
        process.executableURL = BinaryTests.binary
        process.arguments = ["replay", path, "--preset", "swipe-dismiss", "--fps", "240", "--format", "jsonl"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let first = Self.firstLine(of: out.fileHandleForReading)
        // Nothing more is read: the replay blocks on the full pipe, so it cannot have finished.
        let running = process.isRunning
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        process.terminate()
        process.waitUntilExit()
        #expect(first.hasPrefix("{\"gesture\":{\"phase\":\"began\""), "\(first.prefix(80))")
        #expect(running)
        let peakLine = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let peakKiB = Int(peakLine.split(separator: " ").dropFirst().first ?? "") ?? .max
        let outputKiB = (count * 4) * first.utf8.count / 1024  // frames × about one line each
        #expect(outputKiB > 100_000)
        #expect(peakKiB < outputKiB / 2, "peak \(peakKiB) KiB against \(outputKiB) KiB of output")
    }
}
