/// Integer column coding (docs/FORMAT.md §4.1): k-th order differences, an optional bias,
/// zigzag, then Golomb–Rice codes with a parameter chosen per column.
///
/// A column picks the prediction order (0: raw, 1: delta, 2: delta-of-delta — Gorilla's
/// timestamp trick: Pelkonen et al., "Gorilla", VLDB 2015 — or 3, for the smooth velocity of a pan), whether a
/// bias is subtracted from every residual (a sampling clock's period: order 1 plus the bias
/// leaves only the timestamp jitter) and the Rice parameter `k`. Rice codes are near the
/// entropy for the two-sided geometric residuals that noisy, smooth gesture data leaves,
/// where byte-wise varints waste several bits a value and deflate, on chunks of a few dozen
/// samples, gains nothing. A column depends on nothing before it (its first values use the
/// orders their history allows), so every chunk decodes on its own.
///
/// This file holds the format and the decisions; the loops over a whole column, which run
/// through pointers, are in `Interop/ColumnKernels.swift`.
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
    struct Choice {
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
        encode(values, choice: choose(values), into: &writer)
    }

    /// ``encode(_:into:)`` with the prediction ``choose(_:)`` made for `values`.
    static func encode(_ values: [Int64], choice: Choice, into writer: inout ByteWriter) {
        writer.byte(UInt8(choice.order << 6 | (choice.bias != 0 ? 1 << 5 : 0) | choice.k))
        if choice.bias != 0 { writer.signed(choice.bias) }
        // The first values use the orders their history allows: 0, 1, 2 …
        var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
        let head = min(choice.order, values.count)
        for i in 0..<head {
            writer.signed(residual(values[i], p1, p2, p3, order: i))
            p3 = p2
            p2 = p1
            p1 = values[i]
        }
        if values.count > head { appendRice(values, choice, to: &writer.bytes) }
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
    static func choose(_ v: [Int64]) -> Choice {
        let n = v.count
        guard n > 0 else { return Choice(order: 0, bias: 0, k: 0, bits: 0) }
        // The first values are varints at orders 0, 1, 2: their cost is the head of each order,
        // and they count in the sums of the lower orders only.
        let v0 = v[0], v1 = n > 1 ? v[1] : 0, v2 = n > 2 ? v[2] : 0
        let head1 = varintBits(zigzag(v0))
        let head2 = head1 + varintBits(zigzag(v1 &- v0))
        let head3 = head2 + varintBits(zigzag(v2 &- 2 &* v1 &+ v0))
        let cap = sumCap
        var sums = residualSums(v)
        sums.0 &+= min(zigzag(v0), cap) &+ min(zigzag(v1), cap) &+ min(zigzag(v2), cap)
        if n > 1 { sums.1 &+= min(zigzag(v1 &- v0), cap) &+ (n > 2 ? min(zigzag(v2 &- v1), cap) : 0) }
        if n > 2 { sums.2 &+= min(zigzag(v2 &- 2 &* v1 &+ v0), cap) }
        var best = Choice(order: 0, bias: 0, k: 0, bits: 0)
        var bestCost = estimatedBits(sum: sums.0, count: n)
        var bestSum = sums.0
        func consider(_ order: Int, _ sum: UInt64, _ head: Int) {
            guard n > order else { return }
            let cost = head + estimatedBits(sum: sum, count: n - order)
            if cost < bestCost { best = Choice(order: order, bias: 0, k: 0, bits: 0); bestCost = cost; bestSum = sum }
        }
        consider(1, sums.1, head1)
        consider(2, sums.2, head2)
        consider(3, sums.3, head3)
        // Order 1 less its mean (the differences telescope: (last − first) / (n − 1)): a
        // steady clock's period, or a steady drift. Tried only when the mean is a large part
        // of the differences.
        if n > 2 {
            let mean = (Double(v[n - 1]) - Double(v0)) / Double(n - 1)
            let bias = abs(mean) < 1e15 ? Int64(mean.rounded()) : 0
            if bias != 0, Double(zigzag(bias)) * Double(n - 1) * 4 > Double(sums.1) {
                let sum = biasedDeltaSum(v, bias: bias)
                let cost = head1 + 8 * varintBytes(zigzag(bias)) + estimatedBits(sum: sum, count: n - 1)
                if cost < bestCost { best = Choice(order: 1, bias: bias, k: 0, bits: 0); bestCost = cost; bestSum = sum }
            }
        }
        (best.k, best.bits) = bestParameter(v, best, sum: bestSum)
        return best
    }

    /// Each zigzag term is capped here in the sums, so a hostile-size value cannot overflow them.
    static let sumCap: UInt64 = 1 << 40

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
    private static func bestParameter(_ v: [Int64], _ c: Choice, sum: UInt64) -> (k: Int, bits: Int) {
        let n = v.count
        guard n > c.order else { return (0, 0) }
        let g = max(1, min(maximumParameter - 1, parameterGuess(sum, n - c.order)))
        var (below, at, above) = unaryBits(v, c, around: g)
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
    static func quotientBits(_ z: UInt64, _ k: Int) -> UInt64 {
        let q = z >> UInt64(k)
        // An escape is 25 + 6 bits and z's own length, less the k that the caller adds back.
        return q < UInt64(escapeQuotient) ? q + 1 : UInt64(escapeQuotient + 7 + 64 - z.leadingZeroBitCount) &- UInt64(k)
    }

    /// The bytes ``encode(_:choice:into:)`` writes for `values`.
    static func size(_ values: [Int64], _ choice: Choice) -> Int {
        var bytes = 1 + (choice.bias != 0 ? varintBytes(zigzag(choice.bias)) : 0) + (choice.bits + 7) / 8
        var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
        for i in 0..<min(choice.order, values.count) {
            bytes += varintBytes(zigzag(residual(values[i], p1, p2, p3, order: i)))
            p3 = p2
            p2 = p1
            p1 = values[i]
        }
        return bytes
    }

    @inline(__always)
    static func varintBytes(_ z: UInt64) -> Int { max(1, (64 - z.leadingZeroBitCount + 6) / 7) }

    @inline(__always)
    private static func varintBits(_ z: UInt64) -> Int { 8 * varintBytes(z) }

    // MARK: Decoding

    /// Reads `count` values into the first `count` elements of `values` (growing it if it is
    /// shorter; elements after them are left as they were), written by ``encode(_:into:)``
    /// (version 2) or by the version 1 encoder (header byte `order << 6 | k`, no bias,
    /// k ≤ 55). Arithmetic wraps, so hostile input cannot trap.
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
                throw PanTraceError(
                    .corruptChunk("column header 0x\(String(header, radix: 16)) has Rice parameter \(k) out of range at payload byte \(headerOffset)")
                )
            }
        }
        // The buffer only grows (it is reused from column to column): no append in the hot loop.
        if values.count < count { values.append(contentsOf: repeatElement(0, count: count - values.count)) }
        let head = min(order, count)
        for i in 0..<head { values[i] = try reader.signed() }
        let end = try riceValues(
            k: k, bias: bias, version: version, from: reader.bytes, at: reader.offset, into: &values, range: head..<count)
        try reader.skip(to: end)
        undoPrediction(order: order, progressiveHead: version >= 2, &values, count: count)
    }
}
