/// A decoded chunk payload (docs/FORMAT.md §3).
enum ChunkPayload {
    case header(grid: SampleGrid, metadata: TraceMetadata)
    case samples(firstIndex: Int, isFinal: Bool)
    case metadata(TraceMetadata)
    case end(sampleCount: Int)

    /// Samples one chunk may hold: more would let a small payload claim a huge allocation.
    static let maximumSamplesPerChunk = 65_536

    // MARK: Encoding

    static func encodeHeader(grid: SampleGrid, metadata: TraceMetadata, name: String? = nil) throws(PanTraceError) -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        try encodeHeader(grid: grid, metadata: metadata, name: name, into: &w)
        return w.bytes
    }

    /// The header in the newest version: magic, version, a flags varint (bit 0: the standard
    /// grid, whose scales are then left out), the scales otherwise, the metadata. `name` is
    /// the file's name without `.pantrace`, if known (``MetadataCoding/encode(_:name:into:)``).
    static func encodeHeader(grid: SampleGrid, metadata: TraceMetadata, name: String? = nil, into w: inout ByteWriter) throws(PanTraceError) {
        w.raw(HeaderFormat.magic)
        w.varint(UInt64(HeaderFormat.version))
        if grid == .standard {
            w.varint(HeaderFormat.standardGridFlag)
        } else {
            w.varint(0)
            w.varint(UInt64(grid.timeTickNanoseconds))
            w.varint(UInt64(grid.positionTicksPerPoint))
            w.varint(UInt64(grid.velocityTicksPerPointPerSecond))
        }
        try MetadataCoding.encode(metadata, name: name, into: &w)
    }

    static func encodeMetadata(_ metadata: TraceMetadata, name: String? = nil) throws(PanTraceError) -> [UInt8] {
        var w = ByteWriter()
        w.byte(ChunkKind.metadata.rawValue)
        try MetadataCoding.encode(metadata, name: name, into: &w)
        return w.bytes
    }

    static func encodeEnd(sampleCount: Int) -> [UInt8] {
        var w = ByteWriter()
        encodeEnd(sampleCount: sampleCount, into: &w)
        return w.bytes
    }

    static func encodeEnd(sampleCount: Int, into w: inout ByteWriter) {
        w.byte(ChunkKind.end.rawValue)
        w.varint(UInt64(sampleCount))
    }

    static func encodeSamples(_ c: QuantizedColumns, grid: SampleGrid, firstIndex: Int, isFinal: Bool) -> [UInt8] {
        var w = ByteWriter(capacity: c.count * 12 + 32)
        encodeSamples(c, grid: grid, firstIndex: firstIndex, isFinal: isFinal, into: &w)
        return w.bytes
    }

    /// Sample-payload flags (docs/FORMAT.md §4). Bits 2–5 are version 3's.
    enum SampleFlags {
        /// A mask byte per sample says which optional values it has.
        static let mask: UInt8 = 1
        /// The file's last samples: the end mark.
        static let final: UInt8 = 2
        /// Every sample has a location (no mask).
        static let everyLocation: UInt8 = 4
        /// Every sample has a touch count (no mask).
        static let everyTouchCount: UInt8 = 8
        /// Translation x, then y, is coded as what velocity leaves unexplained.
        static let velocityPredictsX: UInt8 = 16
        static let velocityPredictsY: UInt8 = 32
        static let known: UInt8 = 63
    }

    /// Writes the samples in the newest version.
    static func encodeSamples(_ c: QuantizedColumns, grid: SampleGrid, firstIndex: Int, isFinal: Bool, into w: inout ByteWriter) {
        w.byte(ChunkKind.samples.rawValue)
        w.varint(UInt64(firstIndex))
        w.varint(UInt64(c.count))
        let n = c.count
        var flags: UInt8 = isFinal ? SampleFlags.final : 0
        let uniformLocations = c.lx.isEmpty || c.lx.count == n, uniformTouches = c.touches.isEmpty || c.touches.count == n
        if uniformLocations, uniformTouches {
            if c.lx.count == n { flags |= SampleFlags.everyLocation }
            if c.touches.count == n { flags |= SampleFlags.everyTouchCount }
        } else {
            flags |= SampleFlags.mask
        }
        // Translation from velocity where that is smaller than the column on its own.
        let multiplier = VelocityPrediction.multiplier(for: grid)
        var x = TranslationPlan(c.tx), y = TranslationPlan(c.ty)
        if let multiplier, n > 2 {
            x.considerVelocity(time: c.time, velocity: c.vx, multiplier: multiplier)
            y.considerVelocity(time: c.time, velocity: c.vy, multiplier: multiplier)
            if x.predicted != nil { flags |= SampleFlags.velocityPredictsX }
            if y.predicted != nil { flags |= SampleFlags.velocityPredictsY }
        }
        w.byte(flags)
        // Phases as runs, one varint each, (run − 1) << 2 | phase: a gesture is began, a long
        // run of changed, then ended, four bytes in all.
        var i = 0
        while i < n {
            var j = i + 1
            while j < n, c.phase[j] == c.phase[i] { j += 1 }
            w.varint(UInt64(j - i - 1) << 2 | UInt64(c.phase[i]))
            i = j
        }
        ColumnCoding.encode(c.time, into: &w)
        x.write(into: &w)
        y.write(into: &w)
        ColumnCoding.encode(c.vx, into: &w)
        ColumnCoding.encode(c.vy, into: &w)
        if flags & SampleFlags.mask != 0 { w.raw(c.mask) }
        if !c.lx.isEmpty {
            // A pan's location is its start plus its translation: store the difference, which
            // stays put for as long as the touch's start does.
            var dx: [Int64] = [], dy: [Int64] = []
            dx.reserveCapacity(c.lx.count)
            dy.reserveCapacity(c.ly.count)
            var li = 0
            for (i, m) in c.mask.enumerated() where m & 1 != 0 {
                dx.append(c.lx[li] &- c.tx[i])
                dy.append(c.ly[li] &- c.ty[i])
                li += 1
            }
            ColumnCoding.encode(dx, into: &w)
            ColumnCoding.encode(dy, into: &w)
        }
        if !c.touches.isEmpty { ColumnCoding.encode(c.touches, into: &w) }
    }

    // MARK: Decoding

    /// Decodes the header payload at the start of chunk 0, leaving `r` after it; returns the
    /// format version, which the rest of the file is decoded with. `name`: the file's name
    /// without `.pantrace`, the id of a version 3 header that leaves it out.
    static func decodeHeader(_ r: inout ByteReader, name: String? = nil) throws(PanTraceError) -> (
        version: Int, grid: SampleGrid, metadata: TraceMetadata
    ) {
        let header = try decodeHeaderFields(&r, name: name)
        return (header.version, header.grid, header.metadata)
    }

    /// ``decodeHeader(_:name:)`` as a ``DecodedHeader``: what a corpus keeps of a header many
    /// of its gestures share, decoded once.
    static func decodeHeaderFields(_ r: inout ByteReader, name: String? = nil) throws(PanTraceError) -> DecodedHeader {
        guard r.bytes.count >= HeaderFormat.magic.count, r.bytes.starts(with: HeaderFormat.magic) else {
            throw PanTraceError(.badMagic)
        }
        _ = try r.raw(HeaderFormat.magic.count)
        let version = try r.count("format version", limit: Int(Int32.max))
        guard version >= 1 else { throw PanTraceError(.badHeader("format version 0 does not exist")) }
        guard version <= HeaderFormat.version else { throw PanTraceError(.unsupportedVersion(version)) }
        var standard = false
        if version >= 3 {
            let flags = try r.varint()
            guard flags & ~HeaderFormat.standardGridFlag == 0 else {
                throw PanTraceError(.badHeader("unknown header flags 0x\(String(flags, radix: 16))"))
            }
            standard = flags & HeaderFormat.standardGridFlag != 0
        }
        let grid =
            standard
            ? SampleGrid.standard
            : SampleGrid(
                timeTickNanoseconds: try r.count("time tick", limit: SampleGrid.maximumScale),
                positionTicksPerPoint: try r.count("position scale", limit: SampleGrid.maximumScale),
                velocityTicksPerPointPerSecond: try r.count("velocity scale", limit: SampleGrid.maximumScale))
        guard grid.isValid else { throw PanTraceError(.badHeader("grid scales must be between 1 and \(SampleGrid.maximumScale)")) }
        let (metadata, storesID) = try MetadataCoding.decodeFields(&r, version: version, name: name)
        return DecodedHeader(version: version, grid: grid, metadata: metadata, storesID: storesID, byteCount: r.offset)
    }

    /// Decodes one payload at `r` (after the header); sample columns are appended to `samples`.
    static func decode(
        _ r: inout ByteReader, version: Int, grid: SampleGrid, name: String?, samples: inout [PanSample], scratch: inout DecodeScratch
    ) throws(PanTraceError) -> ChunkPayload {
        let kindByte = try r.byte()
        guard let kind = ChunkKind(rawValue: kindByte) else {
            throw PanTraceError(.corruptChunk("unknown chunk kind 0x\(String(kindByte, radix: 16))"))
        }
        let result: ChunkPayload
        switch kind {
        case .metadata:
            result = .metadata(try MetadataCoding.decode(&r, version: version, name: name))
        case .end:
            result = .end(sampleCount: try r.count("sample count", limit: Int(Int64.max >> 1)))
        case .samples:
            let first = try r.count("first sample index", limit: Int(Int64.max >> 1))
            let count = try r.count("sample count", limit: maximumSamplesPerChunk)
            guard count >= 1 else { throw PanTraceError(.corruptChunk("sample chunk with no samples")) }
            let flags = try r.byte()
            let known = version >= 3 ? SampleFlags.known : SampleFlags.mask | SampleFlags.final
            guard flags & ~known == 0, flags & SampleFlags.mask == 0 || flags & (SampleFlags.everyLocation | SampleFlags.everyTouchCount) == 0
            else { throw PanTraceError(.corruptChunk("unknown sample-chunk flags 0x\(String(flags, radix: 16))")) }
            try decodeSamples(count: count, flags: flags, reader: &r, version: version, grid: grid, samples: &samples, scratch: &scratch)
            result = .samples(firstIndex: first, isFinal: flags & SampleFlags.final != 0)
        }
        return result
    }

    private static func decodeSamples(
        count: Int, flags: UInt8, reader r: inout ByteReader, version: Int, grid: SampleGrid,
        samples: inout [PanSample], scratch s: inout DecodeScratch
    ) throws(PanTraceError) {
        s.timesChecked = false
        // Phase runs must cover exactly `count` samples.
        s.phase.removeAll(keepingCapacity: true)
        while s.phase.count < count {
            let code: UInt64, run: Int
            if version >= 3 {
                // One varint a run: (run − 1) << 2 | phase.
                let packed = try r.count("phase run", limit: (count - s.phase.count - 1) << 2 | 3)
                (code, run) = (UInt64(packed & 3), packed >> 2 + 1)
                guard run <= count - s.phase.count else {
                    throw PanTraceError(.corruptChunk("phase run of \(run) past the chunk's \(count) samples at payload byte \(r.offset)"))
                }
            } else {
                code = try r.varint()
                run = try r.count("phase run", limit: count - s.phase.count)
                guard run >= 1 else { throw PanTraceError(.corruptChunk("empty phase run at payload byte \(r.offset)")) }
            }
            guard code <= 3, let phase = GesturePhase(rawValue: UInt8(code)) else {
                throw PanTraceError(.corruptChunk("unknown phase code \(code) at payload byte \(r.offset)"))
            }
            s.phase.append(contentsOf: repeatElement(phase, count: run))
        }
        let predictsX = flags & SampleFlags.velocityPredictsX != 0, predictsY = flags & SampleFlags.velocityPredictsY != 0
        var multiplier: Int64 = 0
        if predictsX || predictsY {
            guard let m = VelocityPrediction.multiplier(for: grid) else {
                throw PanTraceError(.corruptChunk("translation predicted from velocity on a grid that does not allow it"))
            }
            multiplier = m
        }
        try ColumnCoding.decode(count: count, from: &r, into: &s.time, version: version)
        let firstX = try translation(predicted: predictsX, count: count, from: &r, into: &s.tx, version: version)
        let firstY = try translation(predicted: predictsY, count: count, from: &r, into: &s.ty, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.vx, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.vy, version: version)
        if let firstX { VelocityPrediction.undo(first: firstX, &s.tx, time: s.time, velocity: s.vx, count: count, multiplier: multiplier) }
        if let firstY { VelocityPrediction.undo(first: firstY, &s.ty, time: s.time, velocity: s.vy, count: count, multiplier: multiplier) }
        let hasMask = flags & SampleFlags.mask != 0
        let everyLocation = flags & SampleFlags.everyLocation != 0, everyTouchCount = flags & SampleFlags.everyTouchCount != 0
        var masks: ArraySlice<UInt8> = []
        var locations = everyLocation ? count : 0, touchCount = everyTouchCount ? count : 0
        if hasMask {
            masks = try r.raw(count)
            for m in masks {
                guard m & ~3 == 0 else { throw PanTraceError(.corruptChunk("unknown optional-column mask 0x\(String(m, radix: 16))")) }
                locations += Int(m & 1)
                touchCount += Int((m >> 1) & 1)
            }
        }
        // Version 2 writes both location columns whenever there is a mask, even empty ones;
        // version 3 only when some sample has a location.
        if version >= 3 ? locations > 0 : hasMask {
            try ColumnCoding.decode(count: locations, from: &r, into: &s.lx, version: version)
            try ColumnCoding.decode(count: locations, from: &r, into: &s.ly, version: version)
        }
        if touchCount > 0 {
            if version >= 3 {
                try ColumnCoding.decode(count: touchCount, from: &r, into: &s.touches, version: version)
                for i in 0..<touchCount where !(0...1000).contains(s.touches[i]) {
                    throw PanTraceError(.corruptChunk("touch count \(s.touches[i]) exceeds the limit of 1000"))
                }
            } else {
                if s.touches.count < touchCount { s.touches.append(contentsOf: repeatElement(0, count: touchCount - s.touches.count)) }
                for i in 0..<touchCount { s.touches[i] = Int64(try r.count("touch count", limit: 1000)) }
            }
        }
        let tps = grid.timeTicksPerSecond
        let pps = Double(grid.positionTicksPerPoint), vps = Double(grid.velocityTicksPerPointPerSecond)
        try checkTicks(s.time, count: count, scale: tps, field: "time")
        try checkTicks(s.tx, count: count, scale: pps, field: "translation.x")
        try checkTicks(s.ty, count: count, scale: pps, field: "translation.y")
        try checkTicks(s.vx, count: count, scale: vps, field: "velocity.x")
        try checkTicks(s.vy, count: count, scale: vps, field: "velocity.y")
        if locations == 0, touchCount == 0 {
            s.timesChecked = appendPlain(count: count, from: s, scales: (tps, pps, vps), to: &samples)  // Interop/SampleKernels.swift
            return
        }
        // Reserve only for the first chunk (a short trace's only one): reserving exactly for
        // every chunk would defeat the array's geometric growth and copy every earlier sample
        // again at each chunk.
        if samples.isEmpty { samples.reserveCapacity(count) }
        var li = 0, ti = 0
        let uniform: UInt8 = (everyLocation ? 1 : 0) | (everyTouchCount ? 2 : 0)
        for i in 0..<count {
            var sample = PanSample(
                time: Double(s.time[i]) / tps, phase: s.phase[i],
                translation: PanVector(x: Double(s.tx[i]) / pps, y: Double(s.ty[i]) / pps),
                velocity: PanVector(x: Double(s.vx[i]) / vps, y: Double(s.vy[i]) / vps))
            let m = hasMask ? masks[masks.startIndex + i] : uniform
            if m & 1 != 0 {
                // From version 2 on the file stores location − translation (see encodeSamples).
                let x = version >= 2 ? s.lx[li] &+ s.tx[i] : s.lx[li], y = version >= 2 ? s.ly[li] &+ s.ty[i] : s.ly[li]
                try checkTick(x, scale: pps, field: "location.x", sample: i)
                try checkTick(y, scale: pps, field: "location.y", sample: i)
                sample.location = PanVector(x: Double(x) / pps, y: Double(y) / pps)
                li += 1
            }
            if m & 2 != 0 {
                sample.touches = Int(s.touches[ti])
                ti += 1
            }
            samples.append(sample)
        }
    }

    /// A translation column: on its own, or (`predicted`) its first value as a varint and the
    /// residuals after velocity prediction, which are left in `values[0..<count − 1]` for
    /// ``VelocityPrediction/undo(first:_:time:velocity:count:multiplier:)``; returns that
    /// first value then.
    private static func translation(
        predicted: Bool, count: Int, from r: inout ByteReader, into values: inout [Int64], version: Int
    ) throws(PanTraceError) -> Int64? {
        guard predicted else {
            try ColumnCoding.decode(count: count, from: &r, into: &values, version: version)
            return nil
        }
        let first = try r.signed()
        try ColumnCoding.decode(count: count - 1, from: &r, into: &values, version: version)
        if values.count < count { values.append(contentsOf: repeatElement(0, count: count - values.count)) }
        return first
    }
}

