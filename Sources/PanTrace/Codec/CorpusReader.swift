/// Reads corpus files (`.pantraces`, docs/FORMAT.md §11), gesture by gesture, treating every
/// file as hostile.
///
/// A damaged gesture costs that gesture only: each one is decoded on its own and its outcome
/// handed to the caller, an error naming the file, the gesture's index and name, and the byte
/// offset. Damage between gestures (a corrupt chunk of records, a file cut off) is reported
/// as a problem naming the gestures it loses, and reading goes on at the next gzip member.
/// Use one reader per thread; it keeps its buffers between gestures and files.
public final class CorpusReader {
    /// Reads each gesture; its configuration's limits apply to every gesture and to the
    /// corpus file as a whole (file size, chunk size), its policies (salvage, strict) to each
    /// gesture's own chunks.
    public let reader: TraceReader
    private let inflater = GzipInflater()
    private var member: [UInt8] = []
    private var probe: [UInt8] = []
    /// A packed gesture's payloads with the header's magic put back, reused from one to the next.
    private var packed: [UInt8] = []
    /// Set by ``stop()``: the read in progress ends after the gesture being visited.
    private var isStopping = false

    /// The least each read of a corpus file takes (tests make it small to cross many windows).
    package var windowBytes = CorpusWindow.windowBytes
    /// The most bytes of the last corpus file read that were held at once.
    package private(set) var largestWindow = 0

    /// Creates a reader.
    public init(reader: TraceReader = TraceReader()) {
        self.reader = reader
    }

    /// Called from a `visit`: the read ends after this gesture, as if the file ended there
    /// (no problem is reported for what is not read).
    public func stop() {
        isStopping = true
    }

    /// Decodes only the gesture with `index` and `name` whose record is in the chunk starting
    /// at byte `chunkOffset` of the corpus file at `path` (its ``CorpusGesture/byteOffset``,
    /// as an earlier read found it): one chunk is inflated, not the corpus, and the file is
    /// read a window at a time from there (a verbatim or live gesture's file follows its
    /// record's chunk, and is read as far as it goes).
    /// - Throws: ``PanTraceError`` naming the file and gesture when that chunk does not hold
    ///   the gesture (the file changed since) or the gesture cannot be decoded.
    public func gesture(inFile path: String, chunkOffset: Int, index: Int, name: String) throws(PanTraceError) -> TraceFile {
        let window = try CorpusWindow(path: path, loadBytes: windowBytes)
        var scan = CorpusScan(window: window, file: path)
        func named(_ error: PanTraceError) -> PanTraceError {
            var error = error
            error.gesture = index
            error.gestureName = name
            return error
        }
        let changed = named(
            scan.located(
                PanTraceError(.badCorpus("no chunk of gesture records starts here (the corpus changed since it was read)"), byteOffset: chunkOffset)))
        guard chunkOffset >= 0, chunkOffset < window.count, try window.startsMember(at: chunkOffset) else { throw changed }
        var member = self.member
        self.member = []
        defer { self.member = member }
        guard
            case .complete(let consumed) = try window.inflateMember(
                inflater, at: chunkOffset, limit: reader.configuration.maximumChunkBytes, into: &member)
        else { throw changed }
        scan.offset = chunkOffset + consumed
        var r = ByteReader(member)
        if chunkOffset == 0 {
            // The first chunk: the corpus header before its records.
            guard member.starts(with: CorpusFormat.magic) else { throw changed }
            do throws(PanTraceError) {
                _ = try r.raw(CorpusFormat.magic.count)
                _ = try r.count("corpus version", limit: Int(Int32.max))
            } catch {
                throw changed
            }
        } else if member.first != CorpusFormat.gestureRecord {
            throw changed
        }
        var samples: [PanSample] = []
        var found: Result<TraceFile, PanTraceError>?
        isStopping = false
        defer { isStopping = false }
        try records(&r, ofMemberAt: chunkOffset, &scan, &samples, only: index) { gesture, outcome, samples in
            guard gesture.index == index else { return }
            if gesture.name == name {
                found = outcome.map { file in
                    var file = file
                    file.trace.samples = samples
                    file.warnings = file.warnings.map(named)
                    return file
                }
            }
            stop()
        }
        guard let found else {
            throw named(
                scan.located(
                    PanTraceError(
                        .badCorpus("the chunk here does not hold this gesture (the corpus changed since it was read)"), byteOffset: chunkOffset)))
        }
        switch found {
        case .success(let file): return file
        case .failure(let error): throw named(error)
        }
    }

