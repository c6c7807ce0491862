/// Integer column coding (docs/FORMAT.md §4.1): k-th order differences, an optional bias,
/// zigzag, then Golomb–Rice codes with a parameter chosen per column.
///
/// A column picks the prediction order (0: raw, 1: delta, 2: delta-of-delta — Gorilla's
/// timestamp trick, prior-art.md §4.1 — or 3, for the smooth velocity of a pan), whether a
/// bias is subtracted from every residual (a sampling clock's period: order 1 plus the bias
/// leaves only the timestamp jitter) and the Rice parameter `k`. Rice codes are near the
/// entropy for the two-sided geometric residuals that noisy, smooth gesture data leaves,
/// where byte-wise varints waste several bits a value and deflate, on chunks of a few dozen
/// samples, gains nothing. A column depends on nothing before it (its first values use the
/// orders their history allows), so every chunk decodes on its own.
enum ColumnCoding {
    /// Quotients at or above this are escaped: the marker, then the zigzag value's bit length
    /// and bits (version 2) or all 64 of its bits (version 1).
    static let escapeQuotient = 24
    /// The largest Rice parameter a version 2 column header can hold.
    static let maximumParameter = 31

    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    @inline(__always)
    static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))) }

    // MARK: Encoding (version 2)

    /// The prediction a column is coded with.
    private struct Choice {
        var order: Int
        var bias: Int64
        var k: Int
        /// The exact size of the Rice-coded part, in bits.
        var bits: Int
    }

    /// Appends the column: a byte `order << 6 | hasBias << 5 | k`, the bias as a zigzag varint
    /// if there is one, the first `order` residuals as zigzag varints, then the remaining
    /// residuals (minus the bias) as Rice codes, padded to a whole byte.
    static func encode(_ values: [Int64], into writer: inout ByteWriter) {
        values.withUnsafeBufferPointer { v in
            let choice = choose(v)
            writer.byte(UInt8(choice.order << 6 | (choice.bias != 0 ? 1 << 5 : 0) | choice.k))
            if choice.bias != 0 { writer.signed(choice.bias) }
            // The first values use the orders their history allows: 0, 1, 2 …
            var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
            let head = min(choice.order, v.count)
            for i in 0..<head {
                writer.signed(residual(v[i], p1, p2, p3, order: i))
                p3 = p2
                p2 = p1
                p1 = v[i]
            }
            guard v.count > head else { return }
            // The exact size is known: size the output once and write through a pointer.
            let start = writer.bytes.count, size = (choice.bits + 7) / 8
            writer.bytes.append(contentsOf: repeatElement(0, count: size + 8))
            writer.bytes.withUnsafeMutableBufferPointer { out in
                var bits = BitPacker(out, at: start)
                let k = UInt64(choice.k)
                forEachResidual(v, order: choice.order) { r in
                    let z = zigzag(r &- choice.bias)
                    let q = z >> k
                    if q < UInt64(escapeQuotient) {
                        // q zeros, a one, then the low k bits.
                        bits.write(1, width: Int(q) + 1)
                        bits.write(z, width: choice.k)
                    } else {
                        // The escape: the marker, six bits of (bit length − 1), then z in that many bits.
                        let length = 64 - z.leadingZeroBitCount
                        bits.write(1 << 6 | UInt64(length - 1), width: escapeQuotient + 1 + 6)
                        if length > 32 { bits.write(z >> 32, width: length - 32) }
                        bits.write(z & 0xffff_ffff, width: min(32, length))
                    }
                }
                let end = bits.flush()
                precondition(end == start + size, "a column's bits differ from the size counted for them")
            }
            writer.bytes.removeLast(8)
        }
    }

    /// Calls `body` with the residual of every value from index `order` on, at that order:
    /// one loop per order, so the order is not decided again for every value.
    @inline(__always)
    private static func forEachResidual(_ v: UnsafeBufferPointer<Int64>, order: Int, _ body: (Int64) -> Void) {
        let n = v.count
        guard n > order else { return }
        switch order {
        case 0:
            for i in 0..<n { body(v[i]) }
        case 1:
            for i in 1..<n { body(v[i] &- v[i - 1]) }
        case 2:
            for i in 2..<n { body(v[i] &- 2 &* v[i - 1] &+ v[i - 2]) }
        default:
            for i in 3..<n { body(v[i] &- 3 &* v[i - 1] &+ 3 &* v[i - 2] &- v[i - 3]) }
        }
    }

    @inline(__always)
    private static func residual(_ value: Int64, _ p1: Int64, _ p2: Int64, _ p3: Int64, order: Int) -> Int64 {
        switch order {
        case 0: value
        case 1: value &- p1
        case 2: value &- 2 &* p1 &+ p2
        default: value &- 3 &* p1 &+ 3 &* p2 &- p3
        }
    }

    /// Picks the prediction in two passes rather than by trial encoding: the first sums the
    /// zigzag residuals of every candidate (orders 0–3, and order 1 less its mean) and keeps
    /// the one whose estimated Rice size is least; the second counts that candidate's exact
    /// bits for the three parameters around log₂ of its mean.
    private static func choose(_ v: UnsafeBufferPointer<Int64>) -> Choice {
        let n = v.count
        guard n > 0 else { return Choice(order: 0, bias: 0, k: 0, bits: 0) }
        // Saturate each term so a hostile-size value cannot overflow the sums.
        let cap: UInt64 = 1 << 40
        // The first values are varints at orders 0, 1, 2: their cost is the head of each order.
        let v0 = v[0], v1 = n > 1 ? v[1] : 0, v2 = n > 2 ? v[2] : 0
        let head1 = varintBits(zigzag(v0))
        let head2 = head1 + varintBits(zigzag(v1 &- v0))
        let head3 = head2 + varintBits(zigzag(v2 &- 2 &* v1 &+ v0))
        var s0 = min(zigzag(v0), cap) &+ min(zigzag(v1), cap) &+ min(zigzag(v2), cap)
        var s1 = min(zigzag(v1 &- v0), cap) &+ min(zigzag(v2 &- v1), cap)
        var s2 = min(zigzag(v2 &- 2 &* v1 &+ v0), cap)
        var s3: UInt64 = 0
        if n <= 2 {
            s0 = min(zigzag(v0), cap) &+ (n > 1 ? min(zigzag(v1), cap) : 0)
            s1 = n > 1 ? min(zigzag(v1 &- v0), cap) : 0
            s2 = 0
        }
        var p1 = v2, p2 = v1, p3 = v0
        // Values within ±2⁴⁰ cannot overflow the sums (a zigzagged third difference stays
        // below 2⁴⁴, times at most 2¹⁶ values): then the loop needs no saturation.
        var small = true
        for i in 0..<n where v[i].magnitude >= 1 << 40 { small = false; break }
        if small {
            // Differences carried along: each order's residual is the previous order's less its
            // value one step back.
            var d1 = p1 &- p2, d2 = (p1 &- p2) &- (p2 &- p3)
            for i in 3..<max(3, n) {
                let value = v[i]
                let r1 = value &- p1
                let r2 = r1 &- d1
                let r3 = r2 &- d2
                s0 &+= zigzag(value)
                s1 &+= zigzag(r1)
                s2 &+= zigzag(r2)
                s3 &+= zigzag(r3)
                p1 = value
                d1 = r1
                d2 = r2
            }
        } else {
            for i in 3..<max(3, n) {
                let value = v[i]
                let r1 = value &- p1
                let r2 = r1 &- (p1 &- p2)
                let r3 = r2 &- (p1 &- 2 &* p2 &+ p3)
                s0 &+= min(zigzag(value), cap)
                s1 &+= min(zigzag(r1), cap)
                s2 &+= min(zigzag(r2), cap)
                s3 &+= min(zigzag(r3), cap)
                p3 = p2
                p2 = p1
                p1 = value
            }
        }
        var best = Choice(order: 0, bias: 0, k: 0, bits: 0)
        var bestCost = estimatedBits(sum: s0, count: n)
        var bestSum = s0
        func consider(_ order: Int, _ sum: UInt64, _ head: Int) {
            guard n > order else { return }
            let cost = head + estimatedBits(sum: sum, count: n - order)
            if cost < bestCost { best = Choice(order: order, bias: 0, k: 0, bits: 0); bestCost = cost; bestSum = sum }
        }
        consider(1, s1, head1)
        consider(2, s2, head2)
        consider(3, s3, head3)
        // Order 1 less its mean (the differences telescope: (last − first) / (n − 1)): a
        // steady clock's period, or a steady drift. Tried only when the mean is a large part
        // of the differences.
        if n > 2 {
            let mean = (Double(v[n - 1]) - Double(v0)) / Double(n - 1)
            let bias = abs(mean) < 1e15 ? Int64(mean.rounded()) : 0
            if bias != 0, Double(zigzag(bias)) * Double(n - 1) * 4 > Double(s1) {
                var sum: UInt64 = 0
                var previous = v0
                for j in 1..<n {
                    sum &+= min(zigzag(v[j] &- previous &- bias), cap)
                    previous = v[j]
                }
                let cost = head1 + 8 * varintBytes(zigzag(bias)) + estimatedBits(sum: sum, count: n - 1)
                if cost < bestCost { best = Choice(order: 1, bias: bias, k: 0, bits: 0); bestCost = cost; bestSum = sum }
            }
        }
        (best.k, best.bits) = bestParameter(v, best, sum: bestSum)
        return best
    }

    /// Rice bits for `count` values summing to `sum`, with the parameter nearest log₂ of the mean.
    @inline(__always)
    private static func estimatedBits(sum: UInt64, count: Int) -> Int {
        guard count > 0 else { return 0 }
        let mean = sum / UInt64(count)
        let k = mean == 0 ? 0 : min(maximumParameter, 63 - mean.leadingZeroBitCount)
        return count * (k + 1) + Int(truncatingIfNeeded: min(sum >> UInt64(k), 1 << 50))
    }

    /// The exact best of the three parameters around log₂ of the chosen residuals' mean
    /// (`sum` is their zigzag sum), and the bits it takes.
    private static func bestParameter(_ v: UnsafeBufferPointer<Int64>, _ c: Choice, sum: UInt64) -> (k: Int, bits: Int) {
        let n = v.count
        guard n > c.order else { return (0, 0) }
        let g = max(1, min(maximumParameter - 1, parameterGuess(sum, n - c.order)))
        var below: UInt64 = 0, at: UInt64 = 0, above: UInt64 = 0  // unary bits at g − 1, g, g + 1
        forEachResidual(v, order: c.order) { r in
            let z = zigzag(r &- c.bias)
            // One shift serves all three: z >> g is (z >> (g − 1)) >> 1, and so on.
            let q = z >> UInt64(g - 1)
            if q < UInt64(escapeQuotient) {
                below &+= q &+ 1
                at &+= (q >> 1) &+ 1
                above &+= (q >> 2) &+ 1
            } else {
                below &+= quotientBits(z, g - 1)
                at &+= quotientBits(z, g)
                above &+= quotientBits(z, g + 1)
            }
        }
        let m = UInt64(n - c.order)
        below &+= m &* UInt64(g - 1)
        at &+= m &* UInt64(g)
        above &+= m &* UInt64(g + 1)
        if below < at, below <= above { return (g - 1, Int(below)) }
        return above < at ? (g + 1, Int(above)) : (g, Int(at))
    }

    @inline(__always)
    private static func parameterGuess(_ sum: UInt64, _ count: Int) -> Int {
        let mean = sum / UInt64(max(1, count))
        return mean == 0 ? 0 : 63 - mean.leadingZeroBitCount
    }

    /// The unary part of a Rice code (quotient and its terminating one), escapes included.
    @inline(__always)
    private static func quotientBits(_ z: UInt64, _ k: Int) -> UInt64 {
        let q = z >> UInt64(k)
        // An escape is 25 + 6 bits and z's own length, less the k that the caller adds back.
        return q < UInt64(escapeQuotient) ? q + 1 : UInt64(escapeQuotient + 7 + 64 - z.leadingZeroBitCount) &- UInt64(k)
    }

    @inline(__always)
    private static func varintBytes(_ z: UInt64) -> Int { max(1, (64 - z.leadingZeroBitCount + 6) / 7) }

    @inline(__always)
    private static func varintBits(_ z: UInt64) -> Int { 8 * varintBytes(z) }

    // MARK: Decoding

    /// Reads `count` values into the first `count` elements of `values` (growing it if it is
    /// shorter; elements after them are left as they were), written by ``encode(_:into:)`` (version 2), or by the version 1
    /// encoder (header byte `order << 6 | k`, no bias, k ≤ 55). Arithmetic wraps, so hostile
    /// input cannot trap.
    static func decode(count: Int, from reader: inout ByteReader, into values: inout [Int64], version: Int) throws(PanTraceError) {
        let headerOffset = reader.offset
        let header = try reader.byte()
        let order = Int(header >> 6)
        let k: Int
        var bias: Int64 = 0
        if version >= 2 {
            k = Int(header & 0x1f)
            if header & 0x20 != 0 { bias = try reader.signed() }
        } else {
            k = Int(header & 0x3f)
            guard k <= 55 else {
                throw PanTraceError(.corruptChunk("column header 0x\(String(header, radix: 16)) has Rice parameter \(k) out of range at payload byte \(headerOffset)"))
            }
        }
        // The buffer only grows (it is reused from column to column): no append in the hot loop.
        if values.count < count { values.append(contentsOf: repeatElement(0, count: count - values.count)) }
        let head = min(order, count)
        for i in 0..<head { values[i] = try reader.signed() }
        let start = reader.offset
        let end = try reader.bytes.withUnsafeBufferPointer { (bytes) throws(PanTraceError) -> Int in
            try values.withUnsafeMutableBufferPointer { (out) throws(PanTraceError) -> Int in
                guard let base = out.baseAddress else { return start }
                return try riceValues(k: k, bias: bias, version: version, from: bytes, at: start, into: base + head, count: count - head)
            }
        }
        try reader.skip(to: end)
        undoPrediction(order: order, progressiveHead: version >= 2, &values, count: count)
    }

    /// Fills `count` values at `out` with Rice-coded residuals (plus `bias`) starting at byte `offset`; returns
    /// the byte offset after them.
    ///
    /// Reads a big-endian word at a time while eight bytes remain, a byte at a time after;
    /// bits past the end read as zeros and make it an error.
    private static func riceValues(
        k: Int, bias: Int64, version: Int, from b: UnsafeBufferPointer<UInt8>, at offset: Int, into out: UnsafeMutablePointer<Int64>, count: Int
    ) throws(PanTraceError) -> Int {
        guard count > 0, let base = b.baseAddress else { return offset }
        do {
            var next = offset          // next byte to load
            var buffer: UInt64 = 0     // valid bits left-aligned
            var available = 0          // valid bits in buffer
            var padding = 0            // zero bits loaded past the end
            let wordLimit = b.count - 8
            @inline(__always) func refill() {
                if next <= wordLimit {
                    // Giesen's branchless refill: load 8 bytes, keep what fits, advance whole bytes.
                    let word = UInt64(bigEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self))
                    buffer |= word &>> UInt64(available)
                    next += (63 - available) >> 3
                    available |= 56
                } else {
                    while available <= 56 {
                        var byte: UInt64 = 0
                        if next < b.count { byte = UInt64(b[next]) } else { padding += 8 }
                        next += 1
                        buffer |= byte &<< UInt64(56 - available)
                        available += 8
                    }
                }
            }
            @inline(__always) func take(_ width: Int) -> UInt64 {
                // width ≤ 32; the double shift keeps width 0 well-defined.
                let value = (buffer &>> 1) &>> UInt64(63 - width)
                buffer = buffer &<< UInt64(width)
                available -= width
                return value
            }
            let kk = UInt64(k)
            var index = 0
            // The fast path, while a whole word can be loaded: parameters up to 31 (all of
            // version 2) and no escape. Anything else leaves the value to the general loop.
            if k <= 31 {
                let lowShift = UInt64(63 - k)
                while index < count, next <= wordLimit {
                    let word = UInt64(bigEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self))
                    buffer |= word &>> UInt64(available)
                    next += (63 - available) >> 3
                    available |= 56
                    let zeros = buffer.leadingZeroBitCount
                    guard zeros < escapeQuotient else { break }
                    let rest = buffer &<< UInt64(zeros + 1)
                    buffer = rest &<< kk
                    available -= zeros + 1 + k
                    out[index] = unzigzag(UInt64(zeros) &<< kk | (rest &>> 1) &>> lowShift) &+ bias
                    index += 1
                }
            }
            while index < count {
                defer { index += 1 }
                refill()
                let zeros = buffer.leadingZeroBitCount
                let z: UInt64
                if zeros < escapeQuotient {
                    buffer = buffer &<< UInt64(zeros + 1)
                    available -= zeros + 1
                    if k <= 32 {
                        z = UInt64(zeros) &<< kk | take(k)
                    } else {
                        // Version 1 parameters up to 55.
                        let high = take(k - 32)
                        refill()
                        z = UInt64(zeros) &<< kk | high &<< 32 | take(32)
                    }
                } else if zeros == escapeQuotient {
                    buffer = buffer &<< UInt64(zeros + 1)
                    available -= zeros + 1
                    // Version 2: six bits of (length − 1), then the value; version 1: 64 bits.
                    let length = version >= 2 ? Int(take(6)) + 1 : 64
                    refill()
                    let high = length > 32 ? take(length - 32) : 0
                    refill()
                    z = high &<< 32 | take(min(32, length))
                } else {
                    throw PanTraceError(.corruptChunk("Rice code with more than \(escapeQuotient) leading zeros at payload bit \(next * 8 - available)"))
                }
                out[index] = unzigzag(z) &+ bias
                if padding > available {
                    throw PanTraceError(.corruptChunk("a column runs past the end of the payload"))
                }
            }
            return next - available / 8
        }
    }

    /// `values` holds residuals r[i]; rebuilds v[i] = r[i] + prediction(v[i−1], v[i−2], v[i−3]).
    /// With `progressiveHead` (version 2) the first `order` values were predicted at orders
    /// 0, 1, 2; in version 1 at the full order from zeros.
    private static func undoPrediction(order: Int, progressiveHead: Bool, _ values: inout [Int64], count: Int) {
        values.withUnsafeMutableBufferPointer { all in
            let v = UnsafeMutableBufferPointer(start: all.baseAddress, count: count)
            var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
            var start = 0
            if progressiveHead {
                while start < min(order, v.count) {
                    let value: Int64
                    switch start {
                    case 0: value = v[0]
                    case 1: value = v[1] &+ p1
                    default: value = v[2] &+ 2 &* p1 &- p2
                    }
                    p3 = p2
                    p2 = p1
                    p1 = value
                    v[start] = value
                    start += 1
                }
            }
            switch order {
            case 0:
                break
            case 1:
                for i in start..<v.count {
                    p1 = v[i] &+ p1
                    v[i] = p1
                }
            case 2:
                for i in start..<v.count {
                    let value = v[i] &+ 2 &* p1 &- p2
                    p2 = p1
                    p1 = value
                    v[i] = value
                }
            default:
                for i in start..<v.count {
                    let value = v[i] &+ 3 &* p1 &- 3 &* p2 &+ p3
                    p3 = p2
                    p2 = p1
                    p1 = value
                    v[i] = value
                }
            }
        }
    }
}
