/// A decoded chunk payload (docs/FORMAT.md §3).
enum ChunkPayload {
    case header(grid: SampleGrid, metadata: TraceMetadata)
    case samples(firstIndex: Int, isFinal: Bool)
    case metadata(TraceMetadata)
    case end(sampleCount: Int)

    /// Samples one chunk may hold: more would let a small payload claim a huge allocation.
    static let maximumSamplesPerChunk = 65_536

    // MARK: Encoding

    static func encodeHeader(grid: SampleGrid, metadata: TraceMetadata) throws(PanTraceError) -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        try encodeHeader(grid: grid, metadata: metadata, into: &w)
        return w.bytes
    }

    static func encodeHeader(grid: SampleGrid, metadata: TraceMetadata, into w: inout ByteWriter) throws(PanTraceError) {
        w.raw(HeaderFormat.magic)
        w.varint(UInt64(HeaderFormat.version))
        w.varint(UInt64(grid.timeTickNanoseconds))
        w.varint(UInt64(grid.positionTicksPerPoint))
        w.varint(UInt64(grid.velocityTicksPerPointPerSecond))
        try MetadataCoding.encode(metadata, into: &w)
    }

    static func encodeMetadata(_ metadata: TraceMetadata) throws(PanTraceError) -> [UInt8] {
        var w = ByteWriter()
        w.byte(ChunkKind.metadata.rawValue)
        try MetadataCoding.encode(metadata, into: &w)
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

    static func encodeSamples(_ c: QuantizedColumns, firstIndex: Int, isFinal: Bool) -> [UInt8] {
        var w = ByteWriter(capacity: c.count * 12 + 32)
        encodeSamples(c, firstIndex: firstIndex, isFinal: isFinal, into: &w)
        return w.bytes
    }

    static func encodeSamples(_ c: QuantizedColumns, firstIndex: Int, isFinal: Bool, into w: inout ByteWriter) {
        w.byte(ChunkKind.samples.rawValue)
        w.varint(UInt64(firstIndex))
        w.varint(UInt64(c.count))
        let optional = c.hasOptionalColumns
        w.byte((optional ? 1 : 0) | (isFinal ? 2 : 0))
        // Phases as runs: a gesture is began, a long run of changed, then ended.
        var i = 0
        while i < c.count {
            var j = i + 1
            while j < c.count, c.phase[j] == c.phase[i] { j += 1 }
            w.varint(UInt64(c.phase[i]))
            w.varint(UInt64(j - i))
            i = j
        }
        ColumnCoding.encode(c.time, into: &w)
        ColumnCoding.encode(c.tx, into: &w)
        ColumnCoding.encode(c.ty, into: &w)
        ColumnCoding.encode(c.vx, into: &w)
        ColumnCoding.encode(c.vy, into: &w)
        if optional {
            w.raw(c.mask)
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
            for t in c.touches { w.varint(UInt64(t)) }
        }
    }

    // MARK: Decoding

    /// Decodes the header payload at the start of chunk 0, leaving `r` after it; returns the
    /// format version, which the rest of the file is decoded with.
    static func decodeHeader(_ r: inout ByteReader) throws(PanTraceError) -> (version: Int, grid: SampleGrid, metadata: TraceMetadata) {
        guard r.bytes.count >= HeaderFormat.magic.count, r.bytes.starts(with: HeaderFormat.magic) else {
            throw PanTraceError(.badMagic)
        }
        _ = try r.raw(HeaderFormat.magic.count)
        let version = try r.count("format version", limit: Int(Int32.max))
        guard version >= 1 else { throw PanTraceError(.badHeader("format version 0 does not exist")) }
        guard version <= HeaderFormat.version else { throw PanTraceError(.unsupportedVersion(version)) }
        let grid = SampleGrid(
            timeTickNanoseconds: try r.count("time tick", limit: SampleGrid.maximumScale),
            positionTicksPerPoint: try r.count("position scale", limit: SampleGrid.maximumScale),
            velocityTicksPerPointPerSecond: try r.count("velocity scale", limit: SampleGrid.maximumScale))
        guard grid.isValid else { throw PanTraceError(.badHeader("grid scales must be between 1 and \(SampleGrid.maximumScale)")) }
        let metadata = try MetadataCoding.decode(&r, version: version)
        return (version, grid, metadata)
    }

    /// Decodes one payload at `r` (after the header); sample columns are appended to `samples`.
    static func decode(
        _ r: inout ByteReader, version: Int, grid: SampleGrid, samples: inout [PanSample], scratch: inout DecodeScratch
    ) throws(PanTraceError) -> ChunkPayload {
        let kindByte = try r.byte()
        guard let kind = ChunkKind(rawValue: kindByte) else {
            throw PanTraceError(.corruptChunk("unknown chunk kind 0x\(String(kindByte, radix: 16))"))
        }
        let result: ChunkPayload
        switch kind {
        case .metadata:
            result = .metadata(try MetadataCoding.decode(&r, version: version))
        case .end:
            result = .end(sampleCount: try r.count("sample count", limit: Int(Int64.max >> 1)))
        case .samples:
            let first = try r.count("first sample index", limit: Int(Int64.max >> 1))
            let count = try r.count("sample count", limit: maximumSamplesPerChunk)
            guard count >= 1 else { throw PanTraceError(.corruptChunk("sample chunk with no samples")) }
            let flags = try r.byte()
            guard flags & ~3 == 0 else { throw PanTraceError(.corruptChunk("unknown sample-chunk flags 0x\(String(flags, radix: 16))")) }
            try decodeSamples(
                count: count, hasOptional: flags & 1 != 0, reader: &r, version: version, grid: grid, samples: &samples, scratch: &scratch)
            result = .samples(firstIndex: first, isFinal: flags & 2 != 0)
        }
        return result
    }

    private static func decodeSamples(
        count: Int, hasOptional: Bool, reader r: inout ByteReader, version: Int, grid: SampleGrid,
        samples: inout [PanSample], scratch s: inout DecodeScratch
    ) throws(PanTraceError) {
        // Phase runs must cover exactly `count` samples.
        s.phase.removeAll(keepingCapacity: true)
        while s.phase.count < count {
            let code = try r.varint()
            guard code <= 3, let phase = GesturePhase(rawValue: UInt8(code)) else {
                throw PanTraceError(.corruptChunk("unknown phase code \(code) at payload byte \(r.offset)"))
            }
            let run = try r.count("phase run", limit: count - s.phase.count)
            guard run >= 1 else { throw PanTraceError(.corruptChunk("empty phase run at payload byte \(r.offset)")) }
            s.phase.append(contentsOf: repeatElement(phase, count: run))
        }
        try ColumnCoding.decode(count: count, from: &r, into: &s.time, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.tx, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.ty, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.vx, version: version)
        try ColumnCoding.decode(count: count, from: &r, into: &s.vy, version: version)
        var masks: ArraySlice<UInt8> = []
        var touchValues: [Int64] = []
        if hasOptional {
            masks = try r.raw(count)
            var locations = 0, touchCount = 0
            for m in masks {
                guard m & ~3 == 0 else { throw PanTraceError(.corruptChunk("unknown optional-column mask 0x\(String(m, radix: 16))")) }
                locations += Int(m & 1)
                touchCount += Int((m >> 1) & 1)
            }
            try ColumnCoding.decode(count: locations, from: &r, into: &s.lx, version: version)
            try ColumnCoding.decode(count: locations, from: &r, into: &s.ly, version: version)
            touchValues.reserveCapacity(touchCount)
            for _ in 0..<touchCount { touchValues.append(Int64(try r.count("touch count", limit: 1000))) }
        }
        let tps = grid.timeTicksPerSecond
        let pps = Double(grid.positionTicksPerPoint), vps = Double(grid.velocityTicksPerPointPerSecond)
        try checkTicks(s.time, count: count, scale: tps, field: "time")
        try checkTicks(s.tx, count: count, scale: pps, field: "translation.x")
        try checkTicks(s.ty, count: count, scale: pps, field: "translation.y")
        try checkTicks(s.vx, count: count, scale: vps, field: "velocity.x")
        try checkTicks(s.vy, count: count, scale: vps, field: "velocity.y")
        // Reserve only for the first chunk (a short trace's only one): reserving exactly for
        // every chunk would defeat the array's geometric growth and copy every earlier sample
        // again at each chunk.
        if samples.isEmpty { samples.reserveCapacity(count) }
        if !hasOptional {
            appendPlain(count: count, from: s, scales: (tps, pps, vps), to: &samples)
            return
        }
        var li = 0, ti = 0
        for i in 0..<count {
            var sample = PanSample(
                time: Double(s.time[i]) / tps, phase: s.phase[i],
                translation: PanVector(x: Double(s.tx[i]) / pps, y: Double(s.ty[i]) / pps),
                velocity: PanVector(x: Double(s.vx[i]) / vps, y: Double(s.vy[i]) / vps))
            if hasOptional {
                let m = masks[masks.startIndex + i]
                if m & 1 != 0 {
                    // Version 2 stores location − translation (see encodeSamples).
                    let x = version >= 2 ? s.lx[li] &+ s.tx[i] : s.lx[li], y = version >= 2 ? s.ly[li] &+ s.ty[i] : s.ly[li]
                    try checkTick(x, scale: pps, field: "location.x", sample: i)
                    try checkTick(y, scale: pps, field: "location.y", sample: i)
                    sample.location = PanVector(x: Double(x) / pps, y: Double(y) / pps)
                    li += 1
                }
                if m & 2 != 0 {
                    sample.touches = Int(touchValues[ti])
                    ti += 1
                }
            }
            samples.append(sample)
        }
    }
}

