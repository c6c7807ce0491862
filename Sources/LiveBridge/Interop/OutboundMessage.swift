internal import CLibWebSockets

/// One encoded message as a complete WebSocket frame, stored once and shared by every client
/// (and every service shard) it goes to.
///
/// The frame header is built here, not by lws: RFC 6455 §5.2 server-to-client frames are
/// unmasked, `FIN | text` then a 7-, 16- or 64-bit big-endian length, then the payload. The
/// bridge hands frames to `lws_write(…, LWS_WRITE_HTTP)` (`LWS_WRITE_RAW` is that value,
/// `lws-write.h:47`), which on a ws connection skips framing and goes straight to
/// `lws_issue_raw` (`lib/roles/ws/ops-ws.c`, `rops_write_role_protocol_ws`, `send_raw:`, at
/// v4.1.6) — where a `LWS_WRITE_TEXT` ends too when no extension is active, after lws has
/// written the header into the `LWS_PRE` bytes before the payload. Building it here means lws
/// never writes into this buffer, so two service threads can send the same message at once,
/// and several frames can be copied back to back into one write (``CoalescedWrite``). A short
/// send is handled by `lws_issue_raw` as for a text write: the unsent tail is copied to the
/// connection's `buflist_out`, the call returns the whole length, WRITEABLE is held back
/// until it drains, and frames lws writes itself meanwhile (PONG, PING, close) are appended
/// after it (`lib/core-net/output.c`), so they only ever fall between whole frames.
/// permessage-deflate, which would need lws to frame (and compress) each message, is never
/// negotiated: the context has no `extensions` (`Tests/bridge` checks the handshake).
///
/// `@unchecked Sendable`: the storage is written once, in `init`, and only read afterwards
/// (lws does not write into raw writes: `send_raw` passes the pointer to `send()` as is). It
/// keeps `LWS_PRE` bytes before the frame, as `lws_write` asks of every buffer. It is freed
/// once, in `deinit`.
final class OutboundMessage: @unchecked Sendable {
    static let headroom = Int(pantrace_lws_pre())
    /// The longest frame header: 2 bytes, then a 64-bit length.
    private static let maximumHeader = 10

    private let storage: UnsafeMutableRawPointer
    /// Payload length in bytes.
    let count: Int
    /// A state every page is told whole (the pages one may follow, the sources, the library's
    /// first page): a newer message of the same kind replaces one still waiting in a client's
    /// outbox, so a page that reads slowly gets the newest state, not every one in between.
    var supersedes: String?
    /// Frame length in bytes: header and payload.
    let frameCount: Int
    /// A close frame: the connection closes once it is written (``WebSocketServer/writeable(_:)``).
    let isClose: Bool

    /// Frames `payload` as one text message, or binary when `isBinary` (echo mode only).
    convenience init(_ payload: [UInt8], isBinary: Bool = false) {
        self.init(payload, opcode: isBinary ? 0x2 : 0x1)
    }

    /// A close frame with `code` (RFC 6455 §5.5.1), sent as the bridge's own bytes so the
    /// connection stays open for the client's answer (a refusal the client must read).
    convenience init(closing code: UInt16) {
        self.init([UInt8(code >> 8), UInt8(code & 0xFF)], opcode: 0x8)
    }

    /// A close frame with 1008 (policy violation): a client the controller closes.
    static func closingForPolicy() -> OutboundMessage { OutboundMessage(closing: UInt16(LWS_CLOSE_STATUS_POLICY_VIOLATION.rawValue)) }

    /// Frames `payload` as one final frame of `opcode`.
    init(_ payload: [UInt8], opcode: UInt8) {
        count = payload.count
        isClose = opcode == 0x8
        let header = Self.headerCount(payload.count)
        frameCount = header + payload.count
        storage = .allocate(byteCount: Self.headroom + Self.maximumHeader + max(payload.count, 1), alignment: 16)
        let frame = (storage + Self.headroom + Self.maximumHeader - header).assumingMemoryBound(to: UInt8.self)
        frame[0] = 0x80 | opcode  // FIN, then the opcode: 1 text, 2 binary, 8 close
        switch header {
        case 2:
            frame[1] = UInt8(payload.count)
        case 4:
            frame[1] = 126
            frame[2] = UInt8(truncatingIfNeeded: payload.count >> 8)
            frame[3] = UInt8(truncatingIfNeeded: payload.count)
        default:
            frame[1] = 127
            for index in 0..<8 {
                frame[2 + index] = UInt8(truncatingIfNeeded: UInt64(payload.count) >> (56 - 8 * index))
            }
        }
        payload.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                (storage + Self.headroom + Self.maximumHeader).copyMemory(from: base, byteCount: bytes.count)
            }
        }
    }

    deinit { storage.deallocate() }

    /// Header bytes of a frame with a payload of `length` bytes (RFC 6455 §5.2).
    static func headerCount(_ length: Int) -> Int {
        length < 126 ? 2 : length < 65_536 ? 4 : 10
    }

    /// The whole frame, ``frameCount`` bytes, with `LWS_PRE` bytes before it (for
    /// `lws_write`, which takes a mutable pointer but does not write through it for raw writes).
    var frame: UnsafeMutablePointer<UInt8> {
        (storage + Self.headroom + Self.maximumHeader - (frameCount - count)).assumingMemoryBound(to: UInt8.self)
    }

    /// A copy of the frame's bytes (tests).
    var frameBytes: [UInt8] { Array(UnsafeBufferPointer(start: frame, count: frameCount)) }

    /// A copy of the payload bytes (tests, logging).
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: (storage + Self.headroom + Self.maximumHeader).assumingMemoryBound(to: UInt8.self), count: count))
    }
}
