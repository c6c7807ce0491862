/// The column coder's loops over whole columns, through pointers (`Codec/ColumnCoding.swift`
/// has the format and the decisions).
///
/// These are the codec's hot paths: a column is a few dozen to a few thousand values, and
/// bounds checks, array uniqueness checks and per-value branches on the prediction order were
/// a large part of encoding and decoding (BENCHMARKS.md). Every pointer stays inside its
/// `withUnsafe…` closure, and every index is checked against the column's count before the
/// loop starts.
extension ColumnCoding {
    // MARK: Encoding

    /// For each value from index 3 on, the zigzag residuals of orders 0–3, summed per order.
    static func residualSums(_ values: [Int64]) -> (UInt64, UInt64, UInt64, UInt64) {
        values.withUnsafeBufferPointer { v in
            guard v.count > 3 else { return (0, 0, 0, 0) }
            // Values within ±2⁴⁰ cannot overflow the sums (a zigzagged third difference stays
            // below 2⁴⁴, times at most 2¹⁶ values): then no term needs capping.
            let small = !v.contains { $0.magnitude >= sumCap }
            return small ? residualSums(v) { $0 } : residualSums(v) { min($0, sumCap) }
        }
    }

    @inline(__always)
    private static func residualSums(
        _ v: UnsafeBufferPointer<Int64>, _ term: (UInt64) -> UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64) {
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        // Differences carried along: each order's residual is the previous order's less its
        // value one step back.
        var p1 = v[2], d1 = v[2] &- v[1], d2 = (v[2] &- v[1]) &- (v[1] &- v[0])
        for i in 3..<v.count {
            let value = v[i]
            let r1 = value &- p1
            let r2 = r1 &- d1
            let r3 = r2 &- d2
            s0 &+= term(zigzag(value))
            s1 &+= term(zigzag(r1))
            s2 &+= term(zigzag(r2))
            s3 &+= term(zigzag(r3))
            p1 = value
            d1 = r1
            d2 = r2
        }
        return (s0, s1, s2, s3)
    }

    /// The capped zigzag sum of the first differences less `bias`.
    static func biasedDeltaSum(_ values: [Int64], bias: Int64) -> UInt64 {
        values.withUnsafeBufferPointer { v in
            var sum: UInt64 = 0
            for i in 1..<max(1, v.count) { sum &+= min(zigzag(v[i] &- v[i - 1] &- bias), sumCap) }
            return sum
        }
    }

