import Foundation
import PanCapture
import PanTrace
import TestSupport
import Testing

@testable import LiveBridge

/// A corpus file (`.pantraces`) in the recordings folder: its gestures in the library, the
/// limit on how many are listed, loading one, and edits refused without touching the file.
struct CorpusLibraryTests {
    /// Synthetic gestures, each with its own id.
    static func traces(_ count: Int, kind: GestureKind = .swipeDown) -> [Trace] {
        var configuration = GestureSynthesizer.Configuration()
        configuration.kind = kind
        configuration.scenarios = [.slowComplete]
        let synthesizer = GestureSynthesizer(configuration: configuration, seed: 7)
        return (0..<count).map { i in
            var trace = synthesizer.trace(at: i)
            trace.metadata.id = "g-\(i)"
            return trace
        }
    }

    /// Writes a corpus of `traces` at `path`: packed ones, then the last two as live gestures
    /// (each in chunks of its own, after the packed ones' chunk), when `live`.
    static func writeCorpus(_ traces: [Trace], to path: String, live: Bool = false) throws {
        let writer = try CorpusWriter(creatingFileAt: path, publication: .atFinish)
        for (i, trace) in traces.enumerated() {
            if live && i >= traces.count - 2 {
                let gesture = try writer.beginLive(name: "live/g-\(i)", metadata: trace.metadata)
                try gesture.append(contentsOf: trace.samples)
                try gesture.finish()
            } else {
                try writer.add(trace, name: "g-\(i)")
            }
        }
        try writer.finish()
    }

    static func hello(_ out: [Outgoing]) -> Hello? {
        out.lazy.compactMap { if case .hello(let h) = $0.message { return h } else { return nil } }.first
    }

    @Test func aCorpusInTheFolderIsListedOneEntryPerGestureAndEachLoadsAsItsTrace() throws {
        let folder = try TemporaryFolder("corpus-library")
        try FileManager.default.createDirectory(atPath: folder.appending("sub"), withIntermediateDirectories: true)
        let traces = Self.traces(5)
        try Self.writeCorpus(traces, to: folder.appending("sub/set.pantraces"), live: true)
        try TraceEncoder.write(traces[0], to: folder.appending("single.pantrace"))
        var library = Library(folder: folder.path)
        let found = library.rescan()
        #expect(found.problems.isEmpty && found.notices.isEmpty, "\(found)")
        let ids = library.recordings.map(\.id)
        #expect(
            ids == [
                "single.pantrace", "sub/set.pantraces#g-0", "sub/set.pantraces#g-1", "sub/set.pantraces#g-2", "sub/set.pantraces#live/g-3",
                "sub/set.pantraces#live/g-4"
            ])
        // Each equals what reading the whole corpus gives (the samples as stored, quantized).
        var whole: [String: Trace] = [:]
        try CorpusReader().read(contentsOf: folder.appending("sub/set.pantraces")) { gesture, outcome in
            whole[gesture.name] = try? outcome.get().trace
        }
        #expect(whole.count == 5)
        for id in ids.dropFirst() {
            let expected = try #require(whole[String(id.split(separator: "#")[1])])
            let same = try library.trace(id) == expected
            #expect(same, "\(id)")
            #expect(library.recordings.first { $0.id == id }?.samples == expected.samples.count)
        }
        // The live gestures' records are in chunks after the first: loading one inflates that chunk.
        #expect(try #require(library.corpusLocation(of: "sub/set.pantraces#live/g-4")).chunkOffset > 0)

