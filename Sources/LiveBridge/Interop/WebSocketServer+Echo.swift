internal import CLibWebSockets

// Echo mode (`pantrace serve --echo`, test only): what `make autobahn` runs the Autobahn
// fuzzing client against (docs/PROTOCOL.md §5; lws 4.1.6 `scripts/autobahn-test-server.sh`).
//
// The bridge's own socket code runs unchanged: the upgrade is admitted by the same
// RequestPolicy (wstest connects to /live from 127.0.0.1 with no Origin, which the policy lets
// in to watch), lws validates text as UTF-8 (`LWS_SERVER_OPTION_VALIDATE_UTF8`, closing with
// 1007), answers PINGs and echoes the close handshake itself, and ``WebSocketServer/receive``
// reassembles fragmented messages up to ``WebSocketServer/Configuration/maximumMessageBytes``
// (larger closes with 1009). Only the end differs: a whole message goes back to its sender,
// framed once by ``OutboundMessage`` with the opcode it came with (text or binary) and written
// raw from WRITEABLE through the client's outbox like any other message. The controller is
// never told of echo clients, so it sends them nothing (no hello, no frames: it has no
// client to send to).
extension WebSocketServer {
    /// Queues `message` back to `connection`, as text or binary like it arrived; on the
    /// service thread, from `LWS_CALLBACK_RECEIVE`.
    /// - Returns: the callback's result: 0, or -1 to close a client whose outbox is full.
    func echo(_ message: [UInt8], to connection: Connection) -> Int32 {
        let isBinary = connection.receivingBinary ?? false
        connection.receivingBinary = nil
        guard connection.outbox.enqueueControl(OutboundMessage(message, isBinary: isBinary), now: now) else {
            lws_close_reason(connection.wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, nil, 0)
            return -1
        }
        lws_callback_on_writable(connection.wsi)
        return 0
    }
}
