/// Integer column coding (docs/FORMAT.md §4): k-th order differences, zigzag, then
/// Golomb–Rice codes with a parameter chosen per column.
///
/// A column picks the prediction order (0: raw, 1: delta, 2: delta-of-delta — Gorilla's
/// timestamp trick, prior-art.md §4.1 — or 3, for the smooth velocity of a pan) and the Rice parameter `k` that encode it shortest.
/// Rice codes are near the entropy for the two-sided geometric residuals that noisy,
/// smooth gesture data leaves, where byte-wise varints waste several bits a value and
/// deflate, on chunks of a few dozen samples, gains nothing. Values before the first sample
/// are 0, so every chunk decodes on its own.
enum ColumnCoding {
    static let maximumOrder = 3
    /// Quotients at or above this are escaped: the marker, then the raw 64-bit zigzag value.
    static let escapeQuotient = 24

    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    @inline(__always)
    static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))) }

    @inline(__always)
    static func residual(_ values: [Int64], _ i: Int, order: Int) -> Int64 {
        let a = values[i]
        let b = i >= 1 ? values[i - 1] : 0
        switch order {
        case 0: return a
        case 1: return a &- b
        case 2: return a &- 2 &* b &+ (i >= 2 ? values[i - 2] : 0)
        default:
            let c = i >= 2 ? values[i - 2] : 0, d = i >= 3 ? values[i - 3] : 0
            return a &- 3 &* b &+ 3 &* c &- d
        }
    }

    @inline(__always)
    static func riceBits(_ z: UInt64, k: Int) -> Int {
        let q = z >> UInt64(k)
        return q < UInt64(escapeQuotient) ? Int(q) + 1 + k : escapeQuotient + 64
    }

    /// Bits to Rice-code `zs` with the best `k` near log2 of their mean, and that `k`.
    static func bestParameter(_ zs: [UInt64]) -> (k: Int, bits: Int) {
        guard !zs.isEmpty else { return (0, 0) }
        var sum: UInt64 = 0
        for z in zs { sum = sum &+ min(z, 1 << 40) }
        let mean = max(1, sum / UInt64(zs.count))
        let guess = 63 - mean.leadingZeroBitCount
        var best = (k: 0, bits: Int.max)
        for k in max(0, guess - 2)...min(55, guess + 1) {
            var bits = 0
            for z in zs { bits += riceBits(z, k: k) }
            if bits < best.bits { best = (k, bits) }
        }
        return best
    }

    /// Appends the column: a byte `order << 6 | k`, the first `order` residuals as varints,
    /// then the remaining residuals as Rice codes, padded to a whole byte.
    static func encode(_ values: [Int64], into writer: inout ByteWriter, scratch: inout [UInt64]) {
        var choice = (order: 0, k: 0, bits: Int.max)
        for order in 0...maximumOrder {
            scratch.removeAll(keepingCapacity: true)
            var headBits = 0
            var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
            for (i, value) in values.enumerated() {
                let r: Int64
                switch order {
                case 0: r = value
                case 1: r = value &- p1
                case 2: r = value &- 2 &* p1 &+ p2
                default: r = value &- 3 &* p1 &+ 3 &* p2 &- p3
                }
                p3 = p2
                p2 = p1
                p1 = value
                let z = zigzag(r)
                if i < order { headBits += 8 * max(1, (64 - z.leadingZeroBitCount + 6) / 7) } else { scratch.append(z) }
            }
            let (k, bits) = bestParameter(scratch)
            if headBits + bits < choice.bits { choice = (order, k, headBits + bits) }
        }
        writer.byte(UInt8(choice.order << 6 | choice.k))
        var bits = BitWriter()
        for i in values.indices {
            let z = zigzag(residual(values, i, order: choice.order))
            if i < choice.order {
                writer.varint(z)
                continue
            }
            let q = z >> UInt64(choice.k)
            if q < UInt64(escapeQuotient) {
                // q zeros then a one: the decoder counts leading zeros.
                bits.write(1, width: Int(q) + 1, into: &writer.bytes)
                bits.write(z, width: choice.k, into: &writer.bytes)
            } else {
                bits.write(1, width: escapeQuotient + 1, into: &writer.bytes)
                bits.write(z >> 32, width: 32, into: &writer.bytes)
                bits.write(z, width: 32, into: &writer.bytes)
            }
        }
        bits.align(into: &writer.bytes)
    }

    /// Reads `count` values written by ``encode``; arithmetic wraps, so hostile input cannot trap.
    static func decode(count: Int, from reader: inout ByteReader, into values: inout [Int64]) throws(PanTraceError) {
        let header = try reader.byte()
        let order = Int(header >> 6), k = Int(header & 0x3f)
        guard k <= 55 else {
            throw PanTraceError(.corruptChunk("column header 0x\(String(header, radix: 16)) has Rice parameter \(k) out of range at payload byte \(reader.offset - 1)"))
        }
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(count)
        // Residuals first, then one pass per order to undo the prediction: plain loops over a
        // uniquely owned array, with no closure in the hot path.
        let head = min(order, count)
        for _ in 0..<head { values.append(unzigzag(try reader.varint())) }
        var bits = BitReader(reader.bytes, byteOffset: reader.offset)
        var index = head
        while index < count {
            let q = bits.unary(limit: escapeQuotient)
            let z: UInt64
            if q < escapeQuotient {
                z = UInt64(q) << UInt64(k) | bits.read(width: k)
            } else if q == escapeQuotient {
                z = bits.read(width: 32) << 32 | bits.read(width: 32)
            } else {
                throw PanTraceError(.corruptChunk("Rice code with more than \(escapeQuotient) leading zeros at payload bit \(bits.bit)"))
            }
            values.append(unzigzag(z))
            if bits.isPastEnd { break }
            index += 1
        }
        guard !bits.isPastEnd else {
            throw PanTraceError(.corruptChunk("a column runs past the end of the payload"))
        }
        // values holds residuals r[i]; rebuild v[i] = r[i] + prediction(v[i-1], v[i-2], v[i-3]).
        var p1: Int64 = 0, p2: Int64 = 0, p3: Int64 = 0
        switch order {
        case 0:
            break
        case 1:
            for i in values.indices {
                p1 = values[i] &+ p1
                values[i] = p1
            }
        case 2:
            for i in values.indices {
                let v = values[i] &+ 2 &* p1 &- p2
                p2 = p1
                p1 = v
                values[i] = v
            }
        default:
            for i in values.indices {
                let v = values[i] &+ 3 &* p1 &- 3 &* p2 &+ p3
                p3 = p2
                p2 = p1
                p1 = v
                values[i] = v
            }
        }
        try reader.skip(to: bits.alignedByteOffset)
    }
}
