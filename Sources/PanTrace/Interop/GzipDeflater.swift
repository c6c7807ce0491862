internal import CZlib

/// Compresses payloads into complete gzip members, reusing one zlib stream.
///
/// Owns one `z_stream` (about 256 KiB of deflate state), created in `init` and freed once in
/// `deinit`. Each call to ``member(of:)`` produces a whole member (`deflate(Z_FINISH)` then
/// `deflateReset`), (zlib's `deflate(Z_FINISH)` then `deflateReset`, RFC 1952 §2.2; docs/FORMAT.md §1): every finished chunk is
/// CRC-checked by zlib and `gzip -t` validates the file.
final class GzipDeflater {
    /// Allocated, not a stored `z_stream`: zlib keeps a pointer back to the stream and checks
    /// it on every call (`inflateStateCheck`, `deflateStateCheck`), so its address must never
    /// change, which an `inout` of a stored property does not promise (compress-nio does the same).
    private let stream: UnsafeMutablePointer<z_stream> = {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        return stream
    }()
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    /// Creates a deflater at zlib level 6 (the level `Z_DEFAULT_COMPRESSION` selects, `zlib.h`).
    ///
    /// Level 0 (stored blocks) never looks anything up, so it gets the smallest hash table
    /// (memLevel 1, 512 bytes): `deflateReset` clears that table for every member, and at
    /// memLevel 4 the 4 KiB clear cost more than storing a short trace.
    init(level: Int32 = 6, memoryLevel: Int32 = 4) {
        let status = pantrace_deflate_init_gzip(stream, level, level == 0 ? 1 : memoryLevel)
        // Z_MEM_ERROR is the only failure with valid arguments: out of memory is not recoverable here.
        precondition(status == Z_OK, "deflateInit2 failed with zlib status \(status)")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// One complete gzip member holding `payload`, appended to `output`.
    func appendMember(of payload: [UInt8], to output: inout [UInt8]) {
        payload.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            var status: Int32 = Z_OK
            repeat {
                scratch.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    status = deflate(stream, Z_FINISH)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<(out.count - Int(stream.pointee.avail_out))]))
                }
                // Z_OK with Z_FINISH means "more output space needed": loop. Z_BUF_ERROR is not fatal (zlib.h).
                precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed with zlib status \(status)")
            } while status != Z_STREAM_END
        }
        stream.pointee.next_in = nil
        deflateReset(stream)
    }
}