extension ChunkPayload {
    /// Refuses a tick that would not come back from the value it reads as, so that whatever
    /// the reader accepts, the writer writes again to the same samples. Below 2⁵¹ ticks the
    /// value `ticks / scale` always rounds back; from 2⁵¹ to 2⁵³ only some do; from 2⁵³ on the
    /// writer refuses them (found by the structure-aware fuzzer, docs/FUZZING.md).
    @inline(__always)
    static func checkTicks(_ column: [Int64], count: Int, scale: Double, field: String) throws(PanTraceError) {
        guard mayExceed(column, count: count, bound: exactTickBound) else { return }  // Interop/SampleKernels.swift
        for (index, ticks) in column.prefix(count).enumerated() { try checkTick(ticks, scale: scale, field: field, sample: index) }
    }

    /// Ticks below this magnitude always come back exactly (see ``checkTicks(_:count:scale:field:)``).
    static let exactTickBound: UInt64 = 1 << 51

    /// ``checkTicks(_:count:scale:field:)`` for one value.
    @inline(__always)
    static func checkTick(_ ticks: Int64, scale: Double, field: String, sample index: Int) throws(PanTraceError) {
        guard ticks.magnitude >= exactTickBound else { return }
        var ok = true
        let back = QuantizedColumns.ticks(Double(ticks) / scale * scale, &ok)
        guard ok, back == ticks else {
            throw PanTraceError(.invalidSample("\(field) of \(ticks) ticks is beyond what the grid stores exactly"), sample: index)
        }
    }
}