    /// Reads the corpus at `path`, calling `visit` with each gesture and its trace (samples
    /// included) or the error that stopped it, in file order.
    /// - Returns: the problems found between gestures (each names the gestures it loses).
    /// - Throws: ``PanTraceError`` when the file cannot be read or is not a corpus at all.
    @discardableResult
    public func read(
        contentsOf path: String, visit: (CorpusGesture, Result<TraceFile, PanTraceError>) -> Void
    ) throws(PanTraceError) -> [PanTraceError] {
        // Read a window at a time: a corpus may be larger than memory or the one-file limit.
        let window = try CorpusWindow(path: path, loadBytes: windowBytes)
        defer { largestWindow = window.largestBuffer }
        var samples: [PanSample] = []
        return try decode(window, file: path, samples: &samples, handsOverSamples: true) { gesture, outcome, samples in
            visit(
                gesture,
                outcome.map { file in
                    var file = file
                    file.trace.samples = samples
                    return file
                })
        }
    }

    /// Decodes a corpus held in memory. Each gesture's samples go into `samples` (replaced
    /// for every gesture, keeping its capacity) and are handed to `visit` beside the
    /// gesture's ``TraceFile``, whose trace has no samples of its own. `file` names the
    /// corpus in errors and warnings.
    /// - Returns: the problems found between gestures.
    /// - Throws: ``PanTraceError`` when the bytes are not a corpus (empty, no gzip member, no
    ///   corpus header in the first chunk, a newer corpus version).
    @discardableResult
    public func decode(
        _ bytes: [UInt8], file: String? = nil, samples: inout [PanSample],
        visit: (CorpusGesture, Result<TraceFile, PanTraceError>, [PanSample]) -> Void
    ) throws(PanTraceError) -> [PanTraceError] {
        try decode(CorpusWindow(bytes: bytes), file: file, samples: &samples, visit: visit)
    }

    private func decode(
        _ window: CorpusWindow, file: String?, samples: inout [PanSample], handsOverSamples: Bool = false,
        visit: (CorpusGesture, Result<TraceFile, PanTraceError>, [PanSample]) -> Void
    ) throws(PanTraceError) -> [PanTraceError] {
        var scan = CorpusScan(window: window, file: file)
        scan.handsOverSamples = handsOverSamples
        guard window.count > 0 else { throw scan.located(PanTraceError(.emptyFile)) }
        isStopping = false
        defer { isStopping = false }
        let maximumChunk = reader.configuration.maximumChunkBytes
        var member = self.member
        self.member = []
        defer { self.member = member }
        // The first chunk: the corpus header, then perhaps records.
        guard try window.startsMember(at: 0) else { throw scan.located(PanTraceError(.notGzip, chunk: 0, byteOffset: 0)) }
        switch try window.inflateMember(inflater, at: 0, limit: maximumChunk, into: &member) {
        case .complete(let consumed): scan.offset = consumed
        case .truncated: throw scan.located(PanTraceError(.truncated, chunk: 0, byteOffset: 0))
        case .overLimit: throw scan.located(PanTraceError(.chunkTooLarge(limit: maximumChunk), chunk: 0, byteOffset: 0))
        case .corrupt(let message, let at):
            throw scan.located(PanTraceError(.corruptChunk("\(message) (zlib, near byte \(at))"), chunk: 0, byteOffset: 0))
        }
        var r = ByteReader(member)
        guard member.starts(with: CorpusFormat.magic) else {
            let why =
                member.starts(with: HeaderFormat.magic)
                ? "a .pantrace file (one gesture), not a corpus" : "the first chunk does not start with PTCORPUS"
            throw scan.located(PanTraceError(.badCorpus(why), chunk: 0, byteOffset: 0))
        }
        do throws(PanTraceError) {
            _ = try r.raw(CorpusFormat.magic.count)
            let version = try r.count("corpus version", limit: Int(Int32.max))
            guard (1...CorpusFormat.version).contains(version) else {
                throw PanTraceError(
                    .badCorpus("corpus version \(version) is not one this pantrace reads (1…\(CorpusFormat.version)); upgrade pantrace"))
            }
        } catch {
            var located = scan.located(error)
            located.chunk = 0
            located.byteOffset = 0
            throw located
        }
        try records(&r, ofMemberAt: 0, &scan, &samples, visit)
        while scan.offset < window.count, !isStopping {
            let start = scan.offset
            guard try window.startsMember(at: start) else {
                if window.count - start < 3, try window.gzipPrefix(at: start) {
                    scan.lose(.truncated, at: start, until: window.count)
                } else {
                    scan.lose(.corruptChunk("bytes that are not a gzip member"), at: start, until: try window.nextMember(after: start))
                }
                continue
            }
            switch try window.inflateMember(inflater, at: start, limit: maximumChunk, into: &member) {
            case .complete(let consumed):
                scan.offset = start + consumed
            case .truncated:
                scan.lose(.truncated, at: start, until: window.count)
                continue
            case .overLimit:
                scan.lose(.chunkTooLarge(limit: maximumChunk), at: start, until: try window.nextMember(after: start))
                continue
            case .corrupt(let message, let at):
                scan.lose(.corruptChunk("\(message) (zlib, near byte \(at))"), at: start, until: try window.nextMember(after: start))
                continue
            }
            guard member.first == CorpusFormat.gestureRecord else {
                // A chunk of a gesture whose record was lost: part of what that loss reported.
                scan.lose(.corruptChunk("a gesture's chunk with no gesture record before it"), at: start, until: scan.offset, quietly: scan.isLosing)
                continue
            }
            scan.isLosing = false
            var r = ByteReader(member)
            try records(&r, ofMemberAt: start, &scan, &samples, visit)
        }
        return scan.problems
    }

