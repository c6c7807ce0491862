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