    /// The unary bits of `choice`'s Rice codes at parameters `g − 1`, `g` and `g + 1` (g ≥ 1).
    static func unaryBits(_ values: [Int64], _ choice: Choice, around g: Int) -> (UInt64, UInt64, UInt64) {
        values.withUnsafeBufferPointer { v in
            var below: UInt64 = 0, at: UInt64 = 0, above: UInt64 = 0
            forEachResidual(v, order: choice.order) { r in
                let z = zigzag(r &- choice.bias)
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
            return (below, at, above)
        }
    }

    /// Appends the Rice codes of `choice` (values from index `choice.order` on), padded to a
    /// whole byte. The size is known (`choice.bits`): the bytes are allocated once and written
    /// a 32-bit word at a time.
    static func appendRice(_ values: [Int64], _ choice: Choice, to bytes: inout [UInt8]) {
        let start = bytes.count, size = (choice.bits + 7) / 8
        bytes.append(contentsOf: repeatElement(0, count: size + 8))  // + 8: room for a whole last word
        values.withUnsafeBufferPointer { v in
            bytes.withUnsafeMutableBufferPointer { out in
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
                precondition(bits.flush() == start + size, "a column's bits differ from the size counted for them")
            }
        }
        bytes.removeLast(8)
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

    // MARK: Decoding

    /// Fills `values[range]` with Rice-coded residuals (plus `bias`) read from `bytes` at byte
    /// `offset`; returns the byte offset after them.
    ///
    /// Reads a big-endian word at a time while eight bytes remain, a byte at a time after;
    /// bits past the end read as zeros and make it an error.
    static func riceValues(
        k: Int, bias: Int64, version: Int, from bytes: [UInt8], at offset: Int, into values: inout [Int64], range: Range<Int>
    ) throws(PanTraceError) -> Int {
        guard !range.isEmpty else { return offset }
        precondition(range.upperBound <= values.count, "the column is sized before it is read")
        return try bytes.withUnsafeBufferPointer { (b) throws(PanTraceError) -> Int in
            try values.withUnsafeMutableBufferPointer { (out) throws(PanTraceError) -> Int in
                try riceValues(k: k, bias: bias, version: version, from: b, at: offset, into: out, range: range)
            }
        }
    }

    private static func riceValues(
        k: Int, bias: Int64, version: Int, from b: UnsafeBufferPointer<UInt8>, at offset: Int,
        into out: UnsafeMutableBufferPointer<Int64>, range: Range<Int>
    ) throws(PanTraceError) -> Int {
        guard let base = b.baseAddress else { throw PanTraceError(.corruptChunk("a column runs past the end of the payload")) }
        var next = offset  // next byte to load
        var buffer: UInt64 = 0  // valid bits left-aligned
        var available = 0  // valid bits in buffer
        var padding = 0  // zero bits loaded past the end
        let wordLimit = b.count - 8
        // Giesen's branchless refill: load 8 bytes, keep what fits, advance whole bytes.
        @inline(__always) func refillWord() {
            let word = UInt64(bigEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self))
            buffer |= word &>> UInt64(available)
            next += (63 - available) >> 3
            available |= 56
        }
        @inline(__always) func refill() {
            if next <= wordLimit {
                refillWord()
                return
            }
            while available <= 56 {
                var byte: UInt64 = 0
                if next < b.count { byte = UInt64(b[next]) } else { padding += 8 }
                next += 1
                buffer |= byte &<< UInt64(56 - available)
                available += 8
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
        var index = range.lowerBound
        // The fast path, while a whole word can be loaded: parameters up to 31 (all of version
        // 2 and 3) and no escape. After each refill (56 bits or more in the window) it decodes
        // values for as long as a whole one is in the window: a value of a few bits does not
        // pay for a refill each. Anything else (an escape, the last bytes, version 1's wide
        // parameters) is one value of the general path, after which the fast path resumes: a
        // column that jumps once is not left to the slow loop for the rest of its length.
        let fast = k <= 31
        let end = range.upperBound
        // A value of the fast path is the top `zeros + 1 + k` bits of the window, read as one
        // number: that is 2ᵏ (the stop bit) plus the remainder, so the quotient is added as
        // (zeros − 1) · 2ᵏ. One shift reads it (its length is at least 25 bits short of 64).
        let k1 = k &+ 1
        let quotientBase = (0 &- (UInt64(1) &<< kk))  // −2ᵏ, wrapping
        // Each value waits on the window the one before left, so what counts is that chain:
        // a leading-zero count, an add and a shift. A table of the short codes (value and
        // length in one load) took fewer instructions but put a load's latency on the chain:
        // 15 % slower over the benchmark corpus (BENCHMARKS.md, "Decoding without the table").
        while index < end {
            if fast {
                fast: while next <= wordLimit {
                    refillWord()
                    while true {
                        let zeros = buffer.leadingZeroBitCount
                        // An escape (or a run of zeros too long) goes to the general path.
                        // Checked first: otherwise a long run would wait for a refill that
                        // cannot come.
                        guard zeros < escapeQuotient else { break fast }
                        // Taken only when every bit of it is among the `available` ones: with
                        // fewer than 24 zeros and k ≤ 31 a value is at most 55 bits, so after
                        // a refill (56 or more) one always is.
                        let length = zeros &+ k1
                        guard length <= available else { break }
                        let top = buffer &>> UInt64(truncatingIfNeeded: 64 &- length)
                        buffer = buffer &<< UInt64(truncatingIfNeeded: length)
                        available &-= length
                        out[index] = unzigzag(top &+ (UInt64(zeros) &<< kk) &+ quotientBase) &+ bias
                        index &+= 1
                        if index == end { return next - available / 8 }
                    }
                }
            }
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
            index += 1
        }
        return next - available / 8
    }

    /// `values` holds residuals r[i] in its first `count` elements; rebuilds
    /// v[i] = r[i] + prediction(v[i−1], v[i−2], v[i−3]). With `progressiveHead` (version 2)
    /// the first `order` values were predicted at orders 0, 1, 2; in version 1 at the full
    /// order from zeros.
    static func undoPrediction(order: Int, progressiveHead: Bool, _ values: inout [Int64], count: Int) {
        precondition(count <= values.count, "the column is sized before it is read")
        values.withUnsafeMutableBufferPointer { all in
            let v = UnsafeMutableBufferPointer(rebasing: all[..<count])
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

extension VelocityPrediction {
    /// Rebuilds a translation column in place: `x[0] = first`, then
    /// `x[i] = x[i−1] + r[i−1] + step(v[i−1], v[i], t[i] − t[i−1])`, where `r` are the
    /// residuals the column holds in its first `count − 1` elements on entry.
    static func undo(first: Int64, _ x: inout [Int64], time: [Int64], velocity: [Int64], count: Int, multiplier m: Int64) {
        precondition(count >= 1 && x.count >= count && time.count >= count && velocity.count >= count, "columns sized before use")
        x.withUnsafeMutableBufferPointer { x in
            time.withUnsafeBufferPointer { t in
                velocity.withUnsafeBufferPointer { v in
                    guard count > 1 else {
                        x[0] = first
                        return
                    }
                    // Each step reads the residual one place ahead before it overwrites it,
                    // and carries the previous time and velocity in registers.
                    var previous = first
                    var residual = x[0]
                    var t0 = t[0], v0 = v[0]
                    x[0] = first
                    for i in 1..<(count - 1) {
                        let next = x[i]
                        let t1 = t[i], v1 = v[i]
                        previous = previous &+ residual &+ step(v0, v1, t1 &- t0, m)
                        x[i] = previous
                        residual = next
                        t0 = t1
                        v0 = v1
                    }
                    x[count - 1] = previous &+ residual &+ step(v0, v[count - 1], t[count - 1] &- t0, m)
                }
            }
        }
    }
}