    /// The gesture records of one corpus chunk, each decoded and visited; with `only`, the
    /// packed gestures of other indexes are stepped over (their headers kept for sharing) and
    /// not decoded.
    private func records(
        _ r: inout ByteReader, ofMemberAt start: Int, _ scan: inout CorpusScan, _ samples: inout [PanSample], only: Int? = nil,
        _ visit: (CorpusGesture, Result<TraceFile, PanTraceError>, [PanSample]) -> Void
    ) throws(PanTraceError) {
        let memberEnd = scan.offset
        var previousName: [UInt8] = []
        var keptHeaders: [ArraySlice<UInt8>] = []
        // Each kept header decoded once for the gestures that share it: nil until a gesture
        // shares it, then the header, or nil inside when its bytes do not decode alone to
        // exactly their length (each such gesture then decodes it as a file would).
        var sharedHeaders: [Int: DecodedHeader?] = [:]
        while !r.isAtEnd, !isStopping {
            var gesture: CorpusGesture
            var length: Int?
            var baseName: String
            var sharing: CorpusFormat.HeaderSharing
            do throws(PanTraceError) {
                (gesture, length, baseName, sharing) = try Self.record(&r, at: start, expected: scan.expected, previousName: &previousName)
            } catch {
                // The rest of the chunk cannot be found again: what it held is lost.
                var located = scan.located(error)
                located.gesture = scan.expected
                located.chunk = nil
                located.byteOffset = start
                scan.problems.append(located)
                scan.isLosing = true
                return
            }
            if gesture.index > scan.expected {
                scan.problems.append(
                    scan.located(
                        PanTraceError(
                            .badCorpus(
                                "gestures \(scan.expected)…\(gesture.index - 1) are missing before this record (their chunks were lost or removed)"),
                            byteOffset: start)))
            }
            scan.expected = gesture.index + 1
            switch gesture.storage {
            case .packed:
                let outcome: Result<TraceFile, PanTraceError>
                do throws(PanTraceError) {
                    packed.removeAll(keepingCapacity: true)
                    packed += HeaderFormat.magic
                    let bytes = try r.raw(length ?? 0)
                    var shared: DecodedHeader?
                    switch sharing {
                    case .none: break
                    case .kept(let headerLength):
                        guard headerLength <= bytes.count, keptHeaders.count < CorpusFormat.maximumKeptHeaders else {
                            throw PanTraceError(
                                .badCorpus(
                                    "a kept header of \(headerLength) bytes in a gesture of \(bytes.count), or more than \(CorpusFormat.maximumKeptHeaders) in a chunk"
                                ))
                        }
                        keptHeaders.append(bytes.prefix(headerLength))
                    case .shared(let index):
                        guard index < keptHeaders.count else {
                            throw PanTraceError(.badCorpus("shared header \(index) where the chunk has kept \(keptHeaders.count)"))
                        }
                        packed += keptHeaders[index]
                        if sharedHeaders[index] == nil {
                            var header = ByteReader(HeaderFormat.magic + keptHeaders[index])
                            let decoded = try? ChunkPayload.decodeHeaderFields(&header)
                            sharedHeaders[index] = .some(header.isAtEnd ? decoded : nil)
                        }
                        shared = sharedHeaders[index] ?? nil
                    }
                    packed += bytes
                    if let only, gesture.index != only { continue }
                    // Built in place, not mapped afterwards: a TraceFile copy retains every field.
                    outcome = .success(
                        scan.locating(
                            warningsOf: try reader.decodePayloads(packed, into: &samples, name: baseName, header: shared), gesture: gesture,
                            base: start))
                } catch {
                    var located = scan.located(error)
                    located.gesture = gesture.index
                    located.gestureName = gesture.name
                    located.chunk = nil
                    located.byteOffset = start
                    outcome = .failure(located)
                }
                visit(gesture, outcome, samples)
                if scan.handsOverSamples { samples = [] }
            case .verbatim, .live:
                guard r.isAtEnd else {
                    var problem = scan.located(
                        PanTraceError(
                            .badCorpus("\(r.remaining) bytes follow a \(gesture.storage.rawValue) gesture's record in its chunk"), byteOffset: start))
                    problem.gesture = gesture.index
                    problem.gestureName = gesture.name
                    scan.problems.append(problem)
                    return
                }
                let base = baseName
                var ends: [Int]
                let window = scan.window
                if let length {
                    ends = [min(memberEnd + min(length, window.count), window.count)]
                } else {
                    let (clean, extended) = try liveEnd(window, from: memberEnd)
                    ends = clean == extended ? [clean] : [clean, extended]
                }
                var outcome: Result<TraceFile, PanTraceError> = .failure(PanTraceError(.emptyFile))
                var kept: (file: TraceFile, samples: [PanSample], end: Int)?
                for end in ends {
                    gesture.fileRange = memberEnd..<end
                    scan.offset = end
                    do throws(PanTraceError) {
                        // A gesture is a file of its own: the one-file limit holds for it.
                        let limit = reader.configuration.maximumFileBytes
                        guard end - memberEnd <= limit else {
                            throw PanTraceError(.io("a gesture of \(end - memberEnd) bytes, larger than the \(limit)-byte file limit"), byteOffset: 0)
                        }
                        // Cut inside the gesture: its whole chunks read as a cut-off file's do.
                        let file = try reader.decode(try window.bytes(memberEnd..<end), into: &samples, name: base)
                        outcome = .success(file)
                        if file.isComplete { break }
                        if ends.count > 1 { kept = (file, samples, end) }
                    } catch {
                        outcome = .failure(scan.locating(error, gesture: gesture, base: memberEnd))
                    }
                }
                if case .failure = outcome, let kept {
                    // The damage after the gesture's whole chunks is not the gesture's own:
                    // it reads as far as it got, and the corpus reports the damage.
                    (outcome, samples, scan.offset) = (.success(kept.file), kept.samples, kept.end)
                    gesture.fileRange = memberEnd..<kept.end
                }
                visit(gesture, outcome.map { scan.locating(warningsOf: $0, gesture: gesture, base: memberEnd) }, samples)
            }
        }
    }

