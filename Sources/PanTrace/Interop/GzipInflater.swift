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
}
