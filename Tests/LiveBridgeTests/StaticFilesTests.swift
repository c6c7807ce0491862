import TestSupport
import Foundation
import Testing
@testable import LiveBridge

struct StaticFilesTests {
    static func makeWeb() throws -> String {
        let root = try TemporaryFolder.path("web")
        try FileManager.default.createDirectory(atPath: root + "/tests", withIntermediateDirectories: true)
        for name in ["index.html", "app.mjs", "icon.svg", "style.css", "data.bin", ".hidden.js", "tests/index.html"] {
            #expect(FileManager.default.createFile(atPath: "\(root)/\(name)", contents: Data("x".utf8)))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/out.txt", withDestinationPath: "/etc/hostname")
        try FileManager.default.createSymbolicLink(atPath: root + "/alias.css", withDestinationPath: root + "/style.css")
        return root
    }

    @Test func knownFilesResolveWithTheirMimeTypes() throws {
        let files = StaticFiles(root: try Self.makeWeb())
        #expect(files.resolve("/") == .file(path: files.root + "/index.html", mimeType: "text/html; charset=utf-8"))
        #expect(files.resolve("/app.mjs?v=2") == .file(path: files.root + "/app.mjs", mimeType: "text/javascript; charset=utf-8"))
        #expect(files.resolve("/icon.svg") == .file(path: files.root + "/icon.svg", mimeType: "image/svg+xml"))
        #expect(files.resolve("/tests/") == .file(path: files.root + "/tests/index.html", mimeType: "text/html; charset=utf-8"))
    }

    @Test(arguments: ["/../etc/passwd", "/%2e%2e/etc/passwd", "/tests/../../x", "/.hidden.js", "/missing.js", "/tests", "/a%00b"])
    func traversalHiddenAndMissingAreNotFound(path: String) throws {
        #expect(StaticFiles(root: try Self.makeWeb()).resolve(path) == .notFound)
    }

    @Test func aSymlinkOutIsForbiddenAndOneInsideIsServed() throws {
        let files = StaticFiles(root: try Self.makeWeb())
        #expect(files.resolve("/out.txt") == .forbidden)
        #expect(files.resolve("/alias.css") == .file(path: files.root + "/style.css", mimeType: "text/css; charset=utf-8"))
    }

    @Test func unknownTypesAreRefused() throws {
        #expect(StaticFiles(root: try Self.makeWeb()).resolve("/data.bin") == .unsupportedType)
    }
}
