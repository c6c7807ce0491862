internal import CZlib

/// Decompresses one gzip member at a time out of an in-memory file, with an output cap.
///
/// Owns one `z_stream`, created in `init` and freed once in `deinit`. zlib's `inflate`
/// stops at the end of each member (zlib.h:863–868), so the reader calls ``inflateMember``
/// once per chunk. Nothing is sized from the file: output grows in 64 KiB steps up to the
/// caller's limit, and the gzip ISIZE trailer is never trusted (RFC 1952 §2.3.1: ISIZE is the size modulo 2³²; docs/FORMAT.md §5).
final class GzipInflater {
    /// How one member ended.
    enum Outcome: Equatable {
        /// The member ended and its CRC-32 and length matched; `consumed` input bytes.
        case complete(consumed: Int)
        /// The input ran out inside the member.
        case truncated
        /// zlib reported bad data; `message` is zlib's, `at` the input offset it reached.
        case corrupt(message: String, at: Int)
        /// The member produced more than the limit.
        case overLimit
    }

    /// Allocated, not a stored `z_stream`: zlib keeps a pointer back to the stream and checks
    /// it on every call (`inflateStateCheck`, `deflateStateCheck`), so its address must never
    /// change, which an `inout` of a stored property does not promise (compress-nio does the same).
    private let stream: UnsafeMutablePointer<z_stream> = {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        return stream
    }()
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init() {
        let status = pantrace_inflate_init_gzip(stream)
        precondition(status == Z_OK, "inflateInit2 failed with zlib status \(status)")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates the member starting at `offset` in `input` into `output` (replacing its contents).
    func inflateMember(_ input: [UInt8], from offset: Int, limit: Int, into output: inout [UInt8]) -> Outcome {
        if let consumed = Self.copyStoredMember(input, from: offset, limit: limit, into: &output) { return .complete(consumed: consumed) }
        output.removeAll(keepingCapacity: true)
        inflateReset(stream)
        return input.withUnsafeBufferPointer { all -> Outcome in
            let remaining = all.count - offset
            // A chunk is far below 4 GiB; clamp so a huge file cannot overflow avail_in.
            let available = min(remaining, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: all.baseAddress! + offset)
            stream.pointee.avail_in = UInt32(available)
            defer { stream.pointee.next_in = nil }
            while true {
                var status: Int32 = Z_OK
                var produced = 0
                var isOverLimit = false
                scratch.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    status = inflate(stream, Z_NO_FLUSH)
                    produced = out.count - Int(stream.pointee.avail_out)
                    // Checked before appending: output already counting `produced` would be
                    // counted twice, refusing chunks just under the limit (found by the
                    // structure-aware fuzzer).
                    isOverLimit = output.count + produced > limit
                    if produced > 0, !isOverLimit {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<produced]))
                    }
                }
                if isOverLimit { return .overLimit }
                let consumed = available - Int(stream.pointee.avail_in)
                switch status {
                case Z_STREAM_END:
                    return .complete(consumed: consumed)
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible: with all input given, the member is cut short.
                    if stream.pointee.avail_in == 0 { return .truncated }
                    continue
                case Z_DATA_ERROR:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data"
                    return .corrupt(message: message, at: offset + consumed)
                default:
                    return .corrupt(message: "zlib status \(status)", at: offset + consumed)
                }
            }
        }
    }

    /// The fast path for what the archive writer makes: a member with a plain 10-byte header
    /// (no optional fields) whose deflate data is only stored blocks (RFC 1951 §3.2.4) is
    /// copied out and its CRC-32 and length checked here, without zlib's stream machinery,
    /// which costs more than the copy for a file of a few hundred bytes. Returns the bytes the
    /// member takes, or nil for anything else (another block type, a header field, a cut-off
    /// or damaged member, output over `limit`): zlib then reads the member from the start and
    /// reports what it finds, so the outcome never depends on which path read it.
    static func copyStoredMember(_ input: [UInt8], from offset: Int, limit: Int, into output: inout [UInt8]) -> Int? {
        input.withUnsafeBufferPointer { b -> Int? in
            guard offset >= 0, b.count - offset >= 10 + 5 + 8, b[offset] == 0x1f, b[offset + 1] == 0x8b, b[offset + 2] == 8, b[offset + 3] == 0 else {
                return nil
            }
            output.removeAll(keepingCapacity: true)
            var at = offset + 10
            var isFinal = false
            while !isFinal {
                // A stored block: BFINAL in bit 0, BTYPE 00 in bits 1–2, then byte-aligned LEN, NLEN.
                guard b.count - at >= 5, b[at] & 0b110 == 0 else { return nil }
                isFinal = b[at] & 1 != 0
                let length = Int(b[at + 1]) | Int(b[at + 2]) << 8
                let complement = Int(b[at + 3]) | Int(b[at + 4]) << 8
                guard length ^ complement == 0xffff, b.count - at - 5 >= length, output.count + length <= limit else { return nil }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: b[(at + 5)..<(at + 5 + length)]))
                at += 5 + length
            }
            guard b.count - at >= 8 else { return nil }
            let stored = UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
            let size = UInt32(b[at + 4]) | UInt32(b[at + 5]) << 8 | UInt32(b[at + 6]) << 16 | UInt32(b[at + 7]) << 24
            let crc = output.withUnsafeBufferPointer { UInt32(crc32_z(0, $0.baseAddress, $0.count)) }
            guard crc == stored, size == UInt32(truncatingIfNeeded: output.count) else { return nil }
            return at + 8 - offset
        }
    }
}
