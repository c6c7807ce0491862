import TestSupport
import Foundation
import Testing

/// Runs the built `pantrace` binary as a user would.
struct BinaryTests {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        // The test bundle sits in the products folder beside the executable.
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("pantrace")
    }

    static func run(_ arguments: [String]) throws -> Result {
        try runExecutable(binary.path, arguments)
    }

    /// Runs any executable with no input; its output and errors are read to the end.
    static func runExecutable(_ path: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFolder() throws -> String {
        try TemporaryFolder.path("pantrace-cli")
    }

    @Test func synthIsByteIdenticalForTheSameSeed() throws {
        let a = try Self.temporaryFolder(), b = try Self.temporaryFolder()
        #expect(try Self.run(["synth", "-o", a, "--count", "4", "--seed", "5"]).status == 0)
        #expect(try Self.run(["synth", "-o", b, "--count", "4", "--seed", "5"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(names.count == 4)
        for name in names {
            #expect(FileManager.default.contents(atPath: "\(a)/\(name)") == FileManager.default.contents(atPath: "\(b)/\(name)"))
        }
    }

    @Test func inspectJSONHasTheDocumentedKeys() throws {
        let dir = try Self.temporaryFolder()
        _ = try Self.run(["synth", "-o", dir, "--count", "1", "--seed", "2"])
        let file = try FileManager.default.contentsOfDirectory(atPath: dir)[0]
        let result = try Self.run(["inspect", "--json", "\(dir)/\(file)"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in [
            "file", "samples", "duration_s", "rate_hz", "peak_velocity_pt_s", "intent", "source", "chunks", "bytes", "bytes_per_sample", "complete"
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["complete"] as? Bool == true)
        #expect(object["rate_hz"] as? Double == 120)
    }

    @Test func convertRoundTripsThroughJSONLAndCSV() throws {
        let dir = try Self.temporaryFolder()
        _ = try Self.run(["synth", "-o", dir, "--count", "1", "--seed", "3"])
        let name = try FileManager.default.contentsOfDirectory(atPath: dir)[0]
        let original = "\(dir)/\(name)"
        for ext in ["jsonl", "csv"] {
            #expect(try Self.run(["convert", original, "\(dir)/mid.\(ext)"]).status == 0)
            // Back under the same name (in a folder of its own): a file named after its id
            // does not store the id (docs/FORMAT.md §2.1), so only then are the bytes the same.
            try FileManager.default.createDirectory(atPath: "\(dir)/back-\(ext)", withIntermediateDirectories: false)
            #expect(try Self.run(["convert", "\(dir)/mid.\(ext)", "\(dir)/back-\(ext)/\(name)"]).status == 0)
            #expect(FileManager.default.contents(atPath: original) == FileManager.default.contents(atPath: "\(dir)/back-\(ext)/\(name)"))
        }
        #expect(try Self.run(["convert", original, "\(dir)/perfetto.trace.json"]).status == 0)
    }

    @Test func aDamagedFileGetsOneLineAndANonZeroExitAndTheOthersStillPrint() throws {
        let dir = try Self.temporaryFolder()
        _ = try Self.run(["synth", "-o", dir, "--count", "1", "--seed", "4"])
        let good = "\(dir)/\(try FileManager.default.contentsOfDirectory(atPath: dir)[0])"
        var bytes = try #require(FileManager.default.contents(atPath: good))
        bytes[bytes.count - 20] ^= 0xff
        let bad = "\(dir)/bad.pantrace"
        #expect(FileManager.default.createFile(atPath: bad, contents: bytes))
        let before = FileManager.default.contents(atPath: bad)
        let result = try Self.run(["inspect", bad, good])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        // synth writes a whole trace as one gzip member (FORMAT.md §1): the damage is in chunk 0.
        #expect(result.stderr.contains("bad.pantrace: chunk 0 at byte 0: corrupt chunk"))
        #expect(result.stdout.contains(good))
        #expect(FileManager.default.contents(atPath: bad) == before)
    }

    @Test func failuresOfTheWorkPrintOneErrorLineAndUsageErrorsKeepTheUsage() throws {
        let dir = try Self.temporaryFolder()
        let damaged = try Self.run(["convert", "\(dir)/missing.pantrace", "\(dir)/out.jsonl"])
        #expect(damaged.status == 1)
        #expect(damaged.stderr == "error: \(dir)/missing.pantrace: cannot open: No such file or directory\n")
        let usage = try Self.run(["synth", "-o", dir, "--rate", "7"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("Usage: pantrace synth"))
    }

    @Test func convertRefusesToOverwrite() throws {
        let dir = try Self.temporaryFolder()
        _ = try Self.run(["synth", "-o", dir, "--count", "2", "--seed", "6"])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { "\(dir)/\($0)" }
        let before = FileManager.default.contents(atPath: files[1])
        let result = try Self.run(["convert", files[0], files[1]])
        #expect(result.status != 0)
        #expect(result.stderr.contains("already exists"))
        #expect(FileManager.default.contents(atPath: files[1]) == before)
    }

    @Test func serveRefusesAMissingFolderInOneLine() throws {
        let result = try Self.run(["serve", "--port", "0", "--web", "/nonexistent/web"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: web folder /nonexistent/web does not exist\n")
    }

    @Test func serveRefusesAHostNameInOneLine() throws {
        let result = try Self.run(["serve", "--port", "0", "--host", "example.com"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--host must be an IP address"))
    }
}
