internal import PanTrace

/// The fold hash (``TraceSubsets/foldHash(of:)``, docs/TUNE.md "Cross-validated accuracy"):
/// 64-bit FNV-1a from the offset basis XOR the seed, over the identifier's UTF-8, then each
/// sample's time, translation x and y, velocity x and y, each as the 8 little-endian bytes of
/// its IEEE double.
///
/// FNV-1a is one multiply waiting on the one before, byte after byte, so one trace's hash runs
/// at the multiplier's latency. ``of(count:_:)`` hashes four traces side by side, four
/// independent chains the core overlaps: the same values, 2.2–2.4× faster alone
/// (BENCHMARKS.md, "`tune` CPU and the end-to-end peer").
enum FoldHash {
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The fold hash of `trace`.
    static func of(_ trace: Trace) -> UInt64 { of(id: trace.metadata.id, samples: trace.samples) }

    /// The fold hash of the trace with identifier `id` and `samples`.
    private static func of(id: String, samples: [PanSample]) -> UInt64 {
        var hash = start(id)
        for sample in samples { hash = add(sample, to: hash) }
        return hash
    }

    /// The fold hash of each of `count` traces, four at a time: the samples the four share in
    /// count go together, each one's rest alone; a last group of fewer than four one by one.
    /// `trace(i)` gives the identifier and samples of the i-th, so that the traces can stay
    /// where they are (in the corpus entries a batch holds), not copied into an array first.
    static func of(count: Int, _ trace: (Int) -> (id: String, samples: [PanSample])) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(count)
        var first = 0
        while first + 4 <= count {
            let (ta, tb, tc, td) = (trace(first), trace(first + 1), trace(first + 2), trace(first + 3))
            let (a, b, c, d) = (ta.samples, tb.samples, tc.samples, td.samples)
            var h = (start(ta.id), start(tb.id), start(tc.id), start(td.id))
            let common = min(a.count, b.count, c.count, d.count)
            for i in 0..<common { add(a[i], b[i], c[i], d[i], to: &h) }
            for i in common..<a.count { h.0 = add(a[i], to: h.0) }
            for i in common..<b.count { h.1 = add(b[i], to: h.1) }
            for i in common..<c.count { h.2 = add(c[i], to: h.2) }
            for i in common..<d.count { h.3 = add(d[i], to: h.3) }
            hashes += [h.0, h.1, h.2, h.3]
            first += 4
        }
        for index in first..<count {
            let (id, samples) = trace(index)
            hashes.append(of(id: id, samples: samples))
        }
        return hashes
    }

    /// The hash after the identifier.
    private static func start(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ TraceSubsets.seed
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    @inline(__always) private static func add(_ value: Double, to hash: UInt64) -> UInt64 {
        var hash = hash
        var bits = value.bitPattern
        for _ in 0..<8 {
            hash = (hash ^ (bits & 0xFF)) &* prime
            bits >>= 8
        }
        return hash
    }

    @inline(__always) private static func add(_ sample: PanSample, to hash: UInt64) -> UInt64 {
        var hash = add(sample.time, to: hash)
        hash = add(sample.translation.x, to: hash)
        hash = add(sample.translation.y, to: hash)
        hash = add(sample.velocity.x, to: hash)
        return add(sample.velocity.y, to: hash)
    }

    /// Four hashes advanced together over four samples, byte for byte.
    @inline(__always) private static func add(
        _ a: PanSample, _ b: PanSample, _ c: PanSample, _ d: PanSample, to hashes: inout (UInt64, UInt64, UInt64, UInt64)
    ) {
        add(a.time, b.time, c.time, d.time, to: &hashes)
        add(a.translation.x, b.translation.x, c.translation.x, d.translation.x, to: &hashes)
        add(a.translation.y, b.translation.y, c.translation.y, d.translation.y, to: &hashes)
        add(a.velocity.x, b.velocity.x, c.velocity.x, d.velocity.x, to: &hashes)
        add(a.velocity.y, b.velocity.y, c.velocity.y, d.velocity.y, to: &hashes)
    }

    @inline(__always) private static func add(
        _ a: Double, _ b: Double, _ c: Double, _ d: Double, to hashes: inout (UInt64, UInt64, UInt64, UInt64)
    ) {
        var (b0, b1, b2, b3) = (a.bitPattern, b.bitPattern, c.bitPattern, d.bitPattern)
        var (h0, h1, h2, h3) = hashes
        for _ in 0..<8 {
            h0 = (h0 ^ (b0 & 0xFF)) &* prime
            h1 = (h1 ^ (b1 & 0xFF)) &* prime
            h2 = (h2 ^ (b2 & 0xFF)) &* prime
            h3 = (h3 ^ (b3 & 0xFF)) &* prime
            b0 >>= 8
            b1 >>= 8
            b2 >>= 8
            b3 >>= 8
        }
        hashes = (h0, h1, h2, h3)
    }
}
