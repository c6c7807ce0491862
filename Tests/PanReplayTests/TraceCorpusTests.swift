import TestSupport
import Foundation
import PanTrace
import GestureFixtures
import Testing
@testable import PanReplay

struct TraceCorpusTests {
    static func folder(with traces: [Trace]) throws -> String {
        let path = try TemporaryFolder.path("panreplay")
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        for (index, trace) in traces.enumerated() {
            try TraceFiles.write(trace, to: "\(path)/\(index % 2 == 0 ? "" : "sub/")\(trace.metadata.id).pantrace")
        }
        return path
    }

    @Test
    func aFolderIsReadRecursivelyInSortedOrderPassingOverOtherFiles() throws {
        let traces = Fixtures.swipes(4)
        let path = try Self.folder(with: traces)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path + "/README.md"))
        let corpus = TraceCorpus.load(paths: [path])
        #expect(corpus.failures.isEmpty)
        #expect(corpus.entries.count == 4)
        #expect(corpus.entries.map(\.file) == corpus.entries.map(\.file).sorted())
        #expect(Set(corpus.entries.map(\.trace.metadata.id)) == Set(traces.map(\.metadata.id)))
    }

    @Test
    func damagedAndMissingFilesAreReportedAndSkipped() throws {
        let path = try Self.folder(with: Fixtures.swipes(3))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0x1f, 0x8b, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: path + "/broken.pantrace"))
        try FileManager.default.createSymbolicLink(atPath: path + "/gone.pantrace", withDestinationPath: path + "/nowhere.pantrace")
        let corpus = TraceCorpus.load(paths: [path, path + "/missing.pantrace"])
        #expect(corpus.entries.count == 3)
        #expect(Set(corpus.failures.map(\.file)) == [path + "/broken.pantrace", path + "/gone.pantrace", path + "/missing.pantrace"])
        for failure in corpus.failures { #expect(failure.reason.contains(failure.file)) }
    }
}

struct TraceCorpusFileTests {
    @Test
    func aCorpusFileStandsForEachOfItsGesturesAndADamagedOneIsReportedAlone() throws {
        let traces = Fixtures.swipes(4)
        let folder = try TraceCorpusTests.folder(with: traces)
        let corpus = folder + ".pantraces"
        let cut = folder + "-cut.pantraces"
        defer { for path in [folder, corpus, cut] { try? FileManager.default.removeItem(atPath: path) } }
        let report = try CorpusFolder.pack(folder: folder, into: corpus)
        #expect(report.gestures == 4 && report.problems.isEmpty)
        let fromFolder = TraceCorpus.load(paths: [folder])
        let fromCorpus = TraceCorpus.load(paths: [corpus])
        #expect(fromCorpus.failures.isEmpty)
        #expect(fromCorpus.entries.map(\.trace) == fromFolder.entries.map(\.trace))
        #expect(fromCorpus.entries.map(\.file) == fromFolder.entries.map { corpus + "#" + String($0.file.dropFirst(folder.count + 1).dropLast(9)) })
        // Cut inside the last packed chunk: its gestures are reported, with the file, the gesture and the byte.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: corpus))
        bytes.removeLast(3)
        try bytes.write(to: URL(fileURLWithPath: cut))
        let damaged = TraceCorpus.load(paths: [cut])
        #expect(damaged.entries.isEmpty)
        #expect(
            damaged.failures.map(\.reason) == [
                "\(cut): chunk 0 at byte 0: file ends inside a chunk (truncated, e.g. by a crash while recording or a copy cut short)"
            ])
    }
}