    /// Parses one gesture record; the storage's bytes (packed) are left for the caller.
    private static func record(
        _ r: inout ByteReader, at start: Int, expected: Int, previousName: inout [UInt8]
    ) throws(PanTraceError) -> (CorpusGesture, Int?, String, CorpusFormat.HeaderSharing) {
        let kind = try r.byte()
        guard kind == CorpusFormat.gestureRecord else {
            throw PanTraceError(.badCorpus("a record of kind 0x\(String(kind, radix: 16)) where a gesture record (G) belongs"))
        }
        let index = try r.count("gesture index", limit: Int(Int32.max))
        guard index >= expected else {
            throw PanTraceError(.badCorpus("gesture index \(index) where \(expected) or more belongs (indexes only increase)"))
        }
        let shared = try r.count("bytes shared with the previous name", limit: previousName.count)
        let suffix = try r.count("gesture name length", limit: CorpusFormat.maximumNameBytes - shared)
        previousName.removeSubrange(shared...)
        previousName += try r.raw(suffix)
        // The name's last part (the id a header may leave out), found on the bytes.
        var lastSlash = previousName.count
        while lastSlash > 0, previousName[lastSlash - 1] != UInt8(ascii: "/") { lastSlash -= 1 }
        // ASCII, what nearly every name is, needs no validation (as MetadataCoding.text does).
        guard
            let name = previousName.allSatisfy({ $0 < 0x80 })
                ? String(decoding: previousName, as: UTF8.self) : String(validating: previousName, as: UTF8.self)
        else { throw PanTraceError(.badCorpus("a gesture name that is not UTF-8")) }
        if let problem = CorpusFormat.problem(withName: name) { throw PanTraceError(.badCorpus(problem)) }
        let code = try r.byte()
        guard let storage = CorpusGesture.Storage(code: code) else { throw PanTraceError(.badCorpus("unknown gesture storage \(code)")) }
        var length: Int?
        var sharing = CorpusFormat.HeaderSharing.none
        switch storage {
        case .packed:
            if code == 3 { sharing = .kept(length: try r.count("kept header length", limit: r.remaining)) }
            if code == 4 { sharing = .shared(index: try r.count("shared header", limit: CorpusFormat.maximumKeptHeaders - 1)) }
            length = try r.count("packed gesture length", limit: r.remaining)
        case .verbatim:
            length = try r.count("verbatim gesture length", limit: Int(Int64.max >> 1))
        case .live:
            break
        }
        let base = lastSlash == 0 ? name : String(decoding: previousName[lastSlash...], as: UTF8.self)
        return (CorpusGesture(index: index, name: name, storage: storage, byteOffset: start), length, base, sharing)
    }

