// The recipe interpreter of the structure-aware fuzz target (FuzzTraceStructure.swift).
//
// The fuzzer's bytes are not a file: they are read, front to back, as a list of choices, and
// the choices build a `.pantrace` file that is well formed at every layer below the one being
// attacked. Each chunk is a real gzip member (zlib, so the CRC-32 and ISIZE match), each
// payload is laid out as docs/FORMAT.md says, and the values inside — metadata numbers,
// strings, extra JSON, counts, phase runs, column orders, biases, Rice parameters, escapes —
// are where the hostility goes. A recipe that runs out reads as zeros, and zero always picks
// the ordinary choice, so the empty input is a small valid version 2 file. Versions 1, 2 and 3
// are all built.
//
// Compiled into the same module as Sources/PanTrace, so the internal ByteWriter,
// ColumnCoding, MetadataCoding and GzipDeflater are used directly where their output is
// what is wanted; columns are otherwise coded here, straight from docs/FORMAT.md §4.1, with
// parameters the project's encoder would never pick, and each one is decoded on its own at
// once: a column that does not decode to its values is a finding (`column-decode`).

internal import CZlib

/// Choices read from the fuzzer's bytes; past the end every byte is 0.
struct FuzzRecipe {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }
    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }

    /// One of `0..<n`, 0 when the recipe has run out.
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        if n <= 256 { return Int(byte()) % n }
        if n <= 65_536 { return Int(u16()) % n }
        return Int(u64() % UInt64(n))
    }

    mutating func flag() -> Bool { byte() & 1 != 0 }

    /// True for about `per256` in 256 bytes (never for a run-out recipe).
    mutating func rare(_ per256: Int = 8) -> Bool { Int(byte()) >= 256 - per256 }

    mutating func element<T>(_ values: [T]) -> T { values[below(values.count)] }
}

/// Values that sit on the edges the codec and its callers care about.
enum Hostile {
    static let int64: [Int64] = [
        0, 1, -1, 2, -2, 100, -100, 8_333, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
        1 << 53, (1 << 53) + 1, (1 << 53) - 1, -(1 << 53), -(1 << 53) - 1, -(1 << 53) + 1,
        1 << 52, (1 << 52) + 1, (1 << 52) - 1, 1 << 51, (1 << 51) + 1, (1 << 51) - 1, -(1 << 51) - 1,
        1 << 62, -(1 << 62), (1 << 62) - 1, 1 << 32, 1 << 31, Int64(Int32.max), Int64(Int32.min),
        1_000_000_000, 4_000_000_000_000_000, 4_000_000_000_000_001, -4_000_000_000_000_001,
        100_000_000_000, 100_000_000_001, -100_000_000_001, 9_223_372_036_854_775, 1 << 40, (1 << 40) - 1
    ]

    static let uint64: [UInt64] = [
        0, 1, 2, 3, 1000, 1001, 1024, 1025, 65_535, 65_536, 65_537, UInt64(Int64.max), UInt64(Int64.max) + 1,
        UInt64.max, (1 << 53) + 1, UInt64(Int32.max), 253_402_300_799, 253_402_300_800,
        1_000_000_000, 1_000_000_001, UInt64(Int64.max >> 1), UInt64(Int64.max >> 1) + 1, 1 << 32
    ]

    static let doubles: [Double] = [
        0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .nan, -.nan,
        Double(bitPattern: 0x7ff0_0000_0000_0001), Double(bitPattern: 0xfff8_dead_beef_0001),
        .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        1e15, 1e15 - 1, 999_999_999_999_999.5, -1e15, 1e300, 1e-300, 9_007_199_254_740_992, 9_007_199_254_740_994,
        -1, 1, 0.001, 0.0005, 390, 844, 3, 0.1, 0.099_999, 100, 100_000, 100_000.001, 123.456, 1.0 / 3.0,
        2.5e-7, 0x1p61, -0x1p63, 0x1p63
    ]

    static let strings: [String] = [
        "", "browser", "ios", "synthetic", "import:csv", "import:jsonl", "import:getevent", "import:pantrace",
        "unknown", "recorded", "lsq2", "impulse", "flutter", "1970-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z", "2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "1969-12-31T23:59:59Z",
        "2026-01-01T00:00:00.5Z", "2026-01-01t00:00:00z", "\u{0}", "é", "\u{FFFD}", "😀", "a\u{0}b"
    ]
}