extension ChunkPayload {
    /// Refuses a tick that would not come back from the value it reads as, so that whatever
    /// the reader accepts, the writer writes again to the same samples. Below 2⁵¹ ticks the
    /// value `ticks / scale` always rounds back; from 2⁵¹ to 2⁵³ only some do; from 2⁵³ on the
    /// writer refuses them (found by the structure-aware fuzzer, docs/FUZZING.md).
    @inline(__always)
    static func checkTicks(_ column: [Int64], count: Int, scale: Double, field: String) throws(PanTraceError) {
        guard column.prefix(count).contains(where: { $0.magnitude >= exactTickBound }) else { return }
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

    /// The samples of a chunk without optional columns: the columns hold at least `count`
    /// values each (``ColumnCoding/decode(count:from:into:version:)``).
    private static func appendPlain(
        count: Int, from s: DecodeScratch, scales: (time: Double, position: Double, velocity: Double), to samples: inout [PanSample]
    ) {
        for i in 0..<count {
            samples.append(
                PanSample(
                    time: Double(s.time[i]) / scales.time, phase: s.phase[i],
                    translation: PanVector(x: Double(s.tx[i]) / scales.position, y: Double(s.ty[i]) / scales.position),
                    velocity: PanVector(x: Double(s.vx[i]) / scales.velocity, y: Double(s.vy[i]) / scales.velocity)))
        }
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
