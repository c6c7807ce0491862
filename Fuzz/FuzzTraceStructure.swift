// libFuzzer entry point for the structure-aware .pantrace target (docs/FUZZING.md). Compiled
// together with the PanTrace sources and Fuzz/TraceRecipe.swift by scripts/fuzz.sh (swiftc
// -sanitize=fuzzer,address), as its own binary beside the byte-level FuzzTraceReader.swift.
//
// The input is a recipe (TraceRecipe.swift) that builds a file of real gzip members around
// mutated payloads, so inputs get past zlib's CRC check into the header, metadata, phase and
// column decoders. For every input:
//
// - four readers (strict, lenient and salvaging under small limits, salvaging under large
//   ones) return a trace or throw a PanTraceError (a trap or sanitizer report is a bug), agree
//   where their policies say they must, honour the limits as the builder's chunk sizes say,
//   and take at most a second of CPU time each;
// - every column the recipe codes decodes back to its values (TraceRecipe.swift);
// - whatever a reader accepts round-trips: the project's encoder writes it (an encoder error
//   for a trace the reader accepted is a finding), a strict reader reads that back as a
//   complete file, and the samples, grid and metadata are the same.
//
// A finding traps (fatalError) naming its kind, with the built file in hex when it is short.
// PANTRACE_FUZZ_TOLERATE=kind,kind… lets named kinds pass (to look past a known finding);
// PANTRACE_FUZZ_DUMP=path writes the built .pantrace file, or every one into a directory;
// PANTRACE_FUZZ_VERBOSE=1 prints what each reader made of it; PANTRACE_FUZZ_SLOW_SECONDS sets
// the CPU time a read may take.

internal import Foundation
internal import Glibc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceStructure(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let started = ContinuousClock.now
    var recipe = FuzzRecipe(Array(UnsafeBufferPointer(start: data, count: size)))
    let built = FuzzTraceBuilder.build(&recipe)
    let file = built.bytes
    if let path = StructureCheck.dumpPath {
        // A directory gets every built file, named by a hash of its bytes (for replaying a
        // corpus as files); anything else is the file to write.
        var isDirectory: ObjCBool = false
        let target = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? path + "/" + String(file.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16) + ".pantrace"
            : path
        _ = FileManager.default.createFile(atPath: target, contents: Data(file))
    }
    let checking = ContinuousClock.now
    StructureCheck.check(built, recipe: &recipe)
    if StructureCheck.verbose { print("structure: built in \(checking - started), checked in \(ContinuousClock.now - checking)") }
    return 0
}