/// A built file and what its builder knows about it.
struct FuzzBuiltFile {
    var bytes: [UInt8]
    /// Inflated size of each chunk (gzip member), in file order.
    var chunkSizes: [Int]
    /// Whether the members were left as built: none duplicated, dropped, moved, cut or
    /// flipped, and nothing put between them (their inflated data may still be tampered with).
    var membersIntact: Bool
}

/// Builds a `.pantrace` file from a recipe (see the comment at the top of the file).
struct FuzzTraceBuilder {
    var r: FuzzRecipe
    var version = 2
    /// Samples the payloads written so far hold (the reader's count when every chunk is kept).
    var sampleCount = 0
    /// The last time tick written, so time columns can carry on from it.
    var lastTime: Int64 = 0
    /// Strings near the 64 KiB limit so far: a few are enough, and they make files slow to build.
    var longStrings = 0

    /// Whether to nest extra JSON deeper than 64 levels (PANTRACE_FUZZ_TOLERATE=slow-read turns
    /// this off: from a few hundred levels on, decoding it is the known slow case).
    static let deepJSON = !StructureCheck.tolerated.contains("slow-read")

    nonisolated(unsafe) static let deflaters: [GzipDeflater] = (0...9).map { GzipDeflater(level: Int32($0)) }

    /// The file; `recipe` is left after the choices it used.
    static func build(_ recipe: inout FuzzRecipe) -> FuzzBuiltFile {
        var b = FuzzTraceBuilder(r: recipe)
        let file = b.file()
        recipe = b.r
        return file
    }

    mutating func file() -> FuzzBuiltFile {
        let pick = r.below(8)
        version = pick == 7 ? 1 : pick >= 4 ? 3 : 2
        // The payloads, header first.
        var payloads: [[UInt8]] = [header()]
        let sampleChunks = [1, 2, 3, 0, 4, 5][r.below(6)]
        let ending = r.below(4)  // 0 final flag (or end), 1 end payload, 2 nothing, 3 both
        var lastWasSamples = false
        for i in 0..<sampleChunks {
            var w = ByteWriter()
            switch r.below(16) {
            case 13, 14:
                w.byte(ChunkKind.metadata.rawValue)
                metadata(into: &w)
                lastWasSamples = false
            case 15:
                end(into: &w)
                lastWasSamples = false
            default:
                let final = i == sampleChunks - 1 && (ending == 0 || ending == 3)
                samples(isFinal: final, into: &w)
                lastWasSamples = true
            }
            payloads.append(w.bytes)
        }
        if ending == 1 || ending == 3 || (ending == 0 && !lastWasSamples) {
            var w = ByteWriter()
            end(into: &w)
            payloads.append(w.bytes)
        }

        // Payloads into chunks: version 2 as the archive writer (all in one), as the live
        // writer (one each) or mixed; version 1 always one a chunk (unless told otherwise).
        var chunks: [[UInt8]] = []
        let grouping = version == 1 ? (r.rare(4) ? 2 : 1) : r.below(3)
        for (i, payload) in payloads.enumerated() {
            if i == 0 || grouping == 1 || (grouping == 2 && r.flag()) {
                chunks.append(payload)
            } else {
                chunks[chunks.count - 1].append(contentsOf: payload)
            }
        }
        // Mutations of the inflated data itself, which zlib then seals with a correct CRC.
        for c in chunks.indices where r.rare(6) { tamper(&chunks[c]) }

        var members = chunks.map { member(of: $0) }
        var intact = true
        if r.rare(10) {
            tamperMembers(&members)
            intact = false
        }
        var bytes = members.flatMap { $0 }
        if r.rare(4), !bytes.isEmpty {
            let at = r.below(bytes.count)
            switch r.below(2) {
            case 0: bytes.removeSubrange(at...)
            default: bytes[at] ^= max(1, r.byte())
            }
            intact = false
        }
        return FuzzBuiltFile(bytes: bytes, chunkSizes: chunks.map(\.count), membersIntact: intact)
    }

    // MARK: Header and metadata

