import Foundation
import Testing
import TestSupport

/// `pantrace convert` between a folder and a corpus file, and `inspect` on a corpus.
struct CorpusCommandTests {
    static let recordings = Repository.recordings + "/real"

    @Test func aFolderBecomesACorpusAndComesBackByteForByte() throws {
        let dir = try BinaryTests.temporaryFolder()
        let packed = try BinaryTests.run(["convert", Self.recordings, "\(dir)/real.pantraces"])
        #expect(packed.status == 0, "\(packed.stderr)")
        #expect(packed.stdout.contains("32 gestures (0 packed, 32 verbatim, 0 live)"))
        let inspect = try BinaryTests.run(["inspect", "\(dir)/real.pantraces"])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.split(separator: "\n").count == 32)
        #expect(inspect.stdout.hasPrefix("\(dir)/real.pantraces#android-sailfish-SailfishFlingDownFast1-1: 9 samples"))
        let back = try BinaryTests.run(["convert", "\(dir)/real.pantraces", "\(dir)/out"])
        #expect(back.status == 0, "\(back.stderr)")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.recordings) {
            #expect(
                FileManager.default.contentsEqual(atPath: "\(Self.recordings)/\(name)", andPath: "\(dir)/out/\(name)"), "\(name)")
        }
        // Into a folder that is not empty: refused before anything is written.
        let again = try BinaryTests.run(["convert", "\(dir)/real.pantraces", "\(dir)/out"])
        #expect(again.status == 1 && again.stderr.contains("the folder is not empty"))
    }

    @Test func synthWritesIntoACorpusTheFilesItWritesIntoAFolder() throws {
        let dir = try BinaryTests.temporaryFolder()
        let corpus = try BinaryTests.run(["synth", "-o", "\(dir)/s.pantraces", "--count", "6", "--seed", "5"])
        #expect(corpus.status == 0, "\(corpus.stderr)")
        let folder = try BinaryTests.run(["synth", "-o", "\(dir)/folder", "--count", "6", "--seed", "5"])
        #expect(folder.status == 0)
        let back = try BinaryTests.run(["convert", "\(dir)/s.pantraces", "\(dir)/back"])
        #expect(back.status == 0 && back.stdout.contains("6 gestures (6 packed"), "\(back.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/folder").sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/back").sorted() == names)
        for name in names {
            #expect(FileManager.default.contentsEqual(atPath: "\(dir)/folder/\(name)", andPath: "\(dir)/back/\(name)"), "\(name)")
        }
        let jsonl = try BinaryTests.run(["synth", "-o", "\(dir)/j.pantraces", "--count", "1", "--format", "jsonl"])
        #expect(jsonl.status != 0 && jsonl.stderr.contains("holds .pantrace gestures"))
    }

    @Test func aDamagedGestureIsOneLineAndTheOthersStillInspect() throws {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["convert", Self.recordings, "\(dir)/real.pantraces"]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/real.pantraces"))
        // A byte inside the last gesture's deflate data (verbatim files end with their own members).
        bytes[bytes.count - 20] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: "\(dir)/bad.pantraces"))
        let inspect = try BinaryTests.run(["inspect", "\(dir)/bad.pantraces"])
        #expect(inspect.status == 1)
        #expect(inspect.stdout.split(separator: "\n").count == 31)
        let errors = inspect.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(inspect.stderr)")
        #expect(
            errors.first?.hasPrefix("error: \(dir)/bad.pantraces: gesture 31 (flutter-velocityEventData-12-1) chunk") == true, "\(inspect.stderr)")
        // Extracting keeps the damaged file's bytes as they are, and says so.
        let out = try BinaryTests.run(["convert", "\(dir)/bad.pantraces", "\(dir)/out"])
        #expect(out.status == 0)
        #expect(out.stderr.contains("warning: kept as it is: \(dir)/bad.pantraces: gesture 31"))
    }
    /// A folder holding a corpus: tune and inspect read every gesture in it, as when the corpus
    /// is named; --max-files counts it as one file (both sides of the limit).
    @Test func aCorpusInAFolderIsReadAsWhenItIsNamed() throws {
        let dir = try BinaryTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: "\(dir)/set/sub", withIntermediateDirectories: true)
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/set/sub/s.pantraces", "--count", "7", "--seed", "3"]).status == 0)
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/one", "--count", "1", "--seed", "4"]).status == 0)
        let single = try #require(FileManager.default.contentsOfDirectory(atPath: "\(dir)/one").first)
        try FileManager.default.copyItem(atPath: "\(dir)/one/\(single)", toPath: "\(dir)/set/\(single)")
        // In the folder's sorted order: "sub/…" before "synth-…".
        let named = ["\(dir)/set/sub/s.pantraces", "\(dir)/set/\(single)"]

        let inspectFolder = try BinaryTests.run(["inspect", "\(dir)/set"])
        let inspectNamed = try BinaryTests.run(["inspect"] + named)
        #expect(inspectFolder.status == 0, "\(inspectFolder.stderr)")
        #expect(inspectFolder.stdout.split(separator: "\n").count == 8)
        #expect(inspectFolder.stdout == inspectNamed.stdout)

        let options = ["--preset", "zoom", "--grid", "threshold=0.2:0.8:0.1", "--json"]
        let tuneFolder = try BinaryTests.run(["tune", "\(dir)/set"] + options)
        let tuneNamed = try BinaryTests.run(["tune"] + named + options)
        #expect(tuneFolder.status == 0, "\(tuneFolder.stderr)")
        #expect(tuneFolder.stdout.contains("\"traces\" : 8") || tuneFolder.stdout.contains("s.pantraces#"), "\(tuneFolder.stdout.prefix(400))")
        #expect(tuneFolder.stdout == tuneNamed.stdout)

        // Two files (one of them a corpus of 7 gestures): --max-files 2 reads them, 1 refuses the folder.
        #expect(try BinaryTests.run(["inspect", "\(dir)/set", "--max-files", "2"]).stdout == inspectFolder.stdout)
        let over = try BinaryTests.run(["tune", "\(dir)/set", "--max-files", "1"] + options)
        #expect(over.status == 1 && over.stderr.contains("more than 1 trace files"), "\(over.stderr)")
        let overInspect = try BinaryTests.run(["inspect", "\(dir)/set", "--max-files", "1"])
        #expect(overInspect.status == 1 && overInspect.stderr.contains("more than 1 trace files"), "\(overInspect.stderr)")
    }

    /// Folder → corpus with a corpus inside: not nested; the rest is packed and the left-out corpus named.
    @Test func aCorpusInsideAFolderBeingPackedIsLeftOutByName() throws {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/set", "--count", "3", "--seed", "3"]).status == 0)
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/set/inner.pantraces", "--count", "2", "--seed", "4"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/set/inner.pantraces"))
        let packed = try BinaryTests.run(["convert", "\(dir)/set", "\(dir)/out.pantraces"])
        #expect(packed.status == 1)
        #expect(packed.stdout.contains("3 gestures") && packed.stdout.contains("1 left out"), "\(packed.stdout)")
        #expect(packed.stderr.contains("error: \(dir)/set/inner.pantraces: left out: a corpus inside the folder is not nested"), "\(packed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/set/inner.pantraces")) == before)
        #expect(try BinaryTests.run(["inspect", "\(dir)/out.pantraces"]).stdout.split(separator: "\n").count == 3)
    }
    /// serve's corpus options are checked before it listens: the limit is at least 1, and
    /// --open names a corpus's gesture by the corpus file, which must exist.
    @Test func serveChecksItsCorpusOptionsBeforeListening() throws {
        let dir = try BinaryTests.temporaryFolder()
        #expect(try BinaryTests.run(["synth", "-o", "\(dir)/c.pantraces", "--count", "1", "--seed", "3"]).status == 0)
        let serve = ["serve", "--recordings", dir, "--port", "0", "--web", "/nonexistent/web"]
        let zero = try BinaryTests.run(serve + ["--max-corpus-gestures", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("--max-corpus-gestures must be at least 1, got 0"), "\(zero.stderr)")
        let missing = try BinaryTests.run(serve + ["--open", "d.pantraces#synth-3-00000"])
        #expect(missing.status == 64 && missing.stderr.contains("--open d.pantraces#synth-3-00000: no such recording"), "\(missing.stderr)")
        // The corpus exists: past validation, stopped by the missing web folder instead.
        let present = try BinaryTests.run(serve + ["--open", "c.pantraces#synth-3-00000"])
        #expect(present.status == 1 && !present.stderr.contains("no such recording"), "\(present.stderr)")
    }
}
