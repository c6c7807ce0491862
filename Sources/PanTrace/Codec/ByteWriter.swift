/// Appends the primitive encodings of docs/FORMAT.md to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func raw(_ values: some Sequence<UInt8>) { bytes.append(contentsOf: values) }

    /// LEB128: seven bits a byte, low first, high bit set on all but the last byte.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Zigzag maps 0, −1, 1, −2 … to 0, 1, 2, 3 … so small magnitudes stay short.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}
