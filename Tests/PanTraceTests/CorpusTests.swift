import Foundation
import PanCapture
import TestSupport
import Testing
@testable import PanTrace

/// Corpus files (`.pantraces`, docs/FORMAT.md §11): many gestures in one file, to and from a
/// folder byte for byte, and what a cut, corrupt or malformed corpus yields.
@Suite struct CorpusTests {
    /// Every gesture of the corpus at `path`, by name, and the problems between gestures.
    static func gestures(_ path: String, reader: TraceReader = TraceReader()) throws -> (
        gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)], problems: [PanTraceError]
    ) {
        var gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)] = []
        let problems = try CorpusReader(reader: reader).read(contentsOf: path) { gestures.append(($0, $1)) }
        return (gestures, problems)
    }

    /// The gestures of a corpus whose one member holds `records` (stored, as the writer stores).
    static func gestures(records: ByteWriter) throws -> (
        gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)], problems: [PanTraceError]
    ) {
        var corpus: [UInt8] = []
        GzipDeflater(level: 0).appendMember(of: records.bytes, to: &corpus)
        return try gestures(bytes: corpus)
    }

    static func gestures(bytes: [UInt8], reader: TraceReader = TraceReader()) throws -> (
        gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)], problems: [PanTraceError]
    ) {
        var gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)] = []
        var samples: [PanSample] = []
        let problems = try CorpusReader(reader: reader).decode(bytes, file: "c.pantraces", samples: &samples) { gesture, outcome, samples in
            gestures.append(
                (
                    gesture,
                    outcome.map {
                        var file = $0
                        file.trace.samples = samples
                        return file
                    }
                ))
        }
        return (gestures, problems)
    }

    /// The `.pantrace` files under `folder`, relative path → bytes.
    static func files(under folder: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in TraceFolder.list(folder, formats: [.pantrace]).files {
            files[name] = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
        }
        return files
    }

    /// Synthetic gestures written as the archive writer writes them, under two subfolders.
    static func synthesizedFolder(_ folder: String, count: Int) throws -> [String: Trace] {
        var traces: [String: Trace] = [:]
        for i in 0..<count {
            let trace = TestTraces.synthetic(i)
            let relative = "\(i % 2 == 0 ? "even" : "odd")/\(trace.metadata.id).pantrace"
            try FileManager.default.createDirectory(atPath: folder + "/" + (i % 2 == 0 ? "even" : "odd"), withIntermediateDirectories: true)
            try TraceEncoder.write(trace, to: folder + "/" + relative)
            traces[relative] = trace
        }
        return traces
    }

    @Test func theBundledRecordingsRoundTripByteForByteAndSampleForSample() throws {
        try withTemporaryFolder("corpus") { folder in
            // The bundled folders only: `live/` is what `make serve` recorded on this machine.
            let recordings = folder + "/recordings"
            try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
            for name in ["real", "synthetic"] {
                try FileManager.default.copyItem(
                    atPath: FormatVersionTests.root.appendingPathComponent("recordings/\(name)").path, toPath: recordings + "/" + name)
            }
            let corpus = folder + "/all.pantraces"
            let packed = try CorpusFolder.pack(folder: recordings, into: corpus)
            #expect(packed.problems.isEmpty)
            let originals = try Self.files(under: recordings)
            #expect(originals.count >= 80)
            #expect(packed.gestures == originals.count)
            // gzip -t's view: the corpus is a sequence of whole gzip members.
            _ = try Gzip.decompress(Array(try Data(contentsOf: URL(fileURLWithPath: corpus))))
            // Every gesture reads as the same trace as its file.
            let read = try Self.gestures(corpus)
            #expect(read.problems.isEmpty)
            #expect(read.gestures.count == originals.count)
            for (gesture, outcome) in read.gestures {
                let file = try outcome.get()
                let original = try TraceReader().read(contentsOf: recordings + "/" + gesture.name + ".pantrace")
                #expect(file.trace == original.trace, "\(gesture.name)")
                #expect(file.isComplete)
            }
            let unpacked = try CorpusFolder.unpack(corpus: corpus, into: folder + "/out")
            #expect(unpacked.problems.isEmpty)
            #expect(try Self.files(under: folder + "/out") == originals)
        }
    }

    @Test func filesTheArchiveWriterWroteArePackedAndComeBackByteForByte() throws {
        try withTemporaryFolder("corpus") { folder in
            let traces = try Self.synthesizedFolder(folder + "/in", count: 40)
            let corpus = folder + "/s.pantraces"
            let report = try CorpusFolder.pack(folder: folder + "/in", into: corpus)
            #expect(report.packed == 40 && report.verbatim == 0 && report.problems.isEmpty)
            let originals = try Self.files(under: folder + "/in")
            let corpusBytes = try FileDescriptor.readAll(corpus, limit: 1 << 30)
            // Packed gestures share gzip members: the corpus is smaller than the files it holds.
            #expect(corpusBytes.count < originals.values.map(\.count).reduce(0, +))
            let read = try Self.gestures(corpus)
            for (gesture, outcome) in read.gestures {
                #expect(gesture.storage == .packed)
                #expect(try outcome.get().trace == TestTraces.snapped(traces[gesture.name + ".pantrace"]!))
            }
            let back = try CorpusFolder.unpack(corpus: corpus, into: folder + "/out")
            #expect(back.packed == 40 && back.problems.isEmpty)
            #expect(try Self.files(under: folder + "/out") == originals)
        }
    }

    @Test func liveGesturesReadBackAndExtractAsTheBytesARecordingWrites() throws {
        try withTemporaryFolder("corpus") { folder in
            let corpus = folder + "/live.pantraces"
            let writer = try CorpusWriter(creatingFileAt: corpus, publication: .atFirstWrite)
            let first = TestTraces.synthetic(1), second = TestTraces.synthetic(2), third = TestTraces.everyField()
            #expect(try writer.add(first, name: "packed/one") == .packed)
            let live = try writer.beginLive(name: "live/two", metadata: second.metadata)
            try live.append(contentsOf: second.samples)
            try live.finish()
            #expect(try writer.add(third, name: "three") == .packed)
            try writer.finish()
            // The same gesture recorded into a file of its own.
            let file = folder + "/two.pantrace"
            let alone = try TraceWriter(creatingFileAt: file, metadata: second.metadata)
            try alone.append(contentsOf: second.samples)
            try alone.finish()
            let read = try Self.gestures(corpus)
            #expect(read.problems.isEmpty)
            #expect(read.gestures.map(\.0.storage) == [.packed, .live, .packed])
            #expect(read.gestures.map(\.0.index) == [0, 1, 2])
            #expect(try read.gestures[1].1.get().trace == TestTraces.snapped(second))
            #expect(try read.gestures[2].1.get().trace == TestTraces.snapped(third))
            let back = try CorpusFolder.unpack(corpus: corpus, into: folder + "/out")
            #expect(back.live == 1 && back.problems.isEmpty)
            #expect(try FileDescriptor.readAll(folder + "/out/live/two.pantrace", limit: 1 << 20) == FileDescriptor.readAll(file, limit: 1 << 20))
        }
    }

    /// A corpus of two packed gestures then two live ones, and the range each gesture's bytes end at.
    static func mixedCorpus(_ path: String) throws -> [Trace] {
        let writer = try CorpusWriter(creatingFileAt: path, publication: .atFirstWrite)
        let traces = (0..<4).map { TestTraces.synthetic($0) }
        try writer.add(traces[0], name: "a")
        try writer.add(traces[1], name: "b")
        for (i, trace) in traces[2...].enumerated() {
            let live = try writer.beginLive(name: "live-\(i)", metadata: trace.metadata)
            try live.append(contentsOf: trace.samples)
            try live.finish()
        }
        try writer.finish()
        return traces
    }

    /// Cut at every byte: nothing traps, every gesture whose bytes end before the cut reads
    /// whole, a gesture cut in its own chunks yields its whole chunks, and whatever is lost
    /// is named with the file, the gesture index and a byte offset.
    @Test func aCorpusCutAtAnyByteLosesAtMostTheGestureTheCutIsIn() throws {
        try withTemporaryFolder("corpus") { folder in
            let path = folder + "/cut.pantraces"
            let traces = try Self.mixedCorpus(path).map(TestTraces.snapped)
            let bytes = try FileDescriptor.readAll(path, limit: 1 << 30)
            let whole = try Self.gestures(bytes: bytes)
            let firstMemberEnd = whole.gestures[2].0.byteOffset  // the packed gestures' chunk ends where the live record starts
            for cut in 1..<bytes.count {
                let prefix = Array(bytes[..<cut])
                guard cut >= firstMemberEnd else {
                    // The first chunk holds the corpus header: a cut there is no corpus yet.
                    #expect(throws: PanTraceError.self) { try Self.gestures(bytes: prefix) }
                    continue
                }
                let read = try Self.gestures(bytes: prefix)
                for (gesture, outcome) in read.gestures {
                    let original = traces[gesture.index]
                    switch outcome {
                    case .success(let file):
                        #expect(Array(original.samples.prefix(file.trace.samples.count)) == file.trace.samples, "cut \(cut)")
                        if let range = whole.gestures[gesture.index].0.fileRange, range.upperBound <= cut {
                            #expect(file.isComplete && file.trace == original, "cut \(cut)")
                        }
                        for warning in file.warnings { #expect(warning.gesture == gesture.index && warning.file == "c.pantraces") }
                    case .failure(let error):
                        #expect(error.gesture == gesture.index && error.byteOffset != nil && error.file == "c.pantraces", "cut \(cut)")
                    }
                }
                // Every gesture that ended before the cut is there.
                let ended = whole.gestures.filter { ($0.0.fileRange?.upperBound ?? firstMemberEnd) <= cut }.count
                #expect(read.gestures.count >= ended, "cut \(cut)")
                for problem in read.problems { #expect(problem.gesture != nil && problem.byteOffset != nil && problem.file == "c.pantraces") }
            }
        }
    }

    /// Every byte flipped in turn: nothing traps, every problem names the file, a gesture and
    /// a byte offset, and a gesture that reads complete is the gesture written.
    @Test func aCorpusWithAnyByteDamagedNamesWhatItLosesAndKeepsTheRest() throws {
        try withTemporaryFolder("corpus") { folder in
            let path = folder + "/flip.pantraces"
            let traces = try Self.mixedCorpus(path).map(TestTraces.snapped)
            let bytes = try FileDescriptor.readAll(path, limit: 1 << 30)
            for at in bytes.indices {
                var damaged = bytes
                damaged[at] ^= 0x41
                guard let read = try? Self.gestures(bytes: damaged) else { continue }  // member 0: not a corpus, one error
                for (gesture, outcome) in read.gestures {
                    switch outcome {
                    case .success(let file):
                        if file.isComplete { #expect(file.trace == traces[gesture.index], "byte \(at)") }
                    case .failure(let error):
                        #expect(error.file == "c.pantraces" && error.gesture == gesture.index && error.byteOffset != nil, "byte \(at)")
                    }
                }
                for problem in read.problems {
                    #expect(problem.file == "c.pantraces" && problem.byteOffset != nil, "byte \(at): \(problem)")
                }
                // Whatever the damage, the gestures it does not touch are all there.
                #expect(read.gestures.count + read.problems.count >= 2, "byte \(at)")
            }
        }
    }

    @Test func aCorruptChunkOfPackedGesturesIsNamedAndTheLiveGesturesAfterItStillRead() throws {
        try withTemporaryFolder("corpus") { folder in
            let path = folder + "/bad.pantraces"
            let traces = try Self.mixedCorpus(path).map(TestTraces.snapped)
            var bytes = try FileDescriptor.readAll(path, limit: 1 << 30)
            // Three chunks of records after the live gestures: gesture 4 (damaged), 5, and 5 again.
            let payload = CorpusFormat.packed(try TraceEncoder().encodePayloads(traces[0], name: "x"))
            func member(_ index: Int) -> [UInt8] {
                var record = ByteWriter()
                CorpusFormat.encodeGesture(index: index, name: "x", storage: .packed, length: payload.count, into: &record)
                record.raw(payload)
                var member: [UInt8] = []
                GzipDeflater(level: 0).appendMember(of: record.bytes, to: &member)
                return member
            }
            let damagedAt = bytes.count
            bytes += member(4)
            bytes[damagedAt + 40] ^= 0x5a
            let fifthAt = bytes.count
            bytes += member(5)
            let againAt = bytes.count
            bytes += member(5)
            let read = try Self.gestures(bytes: bytes)
            #expect(read.gestures.map(\.0.index) == [0, 1, 2, 3, 5])
            for (gesture, outcome) in read.gestures { #expect(try outcome.get().trace == traces[gesture.index % 5 == 0 ? 0 : gesture.index]) }
            #expect(try read.gestures[3].1.get().isComplete)
            #expect(read.problems.map(\.description).count == 3)
            #expect(read.problems[0].description.hasPrefix("c.pantraces: gesture 4 at byte \(damagedAt): corrupt chunk"))
            #expect(
                read.problems[1].description
                    == "c.pantraces: at byte \(fifthAt): bad corpus: gestures 4…4 are missing before this record (their chunks were lost or removed)")
            #expect(
                read.problems[2].description.hasPrefix(
                    "c.pantraces: gesture 6 at byte \(againAt): bad corpus: gesture index 5 where 6 or more belongs"))
        }
    }

    @Test func aDamagedLiveGestureIsNamedAndTheOthersStillRead() throws {
        try withTemporaryFolder("corpus") { folder in
            let path = folder + "/bad.pantraces"
            let traces = try Self.mixedCorpus(path).map(TestTraces.snapped)
            var bytes = try FileDescriptor.readAll(path, limit: 1 << 30)
            let whole = try Self.gestures(bytes: bytes)
            let range = try #require(whole.gestures[2].0.fileRange)
            bytes[range.lowerBound + 20] ^= 0xff  // inside the live gesture's first chunk
            let read = try Self.gestures(bytes: bytes)
            #expect(read.problems.isEmpty)
            #expect(read.gestures.count == 4)
            for (gesture, outcome) in read.gestures where gesture.index != 2 { #expect(try outcome.get().trace == traces[gesture.index]) }
            let error = try #require(read.gestures[2].1.failure)
            #expect(error.description.hasPrefix("c.pantraces: gesture 2 (live-0) chunk 0 at byte \(range.lowerBound): corrupt chunk"))
        }
    }

    @Test func aPackedGestureWithABadHeaderIsNamedAndTheOthersStillRead() throws {
        var bytes = ByteWriter()
        CorpusFormat.encodeHeader(into: &bytes)
        let good = Array(CorpusFormat.packed(try TraceEncoder().encodePayloads(TestTraces.synthetic(0), name: "g")))
        var bad = good
        bad[0] = 9  // the header's version (its magic is left out): newer than any this reader knows
        for (index, payload) in [good, bad, good].enumerated() {
            CorpusFormat.encodeGesture(index: index, name: "g\(index)", storage: .packed, length: payload.count, into: &bytes)
            bytes.raw(payload)
        }
        let read = try Self.gestures(records: bytes)
        #expect(read.problems.isEmpty)
        #expect(read.gestures.count == 3)
        #expect(throws: Never.self) { try read.gestures[0].1.get() }
        #expect(throws: Never.self) { try read.gestures[2].1.get() }
        let error = try #require(read.gestures[1].1.failure)
        #expect(error.description.hasPrefix("c.pantraces: gesture 1 (g1) at byte 0: format version 9"))
    }

    @Test func gesturesWithTheSameHeaderStoreItOnceAndABadSharedIndexCostsOnlyItsGesture() throws {
        try withTemporaryFolder("corpus") { folder in
            var traces: [Trace] = []
            for name in ["a", "b", "c"] {
                var trace = TestTraces.synthetic(0)
                trace.metadata.id = name
                traces.append(TestTraces.snapped(trace))
            }
            let alone = folder + "/one.pantraces", three = folder + "/three.pantraces"
            for (path, count) in [(alone, 1), (three, 3)] {
                let writer = try CorpusWriter(creatingFileAt: path, publication: .atFinish)
                for trace in traces.prefix(count) { try writer.add(trace, name: trace.metadata.id) }
                try writer.finish()
            }
            let one = try FileDescriptor.readAll(alone, limit: 1 << 20).count
            let all = try FileDescriptor.readAll(three, limit: 1 << 20)
            let payloads = Array(CorpusFormat.packed(try TraceEncoder().encodePayloads(traces[0], name: "a")))
            var r = ByteReader(HeaderFormat.magic + payloads)
            _ = try ChunkPayload.decodeHeader(&r, name: "a")
            let header = r.offset - HeaderFormat.magic.count
            // The second and third gestures leave their header out (less a byte for its index).
            #expect(all.count - one < 2 * (payloads.count - header + 12))
            let read = try Self.gestures(bytes: all)
            #expect(read.problems.isEmpty)
            #expect(try read.gestures.map { try $0.1.get().trace } == traces)
            // A record sharing a header its chunk does not have: that gesture alone fails.
            var records = ByteWriter()
            CorpusFormat.encodeHeader(into: &records)
            CorpusFormat.encodeGesture(index: 0, name: "a", storage: .packed, sharing: .kept(length: header), length: payloads.count, into: &records)
            records.raw(payloads)
            let rest = payloads[header...]
            CorpusFormat.encodeGesture(index: 1, name: "b", storage: .packed, sharing: .shared(index: 3), length: rest.count, into: &records)
            records.raw(rest)
            CorpusFormat.encodeGesture(index: 2, name: "c", storage: .packed, sharing: .shared(index: 0), length: rest.count, into: &records)
            records.raw(rest)
            let damaged = try Self.gestures(records: records)
            #expect(damaged.problems.isEmpty)
            #expect(try damaged.gestures[0].1.get().trace == traces[0])
            #expect(try damaged.gestures[2].1.get().trace == traces[2])
            let error = try #require(damaged.gestures[1].1.failure)
            #expect(error.description == "c.pantraces: gesture 1 (b) at byte 0: bad corpus: shared header 3 where the chunk has kept 1")
        }
    }

    /// A header several gestures share is decoded once; each gesture still reads exactly as
    /// its bytes would as a file (the magic, the kept header, then its own): the stored id
    /// here, and the same trace. A kept header declared shorter or longer than the header it
    /// starts (its bytes do not decode alone to exactly their length) is decoded with each
    /// gesture instead, and reads the same.
    @Test(arguments: [-2, 0, 2])
    func aSharedHeaderIsDecodedOnceAndReadsAsTheFileWould(lengthError: Int) throws {
        var stored = TestTraces.snapped(TestTraces.synthetic(1))
        stored.metadata.id = "kept-id"
        let payloads = Array(CorpusFormat.packed(try TraceEncoder().encodePayloads(stored, name: "a")))
        var r = ByteReader(HeaderFormat.magic + payloads)
        _ = try ChunkPayload.decodeHeader(&r, name: "a")
        let header = r.offset - HeaderFormat.magic.count
        let declared = header + lengthError
        var records = ByteWriter()
        CorpusFormat.encodeHeader(into: &records)
        CorpusFormat.encodeGesture(index: 0, name: "a", storage: .packed, sharing: .kept(length: declared), length: payloads.count, into: &records)
        records.raw(payloads)
        let rest = Array(payloads[declared...])
        for (index, name) in ["b", "c"].enumerated() {
            CorpusFormat.encodeGesture(
                index: index + 1, name: name, storage: .packed, sharing: .shared(index: 0), length: rest.count, into: &records)
            records.raw(rest)
        }
        let read = try Self.gestures(records: records)
        #expect(read.problems.isEmpty && read.gestures.count == 3)
        for (gesture, outcome) in read.gestures.dropFirst() {
            // The gesture as a file of its bytes, its header decoded with it.
            var samples: [PanSample] = []
            let alone = Result { () throws(PanTraceError) -> TraceFile in
                var file = try TraceReader().decodePayloads(HeaderFormat.magic + payloads[..<declared] + rest, into: &samples, name: gesture.name)
                file.trace.samples = samples
                return file
            }
            switch (outcome, alone) {
            case (.success(let file), .success(let expected)):
                #expect(file.trace == expected.trace)
                #expect(file.trace.metadata.id == "kept-id")
            case (.failure(let error), .failure(let expected)):
                #expect(error.code == expected.code)
            default:
                Issue.record("gesture \(gesture.name): \(outcome) against \(alone)")
            }
        }
        if lengthError == 0 {
            #expect(try read.gestures.map { try $0.1.get().trace } == [stored, stored, stored])
        }
    }

    @Test func whatIsNotACorpusIsOneLine() throws {
        let single = try TraceEncoder.encode(TestTraces.synthetic(0))
        var samples: [PanSample] = []
        let reader = CorpusReader()
        func problem(_ bytes: [UInt8]) -> String {
            do {
                try reader.decode(bytes, file: "x.pantraces", samples: &samples) { _, _, _ in }
                return "read"
            } catch {
                return error.description
            }
        }
        #expect(problem([]) == "x.pantraces: empty file")
        #expect(problem(single) == "x.pantraces: chunk 0 at byte 0: bad corpus: a .pantrace file (one gesture), not a corpus")
        #expect(problem(Array("hello".utf8)).hasPrefix("x.pantraces: chunk 0 at byte 0: not a .pantrace file"))
        var newer = ByteWriter()
        newer.raw(CorpusFormat.magic)
        newer.varint(2)
        var member: [UInt8] = []
        GzipDeflater(level: 0).appendMember(of: newer.bytes, to: &member)
        #expect(problem(member).contains("corpus version 2 is not one this pantrace reads"))
    }

    @Test func badGestureNamesAreRefusedByTheWriterAndTheReader() throws {
        try withTemporaryFolder("corpus") { folder in
            let writer = try CorpusWriter(creatingFileAt: folder + "/n.pantraces", publication: .atFinish)
            for name in ["", "../up", "/abs", "a//b", ".hidden", "a/", "a/./b"] {
                #expect(throws: PanTraceError.self, "\(name)") { try writer.add(TestTraces.synthetic(0), name: name) }
            }
            try writer.finish()
            // A record naming ../escape: the reader refuses it and reads the records of later chunks.
            var records = ByteWriter()
            CorpusFormat.encodeHeader(into: &records)
            let payload = Array(CorpusFormat.packed(try TraceEncoder().encodePayloads(TestTraces.synthetic(0), name: "z")))
            CorpusFormat.encodeGesture(index: 0, name: "../escape", storage: .packed, length: payload.count, into: &records)
            records.raw(payload)
            var next = ByteWriter()
            CorpusFormat.encodeGesture(index: 1, name: "fine", storage: .packed, length: payload.count, into: &next)
            next.raw(payload)
            var bytes: [UInt8] = []
            GzipDeflater(level: 0).appendMember(of: records.bytes, to: &bytes)
            GzipDeflater(level: 0).appendMember(of: next.bytes, to: &bytes)
            let read = try Self.gestures(bytes: bytes)
            #expect(read.gestures.map(\.0.name) == ["fine"])
            #expect(read.problems.count == 2)
            #expect(read.problems[0].description.contains("gesture 0 at byte 0: bad corpus: gesture name \"../escape\" has a hidden part"))
            #expect(read.problems[1].description.contains("gestures 0…0 are missing before this record"))
        }
    }

    @Test func namesBeyondASCIIRoundTripAndBytesThatAreNotUTF8AreRefused() throws {
        try withTemporaryFolder("corpus") { folder in
            let path = folder + "/u.pantraces"
            let writer = try CorpusWriter(creatingFileAt: path, publication: .atFinish)
            try writer.add(TestTraces.synthetic(0), name: "día/ünïcode")
            try writer.add(TestTraces.synthetic(1), name: "día/ascii")
            try writer.finish()
            #expect(try Self.gestures(path).gestures.map(\.0.name) == ["día/ünïcode", "día/ascii"])
            var records = ByteWriter()
            CorpusFormat.encodeHeader(into: &records)
            let payload = Array(CorpusFormat.packed(try TraceEncoder().encodePayloads(TestTraces.synthetic(0), name: "a")))
            records.raw([CorpusFormat.gestureRecord, 0, 0, 2, 0xc3, 0x28, 0])  // index 0, 2 name bytes that are not UTF-8, packed
            records.varint(UInt64(payload.count))
            records.raw(payload)
            var bytes: [UInt8] = []
            GzipDeflater(level: 0).appendMember(of: records.bytes, to: &bytes)
            let read = try Self.gestures(bytes: bytes)
            #expect(read.gestures.isEmpty)
            #expect(read.problems.map(\.description) == ["c.pantraces: gesture 0 at byte 0: bad corpus: a gesture name that is not UTF-8"])
        }
    }

    @Test func anEmptyCorpusIsValidAndALiveGestureThatWroteNothingLeavesNoRecord() throws {
        try withTemporaryFolder("corpus") { folder in
            let empty = folder + "/empty.pantraces"
            let writer = try CorpusWriter(creatingFileAt: empty, publication: .atFinish)
            try writer.finish()
            #expect(try Self.gestures(empty).gestures.isEmpty)
            let path = folder + "/abandoned.pantraces"
            let corpus = try CorpusWriter(creatingFileAt: path, publication: .atFirstWrite)
            do {
                _ = try corpus.beginLive(name: "nothing", metadata: TestTraces.synthetic(0).metadata)
            }
            try corpus.add(TestTraces.synthetic(1), name: "one")
            try corpus.finish()
            let read = try Self.gestures(path)
            #expect(read.problems.isEmpty)
            #expect(read.gestures.map(\.0.name) == ["one"])
            #expect(read.gestures.map(\.0.index) == [0])
        }
    }
    /// One gesture decoded from its chunk alone (the bytes from the chunk on) equals what reading
    /// the whole corpus gives, for packed gestures sharing headers and for live ones; a wrong
    /// index or name is an error naming the gesture.
    @Test func aGestureDecodedFromItsChunkAloneEqualsTheWholeRead() throws {
        try withTemporaryFolder("corpus-one") { folder in
            let path = folder + "/c.pantraces"
            let writer = try CorpusWriter(creatingFileAt: path, publication: .atFinish)
            for i in 0..<40 { try writer.add(TestTraces.synthetic(i), name: "set/g-\(i)") }
            let live = try writer.beginLive(name: "live", metadata: TestTraces.synthetic(40).metadata)
            try live.append(contentsOf: TestTraces.synthetic(40).samples)
            try live.finish()
            try writer.finish()
            var whole: [(CorpusGesture, TraceFile)] = []
            try CorpusReader().read(contentsOf: path) { gesture, outcome in whole.append((gesture, try! outcome.get())) }
            #expect(whole.count == 41)
            let reader = CorpusReader()
            for (gesture, file) in whole {
                let one = try reader.gesture(inFile: path, chunkOffset: gesture.byteOffset, index: gesture.index, name: gesture.name)
                #expect(one.trace == file.trace, "\(gesture.name)")
            }
            let last = whole[39].0
            #expect(throws: PanTraceError.self) {
                _ = try reader.gesture(inFile: path, chunkOffset: last.byteOffset, index: 39, name: "set/g-38")
            }
            do {
                _ = try reader.gesture(inFile: path, chunkOffset: last.byteOffset, index: 39, name: "set/g-38")
            } catch {
                #expect("\(error)".contains("set/g-38") && "\(error)".contains("changed since"), "\(error)")
            }
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A corpus file is read a window at a time: whatever the window's size, reading the file
/// gives what decoding all its bytes at once gives, whole or damaged.
@Suite struct CorpusWindowTests {
    /// Every field a reader reports, as text, gesture by gesture and problem by problem.
    static func report(
        _ gestures: [(CorpusGesture, Result<TraceFile, PanTraceError>)], _ problems: [PanTraceError]
    ) -> [String] {
        gestures.map { gesture, outcome in
            let what: String
            switch outcome {
            case .success(let file):
                what =
                    "ok \(file.trace.metadata.id) \(file.trace.samples.count) samples, hash \(file.trace.hashValue), complete \(file.isComplete) warnings \(file.warnings.map(\.description))"
            case .failure(let error): what = "error \(error.description) \(String(describing: error.byteOffset))"
            }
            return "\(gesture.index) \(gesture.name) \(gesture.storage) \(gesture.byteOffset) \(String(describing: gesture.fileRange)) \(what)"
        } + problems.map { "problem \($0.description) \(String(describing: $0.byteOffset)) \(String(describing: $0.gesture))" }
    }

    @Test(arguments: [7, 64, 4096])
    func readingInWindowsGivesWhatReadingWholeGives(windowBytes: Int) throws {
        try withTemporaryFolder("corpus-window") { folder in
            let path = folder + "/mixed.pantraces"
            // Packed gestures, then live ones, each live gesture its own members: many windows.
            let writer = try CorpusWriter(creatingFileAt: path, publication: .atFirstWrite)
            for index in 0..<3 { try writer.add(TestTraces.synthetic(index), name: "packed-\(index)") }
            for index in 3..<15 {
                let trace = TestTraces.synthetic(index)
                let live = try writer.beginLive(name: "live-\(index)", metadata: trace.metadata)
                try live.append(contentsOf: trace.samples)
                try live.finish()
            }
            try writer.finish()
            // Small chunks, so a member's reach (twice the chunk limit) is far less than the file.
            let traceReader = TraceReader(configuration: .init(maximumChunkBytes: 4096))
            let bytes = try FileDescriptor.readAll(path, limit: 1 << 30)
            var variants: [[UInt8]] = [bytes]
            for cut in stride(from: bytes.count / 3, to: bytes.count, by: max(1, bytes.count / 9)) { variants.append(Array(bytes[..<cut])) }
            for at in stride(from: bytes.count / 4, to: bytes.count, by: max(1, bytes.count / 13)) {
                var damaged = bytes
                damaged[at] ^= 0x41
                variants.append(damaged)
            }
            // Bytes that are no gzip member between two members, longer than a window.
            let second = try CorpusTests.gestures(bytes: bytes, reader: traceReader)
            #expect(bytes.count > 4096 && second.gestures.count == 15 && second.problems.isEmpty, "\(bytes.count) bytes")
            if let live = second.gestures.first(where: { $0.0.storage == .live })?.0.byteOffset {
                variants.append(Array(bytes[..<live]) + [UInt8](repeating: 0x1f, count: 3 * windowBytes) + Array(bytes[live...]))
            }
            for (number, variant) in variants.enumerated() {
                let file = folder + "/variant-\(number).pantraces"
                try FileDescriptor.writeNew(file, variant)
                let reader = CorpusReader(reader: traceReader)
                reader.windowBytes = windowBytes
                var windowed: [(CorpusGesture, Result<TraceFile, PanTraceError>)] = []
                let windowedProblems: [PanTraceError]
                do throws(PanTraceError) {
                    windowedProblems = try reader.read(contentsOf: file) { windowed.append(($0, $1)) }
                } catch {
                    // Not a corpus at all: the whole bytes say so too, in the same words.
                    var samples: [PanSample] = []
                    #expect(throws: error) { try CorpusReader(reader: traceReader).decode(variant, file: file, samples: &samples) { _, _, _ in } }
                    continue
                }
                var whole: [(CorpusGesture, Result<TraceFile, PanTraceError>)] = []
                var samples: [PanSample] = []
                let wholeProblems = try CorpusReader(reader: traceReader).decode(variant, file: file, samples: &samples) {
                    gesture, outcome, samples in
                    whole.append(
                        (
                            gesture,
                            outcome.map { file in
                                var file = file
                                file.trace.samples = samples
                                return file
                            }
                        ))
                }
                // Flat: never more than a member's reach (twice the chunk limit and a window) at once.
                #expect(reader.largestWindow <= 2 * 4096 + windowBytes, "variant \(number), window \(windowBytes)")
                #expect(variant.count < 2 * 4096 + windowBytes || reader.largestWindow < variant.count)
                let (mine, theirs) = (Self.report(windowed, windowedProblems), Self.report(whole, wholeProblems))
                let first = zip(mine, theirs).first { $0.0 != $0.1 }
                #expect(mine.count == theirs.count && first == nil, "variant \(number), window \(windowBytes): \(String(describing: first))")
            }
        }
    }
}
