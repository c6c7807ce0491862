import Foundation
import PanTrace
import TestSupport
import Testing

/// The folder walk's rules (``TraceFolder``): symlinks, hidden names, the limit.
struct TraceFolderTests {
    static func touch(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }

    static func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Inside, outside, dangling, to a folder, hidden, a folder named through a symlink.
    @Test func symlinksFollowTheDocumentedRules() throws {
        let top = try TemporaryFolder("trace-folder")
        let root = top.appending("library"), outside = top.appending("outside")
        try Self.touch(root + "/a.pantrace")
        try Self.touch(root + "/sub/b.jsonl")
        try Self.touch(root + "/notes.txt")
        try Self.touch(root + "/.hidden.pantrace")
        try Self.touch(root + "/.cache/c.pantrace")
        try Self.touch(outside + "/o.pantrace")
        try Self.link(root + "/inside.pantrace", to: "a.pantrace")  // a file inside: listed under its own name
        try Self.link(root + "/sub/up.pantrace", to: "../a.pantrace")  // inside, through ..: listed
        try Self.link(root + "/out.pantrace", to: outside + "/o.pantrace")  // leaves the folder: skipped
        try Self.link(root + "/sub/escape.pantrace", to: "../../outside/o.pantrace")  // leaves through ..: skipped
        try Self.link(root + "/dangling.pantrace", to: "nowhere.pantrace")  // dangling: listed, the reader reports it
        try Self.link(root + "/linked-folder", to: "sub")  // a folder: not followed
        try Self.link(root + "/outside-folder", to: outside)  // a folder outside: not followed
        try Self.link(root + "/folder.pantrace", to: "sub")  // a folder with a trace name: skipped
        let listing = TraceFolder.list(root, formats: [.pantrace, .jsonl])
        #expect(listing.files == ["a.pantrace", "dangling.pantrace", "inside.pantrace", "sub/b.jsonl", "sub/up.pantrace"])
        #expect(listing.problems.isEmpty)
        #expect(!listing.limitReached)

        // The folder named through a symlink: the same files, by the same relative names.
        try Self.link(top.appending("alias"), to: "library")
        #expect(TraceFolder.list(top.appending("alias"), formats: [.pantrace, .jsonl]).files == listing.files)
        // Formats filter by extension.
        #expect(TraceFolder.list(root, formats: [.jsonl]).files == ["sub/b.jsonl"])
    }

    /// The order is by path, whatever order the file system gives.
    @Test func filesAreSortedByPath() throws {
        let top = try TemporaryFolder("trace-folder")
        let names = ["z.csv", "a/b/c.csv", "a/a.csv", "m.csv", "a.csv", "B.csv"]
        for name in names { try Self.touch(top.appending(name)) }
        #expect(TraceFolder.list(top.path, formats: [.csv]).files == names.sorted())
    }

    /// N files with a limit of N are listed; N + 1 lists none and says so.
    @Test(arguments: [(5, 5, false), (6, 5, true), (1, 1, false), (2, 1, true)])
    func theLimitOnBothSides(count: Int, limit: Int, reached: Bool) throws {
        let top = try TemporaryFolder("trace-folder")
        for index in 0..<count { try Self.touch(top.appending("d\(index % 2)/t\(index).pantrace")) }
        let listing = TraceFolder.list(top.path, formats: [.pantrace], limit: limit)
        #expect(listing.limitReached == reached)
        #expect(listing.files.count == (reached ? 0 : count))
        #expect(listing.problems == (reached ? ["\(top.path): more than \(limit) trace files"] : []))
    }

    @Test func aMissingFolderIsAProblem() {
        let listing = TraceFolder.list("/nonexistent-\(UUID().uuidString)", formats: [.pantrace])
        #expect(listing.files.isEmpty)
        #expect(listing.problems.count == 1)
    }
}