/// A header payload decoded: what it says, and how many bytes (the magic included) it took.
struct DecodedHeader {
    var version: Int
    var grid: SampleGrid
    var metadata: TraceMetadata
    /// Whether the header stored the id; when not, the id is the file's name.
    var storesID: Bool
    var byteCount: Int

    /// The metadata of a file named `name` with this header.
    func metadata(named name: String?) -> TraceMetadata {
        guard !storesID else { return metadata }
        var named = metadata
        named.id = name ?? ""
        return named
    }
}

/// Column buffers reused across chunks so decoding a file does not allocate per chunk.
struct DecodeScratch {
    var phase: [GesturePhase] = []
    var time: [Int64] = []
    var tx: [Int64] = []
    var ty: [Int64] = []
    var vx: [Int64] = []
    var vy: [Int64] = []
    var lx: [Int64] = []
    var ly: [Int64] = []
    var touches: [Int64] = []
    /// Whether the last sample payload's times were found valid and in order while its
    /// samples were built (the reader then need not check them again).
    var timesChecked = false
}

/// Turns a `DecodingError` into one short phrase naming the key path, for one-line errors.
public enum DecodingProblem {
    /// One phrase for a decoding error, naming the key path.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context): return "\(context.debugDescription)\(path(context))"
        case .valueNotFound(_, let context): return "missing value\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