        // Through the controller: the gesture loads and its replay streams frames.
        var controller = BridgeController(configuration: .init(recordingsFolder: folder.path))
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let out = controller.handle(
            .message(1, Array(#"{"type":"load","recording":"sub/set.pantraces#live/g-4","preset":"swipe-dismiss"}"#.utf8)), now: 0.1)
        #expect(!out.contains { if case .error = $0.message { true } else { false } }, "\(out)")
        var frames = 0
        for step in 1...30 {
            frames += controller.tick(now: 0.1 + Double(step) / 60).filter { if case .frame = $0.message { true } else { false } }.count
        }
        #expect(frames > 0)
    }

    /// A changed corpus (its gesture no longer where it was listed) is an error naming the gesture, not another gesture.
    @Test func aGestureWhoseCorpusChangedSinceTheScanIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder("corpus-changed")
        try Self.writeCorpus(Self.traces(3), to: folder.appending("c.pantraces"), live: true)
        var library = Library(folder: folder.path)
        library.rescan()
        try FileManager.default.removeItem(atPath: folder.appending("c.pantraces"))
        try Self.writeCorpus(Self.traces(1), to: folder.appending("c.pantraces"))
        #expect {
            _ = try library.trace("c.pantraces#live/g-2")
        } throws: { error in
            "\(error)".contains("live/g-2")
        }
    }

    /// N gestures are all listed; N + 1 list N, and the hello, every library page and the log say so.
    @Test(arguments: [3, 4])
    func theCorpusGestureLimitIsSaidWhenReachedAndNotBefore(count: Int) throws {
        let limit = 3
        let folder = try TemporaryFolder("corpus-limit")
        try Self.writeCorpus(Self.traces(count), to: folder.appending("big.pantraces"))
        var controller = BridgeController(configuration: .init(recordingsFolder: folder.path, maximumCorpusGestures: limit))
        #expect(controller.library.recordings.count == min(count, limit))
        let hello = try #require(Self.hello(controller.handle(.opened(1, canControl: false), now: 0)))
        #expect(hello.state.libraryTotal == min(count, limit))
        let page = controller.libraryPage(from: 0)
        if count > limit {
            let notice = try #require(controller.libraryNotices.first)
            #expect(notice.contains("big.pantraces") && notice.contains("first \(limit)") && notice.contains("--max-corpus-gestures"))
            #expect(hello.state.libraryNotices == [notice])
            #expect(page.notices == [notice])
        } else {
            #expect(controller.libraryNotices.isEmpty)
            #expect(hello.state.libraryNotices == nil && page.notices == nil)
        }
        // The wire leaves the field out when there is nothing to say.
        let encoded = String(decoding: try JSONEncoder().encode(ServerMessage.library(page)), as: UTF8.self)
        #expect(encoded.contains("\"notices\"") == (count > limit))
    }

    /// keep and drop on a gesture inside a corpus: one error naming it, the corpus's bytes unchanged.
    @Test(arguments: ["keep", "drop"])
    func anEditOfACorpusGestureIsRefusedByNameAndTheCorpusIsUntouched(type: String) throws {
        let folder = try TemporaryFolder("corpus-edit")
        try FileManager.default.createDirectory(atPath: folder.appending("live"), withIntermediateDirectories: true)
        // Named as a device's unsaved gesture would be: the refusal must not depend on the name.
        let path = folder.appending("live/unsaved-android-1-x.pantraces")
        try Self.writeCorpus(Self.traces(2), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var controller = BridgeController(configuration: .init(recordingsFolder: folder.path))
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let id = "live/unsaved-android-1-x.pantraces#g-1"
        #expect(controller.library.contains(id))
        let extra = type == "keep" ? #","intent":"finish""# : ""
        let out = controller.handle(.message(1, Array(#"{"type":"\#(type)","files":["\#(id)"]\#(extra)}"#.utf8)), now: 1)
        let errors = out.compactMap { if case .error(let e) = $0.message { return e } else { return nil } }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("\"\(id)\" is a gesture inside the corpus file") == true, "\(errors)")
        #expect(errors.first?.message.contains("nothing was changed") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("live")) == ["unsaved-android-1-x.pantraces"])
    }
    /// A corpus larger than one read (1 MiB): read on until the limit or its end, every gesture
    /// listed and the last one loadable, with nothing said.
    @Test func aCorpusPastTheFirstReadIsListedWhole() throws {
        let folder = try TemporaryFolder("corpus-large")
        let traces = Self.traces(4_000)
        try Self.writeCorpus(traces, to: folder.appending("large.pantraces"), live: true)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: folder.appending("large.pantraces"))[.size] as? Int)
        #expect(size > 1 << 20)
        var library = Library(folder: folder.path, maximumCorpusGestures: 10_000)
        let found = library.rescan()
        #expect(found.problems.isEmpty && found.notices.isEmpty, "\(found)")
        #expect(library.recordings.count == 4_000)
        #expect(try library.trace("large.pantraces#live/g-3999").samples.count == traces[3999].samples.count)
        #expect(try library.trace("large.pantraces#g-3000").samples.count == traces[3000].samples.count)
    }
}

/// `Library.eachTrace`, the tune job's reader: a run of one corpus's gestures in one pass, each
/// trace the one a single read gives, in the order asked, and a gesture the file no longer holds
/// an error in its place.
struct LibraryEachTraceTests {
    typealias C = CorpusLibraryTests

