/// Several queued messages of one client copied back to back into one buffer, so one
/// `send()` carries them.
///
/// On loopback a `send()` costs 7–8 µs whatever its size (most of it kernel TCP work, done
/// for the receiver too), so a client with several messages waiting gets them in one write.
/// Each ``OutboundMessage`` is already a whole WebSocket frame, so a batch is their bytes in
/// queue order, written raw like a single frame (see ``OutboundMessage`` for how lws treats a
/// raw write on a ws connection, short sends included).
///
/// `lws_issue_raw` sends at most `rx_buffer_size + LWS_PRE + 4` bytes per call and copies the
/// rest to the connection's `buflist_out` (`lib/core-net/output.c`), so a batch stays within
/// ``capacity`` (the protocol's `rx_buffer_size`) to go out without that copy.
///
/// Owns one allocation (`LWS_PRE` headroom plus ``capacity``), freed once in `deinit`. Used
/// only on its shard's service thread; lws copies what it cannot send at once, so the buffer
/// is free for reuse as soon as `lws_write` returns.
final class CoalescedWrite {
    /// Most bytes of frames in one write.
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    /// Bytes of frames in the batch.
    private(set) var count = 0
    /// Messages in the batch.
    private(set) var messages = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: OutboundMessage.headroom + capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The frames, with `LWS_PRE` writable bytes before them (for `lws_write`).
    var frames: UnsafeMutablePointer<UInt8> {
        (storage + OutboundMessage.headroom).assumingMemoryBound(to: UInt8.self)
    }

    /// A copy of the batch's bytes (tests).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: frames, count: count)) }

    /// Empties the batch.
    func removeAll() {
        count = 0
        messages = 0
    }

    /// Appends `message`'s frame; false (and nothing appended) when it does not fit in what
    /// is left of ``capacity``.
    func append(_ message: OutboundMessage) -> Bool {
        guard count + message.frameCount <= capacity else { return false }
        (frames + count).update(from: message.frame, count: message.frameCount)
        count += message.frameCount
        messages += 1
        return true
    }
}