enum StructureCheck {
    static let dumpPath = ProcessInfo.processInfo.environment["PANTRACE_FUZZ_DUMP"]
    static let verbose = ProcessInfo.processInfo.environment["PANTRACE_FUZZ_VERBOSE"] != nil
    /// A read of one of these small files that takes longer than this (CPU time, so that a
    /// busy machine does not make findings) is a finding.
    static let slowSeconds = Double(ProcessInfo.processInfo.environment["PANTRACE_FUZZ_SLOW_SECONDS"] ?? "") ?? 1
    static let tolerated = Set((ProcessInfo.processInfo.environment["PANTRACE_FUZZ_TOLERATE"] ?? "")
        .split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) })

    static func limits(_ roomy: Bool, strict: Bool = false, salvages: Bool = false) -> TraceReader.Configuration {
        roomy
            ? TraceReader.Configuration(
                maximumFileBytes: 1 << 26, maximumChunkBytes: 4 << 20, maximumTotalBytes: 1 << 26, isStrict: strict, salvages: salvages)
            : TraceReader.Configuration(
                maximumFileBytes: 1 << 20, maximumChunkBytes: 1 << 16, maximumTotalBytes: 1 << 18, isStrict: strict, salvages: salvages)
    }

    // Readers and encoders keep zlib streams and buffers: one of each, reused.
    nonisolated(unsafe) static let strict = TraceReader(configuration: limits(false, strict: true))
    nonisolated(unsafe) static let lenient = TraceReader(configuration: limits(false))
    nonisolated(unsafe) static let salvaging = TraceReader(configuration: limits(false, salvages: true))
    nonisolated(unsafe) static let roomy = TraceReader(configuration: limits(true, salvages: true))
    nonisolated(unsafe) static let readBack = TraceReader(configuration: TraceReader.Configuration(isStrict: true))
    nonisolated(unsafe) static let encoders: [(name: String, encoder: TraceEncoder)] = [
        ("archive", TraceEncoder()),
        ("live", TraceEncoder(configuration: .live)),
        ("archive, 7 samples a chunk, 64-byte groups", TraceEncoder(configuration: TraceWriter.Configuration(
            chunkDuration: .infinity, maximumChunkSamples: 7, sealsAtRelease: false, groupsChunks: true, groupBytes: 64))),
        ("writer, 3 samples or 50 ms a chunk, level 6", TraceEncoder(configuration: TraceWriter.Configuration(
            chunkDuration: 0.05, maximumChunkSamples: 3, compressionLevel: 6))),
    ]

    static func check(_ built: FuzzBuiltFile, recipe: inout FuzzRecipe) {
        let file = built.bytes
        var outcomes: [String] = []
        func read(_ reader: TraceReader) -> Result<TraceFile, PanTraceError> {
            let started = cpuSeconds()
            defer {
                let elapsed = cpuSeconds() - started
                if elapsed > slowSeconds {
                    finding("slow-read", "one read of this \(file.count)-byte file took \(elapsed) s of CPU time (limit \(slowSeconds) s, PANTRACE_FUZZ_SLOW_SECONDS)", file)
                }
            }
            let result = Result { () throws(PanTraceError) in try reader.decode(file) }
            if verbose { outcomes.append(describe(result)) }
            return result
        }
        let strictResult = read(strict), lenientResult = read(lenient), salvageResult = read(salvaging), roomyResult = read(roomy)
        if verbose { print("structure: \(file.count) bytes; strict, lenient, salvaging, roomy: \(outcomes.joined(separator: " | "))") }
        let s = try? strictResult.get(), l = try? lenientResult.get(), v = try? salvageResult.get(), big = try? roomyResult.get()

        // The policies differ only where they say they do.
        if let s {
            if !s.isComplete { finding("reader-disagree", "the strict reader returned an incomplete file", file) }
            if l == nil || !sameFile(s, l!) { finding("reader-disagree", "the strict reader accepted what the lenient one did not read the same", file) }
        }
        if let l {
            if l.isComplete, s == nil { finding("reader-disagree", "the lenient reader read a complete file the strict one refused", file) }
            if v == nil || !sameFile(l, v!) || v!.skippedChunks != 0 {
                finding("reader-disagree", "salvage changed a file the lenient reader read without skipping anything", file)
            }
        }
        if let v, v.skippedChunks == 0, big == nil || !sameFile(v, big!) {
            finding("reader-disagree", "larger limits changed a file read under small ones without skipping", file)
        }

        // The limits, from the sizes the builder knows: a file whose chunks are all within the
        // small limits reads the same under large ones; one with a chunk over them is refused.
        let small = limits(false)
        if built.membersIntact, file.count <= small.maximumFileBytes {
            let largest = built.chunkSizes.max() ?? 0, total = built.chunkSizes.reduce(0, +)
            let within = largest <= small.maximumChunkBytes && total <= small.maximumTotalBytes
            let sizes = "chunks of \(built.chunkSizes.map(String.init).joined(separator: ", ")) bytes inflated (limits: \(small.maximumChunkBytes) a chunk, \(small.maximumTotalBytes) in all)"
            if within, !sameOutcome(salvageResult, roomyResult) {
                finding("limits", "\(sizes): small limits read \(describe(salvageResult)), large ones \(describe(roomyResult))", file)
            }
            if !within, l != nil {
                finding("limits", "\(sizes): read under the small limits", file)
            }
        }

        // Every distinct accepted trace round-trips.
        var done: [Trace] = []
        let (name, encoder) = encoders[recipe.below(encoders.count)]
        for accepted in [s, l, v, big].compactMap({ $0 }) where !done.contains(where: { sameTrace($0, accepted.trace) }) {
            done.append(accepted.trace)
            roundTrip(accepted.trace, encoder: encoder, encoderName: name, file: file)
        }
    }

    static func roundTrip(_ trace: Trace, encoder: TraceEncoder, encoderName: String, file: [UInt8]) {
        let bytes: [UInt8]
        do throws(PanTraceError) {
            bytes = try encoder.encode(trace)
        } catch {
            let kind = switch error.code {
            case .invalidSample: "encode-sample"
            case .invalidValue: "encode-metadata"
            default: "encode-other"
            }
            finding(kind, "the \(encoderName) encoder rejects a trace the reader accepted: \(error)", file)
            return
        }
        let back: TraceFile
        do throws(PanTraceError) {
            back = try readBack.decode(bytes)
        } catch {
            finding("readback", "a strict reader rejects the \(encoderName) encoder's output: \(error)", file)
            return
        }
        if !back.isComplete { finding("readback", "the \(encoderName) encoder's output reads back incomplete", file) }
        if back.trace.grid != trace.grid { finding("grid-differs", "grid \(trace.grid) reads back as \(back.trace.grid)", file) }
        if back.trace.samples != trace.samples {
            let a = trace.samples, b = back.trace.samples
            let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let was = i < a.count ? "\(a[i])" : "nothing", now = i < b.count ? "\(b[i])" : "nothing"
            finding("samples-differ", "sample \(i) of \(a.count) on grid \(trace.grid) (\(encoderName) encoder): \(was) reads back as \(now)", file)
        }
        if !sameMetadata(back.trace.metadata, trace.metadata) {
            finding("metadata-differs", "metadata \(trace.metadata) reads back as \(back.trace.metadata)", file)
        }
    }

    static func describe(_ result: Result<TraceFile, PanTraceError>) -> String {
        switch result {
        case .success(let file):
            "\(file.trace.samples.count) samples\(file.isComplete ? "" : ", incomplete")"
                + (file.skippedChunks == 0 ? "" : ", \(file.skippedChunks) chunk(s) skipped (first: \(file.warnings.first.map { "\($0)" } ?? "?"))")
        case .failure(let error): "\(error)"
        }
    }

    static func sameOutcome(_ a: Result<TraceFile, PanTraceError>, _ b: Result<TraceFile, PanTraceError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): sameFile(x, y) && x.skippedChunks == y.skippedChunks
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    /// Same samples, grid and metadata (NaN screen values equal to each other), same completeness.
    static func sameFile(_ a: TraceFile, _ b: TraceFile) -> Bool {
        sameTrace(a.trace, b.trace) && a.isComplete == b.isComplete && a.chunkCount == b.chunkCount
    }

    static func sameTrace(_ a: Trace, _ b: Trace) -> Bool {
        a.grid == b.grid && a.samples == b.samples && sameMetadata(a.metadata, b.metadata)
    }

    static func sameMetadata(_ a: TraceMetadata, _ b: TraceMetadata) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        var a2 = a, b2 = b
        a2.screen = .phone
        b2.screen = .phone
        return a2 == b2 && same(a.screen.width, b.screen.width) && same(a.screen.height, b.screen.height)
            && same(a.screen.scale, b.screen.scale)
    }

    /// CPU time of this thread, in seconds.
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Traps so libFuzzer saves the input, unless PANTRACE_FUZZ_TOLERATE names `kind`.
    static func finding(_ kind: String, _ message: String, _ file: [UInt8], what: String = "the .pantrace file") {
        guard !tolerated.contains(kind) else { return }
        let shown = file.count <= 512
            ? ": " + file.map { String(format: "%02x", $0) }.joined()
            : " (PANTRACE_FUZZ_DUMP=path writes it)"
        fatalError("structure fuzz finding [\(kind)]: \(message.prefix(2000))\n\(what), \(file.count) bytes\(shown)")
    }
}