    static func read(_ ids: [String], _ library: Library) -> [(String, Result<Trace, PanTraceError>)] {
        var got: [(String, Result<Trace, PanTraceError>)] = []
        Library.eachTrace(ids, folder: library.folder, locations: library.corpusGestures) { got.append(($0, $1)) }
        return got
    }

    @Test func aWholeLibraryReadsAsEachRecordingAlone() throws {
        let folder = try TemporaryFolder("each-trace")
        let traces = C.traces(40)
        try C.writeCorpus(Array(traces[..<30]), to: folder.appending("a.pantraces"), live: true)
        try C.writeCorpus(Array(traces[30...]), to: folder.appending("b.pantraces"))
        try TraceEncoder.write(traces[0], to: folder.appending("plain.pantrace"))
        var library = Library(folder: folder.path)
        library.rescan()
        let ids = library.recordings.map(\.id)
        #expect(ids.count == 41)
        // In library order, and in an order that breaks the runs (each read alone then).
        for order in [ids, ids.reversed(), ids.enumerated().sorted { ($0.offset % 3, $0.offset) < ($1.offset % 3, $1.offset) }.map(\.element)] {
            let got = Self.read(order, library)
            #expect(got.map(\.0) == order)
            for (id, outcome) in got {
                #expect(try outcome.get() == library.trace(id))
            }
        }
    }

    @Test func aGestureNoLongerInTheCorpusIsAnErrorInItsPlace() throws {
        let folder = try TemporaryFolder("each-trace")
        try C.writeCorpus(C.traces(6), to: folder.appending("a.pantraces"))
        var library = Library(folder: folder.path)
        library.rescan()
        var locations = library.corpusGestures
        // As if the corpus changed after the scan: gesture 2's name is not the file's now.
        locations["a.pantraces#g-2"]?.name = "renamed"
        var got: [(String, Result<Trace, PanTraceError>)] = []
        let ids = library.recordings.map(\.id)
        Library.eachTrace(ids, folder: library.folder, locations: locations) { got.append(($0, $1)) }
        #expect(got.map(\.0) == ids)
        #expect(got.map { (try? $0.1.get()) == nil } == [false, false, true, false, false, false])
        if case .failure(let error) = got[2].1 { #expect("\(error)".contains("corpus changed since it was read")) }
    }
}

/// A plain file whose path reads as a corpus gesture's id is not listed: two recordings never
/// share one id.
struct LibraryIdentityTests {
    @Test func aPlainFileNamedLikeACorpusGestureIsNotListed() throws {
        let folder = try TemporaryFolder("library-ids")
        let traces = CorpusLibraryTests.traces(2)
        try CorpusLibraryTests.writeCorpus(traces, to: folder.appending("c.pantraces"))
        try TraceEncoder.write(traces[0], to: folder.appending("c.pantraces#g-0.pantrace"))
        try TraceEncoder.write(traces[1], to: folder.appending("plain.pantrace"))
        var library = Library(folder: folder.path)
        let found = library.rescan()
        let ids = library.recordings.map(\.id)
        #expect(ids == ["c.pantraces#g-0", "c.pantraces#g-1", "plain.pantrace"])
        #expect(Set(ids).count == ids.count)
        let said = found.problems.contains { $0.hasPrefix("c.pantraces#g-0.pantrace: its path reads as a gesture of a corpus file") }
        #expect(said, "\(found.problems)")
    }
}