    /// Where a live gesture's bytes end. `clean`: at the first thing that is not a whole
    /// gzip member of the gesture (the next gesture record's chunk, damage, a cut, the end of
    /// the file). `extended`: at the next gesture record's chunk or the end of the file,
    /// damage included. Damage right after a gesture cannot be told apart from a damaged
    /// corpus chunk by itself: the gesture takes it only when it is not complete without it.
    private func liveEnd(_ window: CorpusWindow, from start: Int) throws(PanTraceError) -> (clean: Int, extended: Int) {
        var at = start
        var clean: Int?
        while at < window.count {
            guard try window.startsMember(at: at) else {
                clean = clean ?? at
                if window.count - at < 3, try window.gzipPrefix(at: at) { return (clean ?? at, window.count) }
                at = try window.nextMember(after: at) ?? window.count
                continue
            }
            switch try window.inflateMember(inflater, at: at, limit: reader.configuration.maximumChunkBytes, into: &probe) {
            case .complete(let consumed):
                if probe.first == CorpusFormat.gestureRecord { return (clean ?? at, at) }
                at += consumed
            case .truncated:
                // Cut inside a member: the next gesture's record if what inflated so far says so.
                return (clean ?? at, probe.first == CorpusFormat.gestureRecord ? at : window.count)
            case .overLimit, .corrupt:
                clean = clean ?? at
                at = try window.nextMember(after: at) ?? window.count
            }
        }
        return (clean ?? window.count, window.count)
    }
}

/// Where a corpus read is and what it has found between gestures.
private struct CorpusScan {
    let window: CorpusWindow
    let file: String?
    var offset = 0
    /// The index the next gesture record should have.
    var expected = 0
    var problems: [PanTraceError] = []
    /// After damage, until the next gesture record: further orphan chunks are part of it.
    var isLosing = false
    /// Whether each gesture's samples array is the visitor's to keep: the next gesture starts
    /// a new one (built in place at its size) instead of reusing a buffer still shared.
    var handsOverSamples = false

    init(window: CorpusWindow, file: String?) {
        self.window = window
        self.file = file
    }

    func located(_ error: PanTraceError) -> PanTraceError {
        guard let file else { return error }
        return error.in(file: file)
    }

    /// Records damage at `start` that loses the gestures from ``expected`` on up to the next
    /// readable record, and moves on to `next` (nil: the end of the file).
    mutating func lose(_ code: PanTraceError.Code, at start: Int, until next: Int?, quietly: Bool = false) {
        offset = next ?? window.count
        if !quietly {
            var problem = located(PanTraceError(code, byteOffset: start))
            problem.gesture = expected
            problems.append(problem)
        }
        isLosing = true
    }

    /// A gesture's error with the corpus's file name, the gesture, and file offsets.
    func locating(_ error: PanTraceError, gesture: CorpusGesture, base: Int) -> PanTraceError {
        var located = self.located(error)
        located.gesture = gesture.index
        located.gestureName = gesture.name
        located.byteOffset = (error.byteOffset ?? 0) + base
        return located
    }

    func locating(warningsOf file: consuming TraceFile, gesture: CorpusGesture, base: Int) -> TraceFile {
        guard !file.warnings.isEmpty else { return file }
        file.warnings = file.warnings.map { locating($0, gesture: gesture, base: base) }
        return file
    }
}