    mutating func header() -> [UInt8] {
        var w = ByteWriter()
        if r.rare(2) {
            var magic = HeaderFormat.magic
            magic[r.below(magic.count)] ^= max(1, r.byte())
            w.raw(magic)
        } else {
            w.raw(HeaderFormat.magic)
        }
        w.varint(r.rare(4) ? r.element(Hostile.uint64) : UInt64(version))
        var scales = true
        if version >= 3 {
            // Header flags: mostly the standard grid (no scales), else scales, rarely anything.
            let flags: UInt64 = r.rare(8) ? r.u64() : r.flag() ? 0 : 1
            w.varint(flags)
            scales = flags & 1 == 0
        }
        if scales { for standard in [1000, 100, 100] as [UInt64] { w.varint(gridScale(standard)) } }
        metadata(into: &w)
        return w.bytes
    }

    mutating func gridScale(_ standard: UInt64) -> UInt64 {
        switch r.below(8) {
        case 0, 6, 7: return standard
        case 1: return 1
        case 2: return 1_000_000_000
        case 3: return UInt64(r.u32() % 1_000_000_000) + 1
        case 4: return [3, 7, 1000, 100, 60, 999_999_937, 1_000_000_001, 0][r.below(8)]
        default: return r.flag() ? r.element(Hostile.uint64) : standard
        }
    }

    mutating func metadata(into w: inout ByteWriter) {
        let fieldCount = r.below(8)
        var seen = Set<Int>()
        // id is required; leave it out only when told.
        if !r.rare(2) {
            w.varint(1)
            string(into: &w)
            seen.insert(1)
        }
        for _ in 0..<fieldCount {
            let tag = r.below(14)
            if tag == 0 { continue }
            if version == 1, tag > 10, !r.rare(8) { continue }
            if version == 2, tag > 12, !r.rare(8) { continue }
            // created (2, 11), source (3, 12) and tags (7, 13) share a slot.
            let slot = tag == 11 ? 2 : tag == 12 ? 3 : tag == 13 ? 7 : tag
            if seen.contains(slot), !r.rare(2) { continue }
            seen.insert(slot)
            w.varint(UInt64(tag))
            switch tag {
            case 1, 2, 3, 8, 9: string(into: &w)
            case 4: for _ in 0..<3 { number(into: &w) }
            case 5, 6, 12: w.byte(r.rare(8) ? r.byte() : UInt8(r.below(tag == 12 ? 7 : 4)))
            case 7:
                let count = r.rare(4) ? Int(truncatingIfNeeded: r.element(Hostile.uint64)) : r.below(6)
                w.varint(UInt64(truncatingIfNeeded: count))
                for _ in 0..<min(max(count, 0), 40) { string(into: &w) }
            case 10: text(json(), into: &w)
            case 13:
                let count = r.rare(4) ? Int(truncatingIfNeeded: r.element(Hostile.uint64)) : r.below(6)
                w.varint(UInt64(truncatingIfNeeded: count))
                for _ in 0..<min(max(count, 0), 40) {
                    let code = r.rare(8) ? r.element(Hostile.uint64) : UInt64(r.below(MetadataCoding.knownTags.count + 1))
                    w.varint(code)
                    if code == 0 { string(into: &w) }
                }
            case 11:
                switch r.below(4) {
                case 0: w.varint(UInt64(r.u32()) * 60)
                case 1: w.varint(r.element(Hostile.uint64))
                default: w.varint(UInt64(r.below(Int(CanonicalTime.maximumSeconds) + 1)))
                }
            default: break
            }
        }
        if r.rare(3) { w.varint(r.rare(128) ? r.u64() : UInt64(13 + r.below(100))) }  // unknown tag
        w.varint(0)
    }

    /// A string with its length, usually exact.
    mutating func string(into w: inout ByteWriter) {
        let value: [UInt8]
        switch r.below(8) {
        case 0, 1:
            let n = r.below(24)
            value = (0..<n).map { _ in 0x20 + r.byte() % 0x5f }
        case 2:
            value = Array(r.element(Hostile.strings).utf8)
        case 3 where longStrings < 3 && r.rare(32):
            longStrings += 1
            // Long: a pattern repeated to a length near the 65 536-byte limit.
            let pattern = Array(r.element(["a", "é", "😀", "ab\u{0}"]).utf8)
            let length = r.rare(64) ? 65_537 : r.flag() ? 65_536 : r.below(65_537)
            value = (0..<length).map { pattern[$0 % pattern.count] }
        case 4 where r.rare(64):
            let n = r.below(16)
            value = (0..<n).map { _ in r.byte() }  // maybe not UTF-8
        default:
            value = Array(r.element(Hostile.strings).utf8)
        }
        text(value, into: &w)
    }

