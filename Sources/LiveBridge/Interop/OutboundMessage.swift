internal import CLibWebSockets

/// One encoded message, stored once with the `LWS_PRE` headroom lws writes the frame header
/// into, and shared by every client it goes to.
///
/// `@unchecked Sendable`: the payload is written once in `init` and never again by Swift;
/// afterwards only the service thread touches the storage, through `lws_write`, which writes
/// the frame header into the `LWS_PRE` bytes before the payload. Writes happen one at a time on
/// that thread and permessage-deflate (which would keep reading the buffer after `lws_write`
/// returns, libwebsockets.md §1.6) is not negotiated, so sharing one buffer is safe. The storage
/// is freed once, in `deinit`.
final class OutboundMessage: @unchecked Sendable {
    static let headroom = Int(pantrace_lws_pre())

    private let storage: UnsafeMutableRawPointer
    /// Payload length in bytes.
    let count: Int

    init(_ payload: [UInt8]) {
        count = payload.count
        storage = .allocate(byteCount: Self.headroom + max(payload.count, 1), alignment: 16)
        payload.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                (storage + Self.headroom).copyMemory(from: base, byteCount: bytes.count)
            }
        }
    }

    deinit { storage.deallocate() }

    /// The payload, with `LWS_PRE` writable bytes before it (for `lws_write`).
    var payload: UnsafeMutablePointer<UInt8> {
        (storage + Self.headroom).assumingMemoryBound(to: UInt8.self)
    }

    /// A copy of the payload bytes (tests, logging).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: payload, count: count)) }
}
