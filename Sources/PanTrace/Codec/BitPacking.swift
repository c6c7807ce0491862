/// Writes bits most-significant first into bytes already allocated (and zeroed) for them:
/// the column encoder knows a column's exact size before it writes it, and allocates eight
/// bytes more so whole 32-bit words can be stored.
struct BitPacker {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var next: Int
    private var accumulator: UInt64 = 0
    private var count = 0  // bits held in the accumulator, < 32 after each write

    init(_ bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        self.bytes = bytes
        self.next = offset
    }

    /// Appends the low `width` bits of `value`, width ≤ 32.
    @inline(__always)
    mutating func write(_ value: UInt64, width: Int) {
        accumulator = (accumulator &<< UInt64(width)) | (value & ((1 &<< UInt64(width)) &- 1))
        count += width
        if count >= 32 {
            count -= 32
            precondition(next + 4 <= bytes.count, "a column's bits outran the size counted for them")
            let word = UInt32(truncatingIfNeeded: accumulator &>> UInt64(count)).bigEndian
            UnsafeMutableRawPointer(bytes.baseAddress! + next).storeBytes(of: word, as: UInt32.self)
            next += 4
        }
    }

    /// Writes the bits still held, the last byte padded with zero bits; returns the offset after them.
    mutating func flush() -> Int {
        while count > 0 {
            let shift = count >= 8 ? count - 8 : 0
            let bitsInByte = min(count, 8)
            precondition(next < bytes.count, "a column's bits outran the size counted for them")
            bytes[next] = UInt8(truncatingIfNeeded: (accumulator &>> UInt64(shift)) &<< UInt64(8 - bitsInByte))
            next += 1
            count -= bitsInByte
        }
        return next
    }
}

/// Reads bits most-significant first from a payload; reading past the end yields zero bits
/// and sets ``isPastEnd``, which the caller turns into an error.
///
/// Keeps up to 64 bits in a buffer refilled a byte at a time, so each payload byte is
/// loaded (and bounds-checked) once.
struct BitReader {
    private let bytes: [UInt8]
    private var next: Int          // the next byte to load
    private var buffer: UInt64 = 0 // valid bits left-aligned
    private var available = 0      // valid bits in `buffer`
    private var padding = 0        // zero bits loaded past the end

    init(_ bytes: [UInt8], byteOffset: Int) {
        self.bytes = bytes
        self.next = byteOffset
    }

    /// Whether more bits were consumed than the payload holds.
    var isPastEnd: Bool { padding > available }
    /// The byte offset after the last consumed bit, rounded up to a whole byte.
    var alignedByteOffset: Int { next - available / 8 }
    /// The position of the next bit, for error messages.
    var bit: Int { next * 8 - available }

    @inline(__always)
    private mutating func refill() {
        while available <= 56 {
            let byte: UInt64
            if next < bytes.count {
                byte = UInt64(bytes[next])
            } else {
                byte = 0
                padding += 8
            }
            next += 1
            buffer |= byte << UInt64(56 - available)
            available += 8
        }
    }

    /// Counts and consumes leading zero bits up to `limit`, then the one that ends them;
    /// returns the count, or `limit + 1` if `limit + 1` zeros were seen (nothing more consumed).
    @inline(__always)
    mutating func unary(limit: Int) -> Int {
        refill()
        let zeros = buffer.leadingZeroBitCount
        if zeros > limit { return limit + 1 }
        buffer <<= UInt64(zeros + 1)
        available -= zeros + 1
        return zeros
    }

    /// Reads `width` ≤ 56 bits.
    @inline(__always)
    mutating func read(width: Int) -> UInt64 {
        if width == 0 { return 0 }
        refill()
        let value = buffer >> UInt64(64 - width)
        buffer <<= UInt64(width)
        available -= width
        return value
    }
}