    mutating func text(_ value: [UInt8], into w: inout ByteWriter) {
        if r.rare(3) {
            w.varint(r.element(Hostile.uint64))
        } else {
            w.varint(UInt64(value.count))
        }
        w.raw(value)
    }

    mutating func text(_ value: String, into w: inout ByteWriter) { text(Array(value.utf8), into: &w) }

    /// A metadata number (screen width, height, scale) in one of its spellings.
    mutating func number(into w: inout ByteWriter) {
        let value: Double
        // Mostly a screen a reader should take, else anything.
        switch r.below(12) {
        case 0, 1, 8, 9, 10, 11: value = r.element([390, 844, 3, 2, 1.5, 2.625, 1, 100_000, 0.1, 100, 1280, 800.5])
        case 2, 3: value = Double(1 + r.below(4000)) / (r.flag() ? 1 : 8)
        case 4: value = r.element(Hostile.doubles)
        case 5: value = Double(bitPattern: r.u64())
        case 6: value = Double(Int16(bitPattern: r.u16())) / (r.flag() ? 1000 : 1)
        default:
            // A whole number straight from an Int64, wrapping into the varint as it will.
            let x = r.element(Hostile.int64)
            if version >= 2 {
                w.varint(ColumnCoding.zigzag(x) &<< 2 | (r.flag() ? 2 : 0))
            } else {
                w.varint(ColumnCoding.zigzag(x) &<< 1)
            }
            return
        }
        switch r.below(4) {
        case 0 where version >= 2:
            MetadataCoding.number(value, into: &w)  // the project's own choice of spelling
        case 1 where value.isFinite && abs(value * 1000) < 0x1p62:
            let scaled = Int64((value * 1000).rounded())
            w.varint(version >= 2 ? ColumnCoding.zigzag(scaled) << 2 | 2 : ColumnCoding.zigzag(scaled) << 1)
        case 2 where r.rare(16):
            w.varint(r.u64())  // any marker, odd ones included
        default:
            w.varint(1)
            var bits = value.bitPattern
            for _ in 0..<8 {
                w.byte(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
    }

    /// The value of the `extra` field: usually a JSON object, in shapes that stress the
    /// decoder (depth), the re-encoder (spellings that grow) and the key filter.
    mutating func json() -> String {
        switch r.below(10) {
        case 0: return "{\"k\":\(jsonValue(depth: 0))}"
        case 1:
            // Deep nesting, in one branch or in several side by side.
            let depth = r.rare(32) ? 32_000 : r.below(FuzzTraceBuilder.deepJSON ? 2_000 : 64)
            let open = r.flag() ? "[" : "{\"a\":"
            let close = open == "[" ? "]" : "}"
            let deep = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            let siblings = r.rare(64) ? 20 : 1 + r.below(3)
            return "{" + (0..<siblings).map { "\"d\($0)\":" + deep }.joined(separator: ",") + "}"
        case 2:
            // Short spellings that a re-encoder writes longer: 1e9 becomes 1000000000.
            let item = r.element(["1e9", "1E22", "1e-7", "-0", "0.1e1", "1e300", "5e-324", "\"\\u0001\"", "\"\\/\""])
            let count = r.flag() ? 65_536 / (item.count + 1) - 4 : r.below(20_000)
            return "{\"a\":[" + Array(repeating: item, count: max(count, 0)).joined(separator: ",") + "]}"
        case 3:
            let key = r.element(["id", "screen", "created", "source", "tags", "notes", "velocity", "edge", "intent", "extra"])
            return "{\"\(key)\":\(jsonValue(depth: 0)),\"z\":\(jsonValue(depth: 0))}"
        case 4: return r.element(["[]", "1", "null", "{", "", "{\"a\":}", "{\"a\":1,}", "\"x\"", "{}", "{\"a\":NaN}", "{\"a\":Infinity}"])
        case 5:
            return "{\"n\":"
                + r.element([
                    "1e400", "-1e400", "-0", "1E-400", "123456789012345678901234567890", "0.1", "-0.0e0", "9007199254740993", "18446744073709551616",
                    "-9223372036854775809", "1.5e308"
                ]) + "}"
        case 6: return "{\"s\":\"" + r.element(["\\u0000", "\\ud800", "\\udc00\\ud800", "\\uD83D\\uDE00", "\\/", "\\\"", "é", "\\u00e9"]) + "\"}"
        case 7: return "{\"a\":1,\"a\":\(jsonValue(depth: 0))}"
        default:
            var parts: [String] = []
            for i in 0..<r.below(6) { parts.append("\"k\(i)\":\(jsonValue(depth: 0))") }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }

    mutating func jsonValue(depth: Int) -> String {
        switch r.below(depth > 4 ? 5 : 7) {
        case 0: return "\(Int16(bitPattern: r.u16()))"
        case 1: return r.element(["true", "false", "null"])
        case 2: return "\"" + String(repeating: "x", count: r.below(40)) + "\""
        case 3: return r.element(["0.1", "1e9", "-0", "1.25", "3.4028235e38", "4.9e-324", "1E+2"])
        case 4: return "\(Double(bitPattern: r.u64() & 0x7fef_ffff_ffff_ffff))"
        case 5: return "[" + (0..<r.below(4)).map { _ in jsonValue(depth: depth + 1) }.joined(separator: ",") + "]"
        default: return "{" + (0..<r.below(4)).map { i in "\"k\(i)\":\(jsonValue(depth: depth + 1))" }.joined(separator: ",") + "}"
        }
    }

    // MARK: Payloads after the header

    mutating func end(into w: inout ByteWriter) {
        w.byte(ChunkKind.end.rawValue)
        w.varint(r.rare(8) ? r.element(Hostile.uint64) : UInt64(sampleCount))
    }

    mutating func samples(isFinal: Bool, into w: inout ByteWriter) {
        w.byte(ChunkKind.samples.rawValue)
        w.varint(r.rare(6) ? r.element(Hostile.uint64) : UInt64(sampleCount))
        var n: Int
        switch r.below(8) {
        case 0, 1, 2, 3: n = 1 + r.below(16)
        case 4: n = 1 + r.below(64)
        case 5: n = 1 + r.below(256)
        case 6: n = r.rare(64) ? 65_536 : 1 + r.below(2048)
        default:
            // A hostile count: written as is, with a few samples' worth of data after it.
            let claimed = r.element(Hostile.uint64)
            w.varint(claimed)
            n = Int(min(claimed, 8))
            if n == 0 { return }
            sampleBody(n: n, isFinal: isFinal, into: &w)
            return
        }
        w.varint(UInt64(n))
        sampleBody(n: n, isFinal: isFinal, into: &w)
    }

    mutating func sampleBody(n: Int, isFinal: Bool, into w: inout ByteWriter) {
        let optional = r.below(3) == 1
        var flags: UInt8 = (optional ? 1 : 0) | (isFinal ? 2 : 0)
        if version >= 3 {
            // Every sample with a location, a touch count, or both (no mask); translation
            // predicted from velocity.
            if !optional, r.below(3) == 1 { flags |= UInt8(1 + r.below(3)) << 2 }
            flags |= UInt8(r.below(4)) << 4
        }
        if r.rare(4) { flags |= r.byte() }
        w.byte(flags)
        phases(n: n, isFinal: isFinal, into: &w)
        column(times(n), into: &w)
        for axis in 0..<2 {
            if version >= 3, flags & (16 << axis) != 0 {
                // The first value, then n − 1 residuals of the velocity prediction.
                w.signed(r.rare(8) ? r.element(Hostile.int64) : Int64(Int16(bitPattern: r.u16())))
                column(values(max(n - 1, 0)), into: &w)
            } else {
                column(values(n), into: &w)
            }
        }
        for _ in 0..<2 { column(values(n), into: &w) }
        if version >= 3, flags & 1 == 0, flags & 12 != 0 {
            if flags & 4 != 0 {
                column(values(n), into: &w)
                column(values(n), into: &w)
            }
            if flags & 8 != 0 { column(touchCounts(n), into: &w) }
        } else if optional {
            var mask: [UInt8]
            switch r.below(4) {
            case 0: mask = Array(repeating: 3, count: n)
            case 1: mask = Array(repeating: 1, count: n)
            case 2: mask = (0..<n).map { _ in r.byte() & 3 }
            default: mask = (0..<n).map { _ in r.rare(16) ? r.byte() : r.byte() & 3 }
            }
            w.raw(mask)
            let locations = mask.reduce(0) { $0 + Int($1 & 1) }
            // Version 3 leaves both location columns out when no sample has one.
            if version < 3 || locations > 0 {
                column(values(locations), into: &w)
                column(values(locations), into: &w)
            }
            if version >= 3 {
                column(touchCounts(mask.reduce(0) { $0 + Int($1 >> 1 & 1) }), into: &w)
            } else {
                touchVarints(mask, into: &w)
            }
        }
        sampleCount += n
    }

    /// Touch counts as a version 3 column: mostly within 0…1000.
    mutating func touchCounts(_ n: Int) -> [Int64] {
        (0..<n).map { _ in r.rare(16) ? r.element(Hostile.int64) : Int64(r.flag() ? 1 : r.below(1002)) }
    }

    /// Touch counts as version 2 varints, one per sample whose mask has bit 1.
    mutating func touchVarints(_ mask: [UInt8], into w: inout ByteWriter) {
        for m in mask where m & 2 != 0 {
            switch r.below(4) {
            case 0: w.varint(1)
            case 1: w.varint(UInt64(r.below(3)))
            case 2: w.varint(UInt64(r.below(1001)))
            default: w.varint(r.element(Hostile.uint64))
            }
        }
    }

    mutating func phases(n: Int, isFinal: Bool, into w: inout ByteWriter) {
        var runs: [(UInt64, UInt64)] = []
        switch r.below(4) {
        case 0, 1:
            // began, changed…, ended: as a recognizer reports.
            var codes = Array(repeating: UInt64(1), count: n)
            if sampleCount == 0 { codes[0] = 0 }
            if isFinal { codes[n - 1] = r.flag() ? 3 : 2 }
            var i = 0
            while i < n {
                var j = i + 1
                while j < n, codes[j] == codes[i] { j += 1 }
                runs.append((codes[i], UInt64(j - i)))
                i = j
            }
        case 2:
            var covered = 0
            while covered < n {
                let run = 1 + r.below(n - covered)
                runs.append((UInt64(r.below(4)), UInt64(run)))
                covered += run
            }
        default:
            // Codes and run lengths that may not add up or exist.
            var covered = 0
            while covered < n, runs.count < 64 {
                let code = r.rare(16) ? r.element(Hostile.uint64) : UInt64(r.below(6))
                let run = r.rare(16) ? r.element(Hostile.uint64) : UInt64(r.below(n - covered + 2))
                runs.append((code, run))
                covered += Int(min(run, UInt64(n))) + (run == 0 ? 1 : 0)
            }
        }
        for (code, run) in runs {
            if version >= 3 {
                // One varint a run: (run − 1) << 2 | code; a hostile code spills into the run.
                w.varint((run &- 1) &<< 2 | code)
            } else {
                w.varint(code)
                w.varint(run)
            }
        }
    }

    /// A time column: usually non-decreasing and carrying on from the previous chunk.
    mutating func times(_ n: Int) -> [Int64] {
        var t: [Int64]
        switch r.below(8) {
        case 6: t = values(n).sorted()
        case 7: t = values(n)
        default:
            t = []
            t.reserveCapacity(n)
            var now = lastTime
            let step: Int64
            switch r.below(4) {
            case 0: step = 8_333
            case 1: step = Int64(r.u16())
            case 2:
                let h = r.element(Hostile.int64)
                step = h == .min ? .max : abs(h)
            default: step = Int64(r.u32())
            }
            let jitter = r.below(4)
            if sampleCount == 0, r.below(4) == 3 { now = r.element(Hostile.int64) }
            for i in 0..<n {
                if i > 0 || sampleCount > 0 {
                    let wobble = jitter == 0 ? 0 : Int64(r.byte() % UInt8(1 << (2 * jitter)))
                    now = now &+ step &+ wobble
                }
                t.append(now)
            }
        }
        if let last = t.last { lastTime = last }
        return t
    }

    /// Any other column: smooth, hostile, raw, linear.
    mutating func values(_ n: Int) -> [Int64] {
        guard n > 0 else { return [] }
        var v: [Int64] = []
        v.reserveCapacity(n)
        switch r.below(8) {
        case 0, 1:
            var x = r.below(2) == 0 ? Int64(Int16(bitPattern: r.u16())) : r.element(Hostile.int64)
            let shift = Int64(r.below(24))
            for _ in 0..<n {
                v.append(x)
                x = x &+ Int64(Int8(bitPattern: r.byte())) &<< shift
            }
        case 2:
            v = Array(repeating: r.element(Hostile.int64), count: n)
        case 3:
            for _ in 0..<n { v.append(r.element(Hostile.int64)) }
        case 4:
            for _ in 0..<n { v.append(Int64(bitPattern: r.u64())) }
        case 5:
            let start = Int64(Int32(bitPattern: r.u32())), slope = Int64(Int32(bitPattern: r.u32())) &<< Int64(r.below(32))
            for i in 0..<n { v.append(start &+ slope &* Int64(i) &+ Int64(r.byte() & 7)) }
        case 6:
            v = Array(repeating: 0, count: n)
        default:
            let shift = Int64(r.below(64))
            for _ in 0..<n { v.append(Int64(Int32(bitPattern: r.u32())) &<< shift) }
        }
        return v
    }

    // MARK: Columns

    /// A column, coded by the project's encoder or here with any order, bias and parameter,
    /// then decoded on its own: it must give back `values` and end where it was written to.
    mutating func column(_ values: [Int64], into w: inout ByteWriter) {
        let start = w.bytes.count
        let valid = encodeColumn(values, into: &w)
        guard valid else { return }
        let column = Array(w.bytes[start...])
        var reader = ByteReader(column)
        var decoded: [Int64] = []
        do throws(PanTraceError) {
            try ColumnCoding.decode(count: values.count, from: &reader, into: &decoded, version: version)
        } catch {
            StructureCheck.finding("column-decode", "a version \(version) column of \(values) does not decode: \(error)", column, what: "the column")
            return
        }
        if Array(decoded.prefix(values.count)) != values || reader.offset != column.count {
            StructureCheck.finding(
                "column-decode",
                "a version \(version) column of \(values) decodes as \(decoded.prefix(values.count)), ending at byte \(reader.offset) of \(column.count)",
                column, what: "the column")
        }
    }

    /// Appends the column; false if its header is one the format does not allow.
    mutating func encodeColumn(_ values: [Int64], into w: inout ByteWriter) -> Bool {
        if version >= 2, r.below(4) == 0 {
            ColumnCoding.encode(values, into: &w)
            return true
        }
        let order = r.below(4)
        let k = version >= 2 ? r.below(32) : (r.rare(4) ? r.below(64) : r.below(56))
        let bias: Int64 = version >= 2 && r.below(4) == 1 ? (r.flag() ? r.element(Hostile.int64) : Int64(Int16(bitPattern: r.u16()))) : 0
        let escapes = r.rare(16)  // escape every value, even those with a short quotient
        let hasBias = bias != 0 || (version >= 2 && r.rare(4))
        w.byte(UInt8(order << 6 | (hasBias ? 1 << 5 : 0) | (version >= 2 ? k & 31 : k & 63)))
        if hasBias { w.signed(bias) }
        let m = values.count
        let head = min(order, m)
        func value(_ i: Int) -> Int64 { i >= 0 ? values[i] : 0 }
        func residual(_ i: Int, order d: Int) -> Int64 {
            switch d {
            case 0: values[i]
            case 1: values[i] &- value(i - 1)
            case 2: values[i] &- 2 &* value(i - 1) &+ value(i - 2)
            default: values[i] &- 3 &* value(i - 1) &+ 3 &* value(i - 2) &- value(i - 3)
            }
        }
        // Version 2 codes the head at orders 0, 1, 2; version 1 at the full order from zeros.
        for i in 0..<head { w.signed(residual(i, order: version >= 2 ? i : order)) }
        guard m > head else { return k <= 55 }
        var bits = FuzzBitWriter()
        let kk = min(k, 55)
        for i in head..<m {
            let z = ColumnCoding.zigzag(residual(i, order: order) &- bias)
            let q = z >> UInt64(kk)
            if q < UInt64(ColumnCoding.escapeQuotient), !escapes {
                bits.zeros(Int(q))
                bits.write(1, width: 1)
                bits.write(z, width: kk)
            } else {
                bits.zeros(ColumnCoding.escapeQuotient)
                bits.write(1, width: 1)
                if version >= 2 {
                    let length = max(1, 64 - z.leadingZeroBitCount)
                    bits.write(UInt64(length - 1), width: 6)
                    bits.write(z, width: length)
                } else {
                    bits.write(z, width: 64)
                }
            }
        }
        w.raw(bits.finish())
        return k <= 55
    }

    // MARK: Chunks and members

    /// Changes to a chunk's inflated data: a flipped, dropped or added byte, a cut, junk after.
    mutating func tamper(_ data: inout [UInt8]) {
        let at = r.below(data.count + 1)
        switch r.below(5) {
        case 0 where at < data.count: data[at] ^= max(1, r.byte())
        case 1: data.removeSubrange(at...)
        case 2: data.insert(r.byte(), at: at)
        case 3 where at < data.count: data.remove(at: at)
        default: data.append(contentsOf: [r.element([0x53, 0x4d, 0x45, 0x00, 0xff]), r.byte()])
        }
    }

    /// One gzip member holding `data`: zlib's minimal header, or one with the optional fields.
    mutating func member(of data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        Self.deflaters[r.below(4) == 3 ? r.below(10) : 0].appendMember(of: data, to: &out)
        guard r.rare(24), out.count >= 18 else { return out }
        // Rebuild the header with FEXTRA, FNAME, FCOMMENT, FHCRC as chosen; same deflate data and trailer.
        let flags = r.byte() & 0x1f
        var header: [UInt8] = [0x1f, 0x8b, 0x08, flags, r.byte(), r.byte(), r.byte(), r.byte(), 0, 3]
        if flags & 4 != 0 {
            let extra = (0..<r.below(32)).map { _ in r.byte() }
            header += [UInt8(extra.count), 0] + extra
        }
        if flags & 8 != 0 { header += (0..<r.below(16)).map { _ in max(1, r.byte()) } + [0] }
        if flags & 16 != 0 { header += (0..<r.below(16)).map { _ in max(1, r.byte()) } + [0] }
        if flags & 2 != 0 {
            let crc = header.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
            header += [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
        }
        return header + out[10...]
    }

    /// Whole-member damage for the salvaging reader: duplicate, drop, swap, junk between.
    mutating func tamperMembers(_ members: inout [[UInt8]]) {
        guard !members.isEmpty else { return }
        let i = r.below(members.count), j = r.below(members.count)
        switch r.below(4) {
        case 0: members.insert(members[i], at: j)
        case 1 where members.count > 1: members.remove(at: max(1, i))
        case 2: members.swapAt(i, j)
        default: members.insert((0..<r.below(8)).map { _ in r.byte() } + [0x1f, 0x8b], at: max(1, i))
        }
    }
}

/// Bits most significant first, padded with zeros to a whole byte.
struct FuzzBitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt64 = 0  // the low `count` bits are not yet in `bytes`
    private var count = 0

    /// The low `width` bits of `value` (width ≤ 64), most significant first.
    mutating func write(_ value: UInt64, width: Int) {
        if width > 32 {
            put(value >> 32, width: width - 32)
            put(value & 0xffff_ffff, width: 32)
        } else {
            put(value, width: width)
        }
    }

    mutating func zeros(_ n: Int) {
        var left = n
        while left > 0 {
            let w = min(left, 32)
            put(0, width: w)
            left -= w
        }
    }

    /// width ≤ 32: with fewer than 8 bits pending, the 64-bit word has room.
    private mutating func put(_ value: UInt64, width: Int) {
        pending = pending &<< UInt64(width) | (value & ((1 &<< UInt64(width)) &- 1))
        count += width
        while count >= 8 {
            count -= 8
            bytes.append(UInt8(truncatingIfNeeded: pending >> UInt64(count)))
        }
    }

    mutating func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: pending << UInt64(8 - count))) }
        pending = 0
        count = 0
        return bytes
    }
}
