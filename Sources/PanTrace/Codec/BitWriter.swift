/// Appends bits most-significant first to a byte array (for Rice-coded columns).
struct BitWriter {
    private var accumulator: UInt64 = 0
    private var count = 0  // bits held in the accumulator, < 8 after each call

    /// Appends the low `width` bits of `value`, width ≤ 57.
    @inline(__always)
    mutating func write(_ value: UInt64, width: Int, into bytes: inout [UInt8]) {
        precondition(width <= 57)
        if width == 0 { return }
        accumulator = (accumulator << UInt64(width)) | (value & ((1 << UInt64(width)) &- 1))
        count += width
        while count >= 8 {
            count -= 8
            bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(count)))
        }
    }

    /// Pads the last byte with zero bits.
    mutating func align(into bytes: inout [UInt8]) {
        if count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator << UInt64(8 - count)))
            count = 0
        }
        accumulator = 0
    }
}

/// Reads bits most-significant first from a payload; reading past the end yields zero bits
/// and sets ``isPastEnd``, which the caller turns into an error.
struct BitReader {
    private let bytes: [UInt8]
    private let endBit: Int
    private(set) var bit: Int

    init(_ bytes: [UInt8], byteOffset: Int) {
        self.bytes = bytes
        self.endBit = bytes.count * 8
        self.bit = byteOffset * 8
    }

    var isPastEnd: Bool { bit > endBit }
    /// The byte offset after aligning to the next whole byte.
    var alignedByteOffset: Int { (bit + 7) / 8 }

    /// The next 64 bits at the current position (zeros past the end), without consuming them.
    @inline(__always)
    func peek64() -> UInt64 {
        let byte = bit >> 3
        let shift = UInt64(bit & 7)
        var word: UInt64 = 0
        if byte + 9 <= bytes.count {
            for i in 0..<8 { word = word << 8 | UInt64(bytes[byte + i]) }
            let next = UInt64(bytes[byte + 8])
            return shift == 0 ? word : (word << shift) | (next >> (8 - shift))
        }
        var extra: UInt64 = 0
        for i in 0..<9 {
            let b: UInt64 = byte + i < bytes.count ? UInt64(bytes[byte + i]) : 0
            if i < 8 { word = word << 8 | b } else { extra = b }
        }
        return shift == 0 ? word : (word << shift) | (extra >> (8 - shift))
    }

    @inline(__always)
    mutating func skip(_ bits: Int) { bit += bits }

    /// Reads `width` ≤ 57 bits.
    @inline(__always)
    mutating func read(width: Int) -> UInt64 {
        if width == 0 { return 0 }
        let value = peek64() >> UInt64(64 - width)
        bit += width
        return value
    }
}
