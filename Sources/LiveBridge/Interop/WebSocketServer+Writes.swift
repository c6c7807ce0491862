internal import CLibWebSockets
internal import Foundation
internal import Synchronization

// The outgoing path, on the service thread: deliveries into outboxes, outboxes onto sockets.
extension WebSocketServer {
    /// Moves what other threads handed over into the clients' outboxes (and adopts handed-over
    /// sockets first, so their clients get what follows), then asks lws for WRITEABLE on every
    /// client that got something. One poll round later ``writeable(_:)`` writes.
    func drainDeliveries() {
        adoptHandedOver()
        let deliveries = pending.withLock { queue -> [Delivery] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        let time = now
        var everyoneTouched = false
        var touched: [Connection] = []
        func touch(_ connection: Connection) {
            guard !connection.isTouched else { return }
            connection.isTouched = true
            touched.append(connection)
        }
        var start = deliveries.startIndex
        while start < deliveries.endIndex {
            if case .send(let id, let message) = deliveries[start] {
                start += 1
                guard let connection = connectionsByID[id] else { continue }
                connection.isWelcomed = true
                if !connection.outbox.enqueueControl(message, now: time) { kill(connection) }
                // The controller closes this client (after an error it was sent first).
                if message.isClose { connection.closesWhenFlushed = LWS_CLOSE_STATUS_POLICY_VIOLATION }
                touch(connection)
                continue
            }
            if case .sendFrame(let ids, let message) = deliveries[start] {
                start += 1
                // A view's frames come with the same list of pages: looked up once.
                if audience?.ids != ids { audience = (ids, ids.compactMap { connectionsByID[$0] }) }
                for connection in audience?.connections ?? [] where connection.isWelcomed && !connection.isSource {
                    connection.outbox.enqueueFrame(message, now: time)
                    touch(connection)
                }
                continue
            }
            // A run of deliveries for everyone (the pacer hands over several frames at once):
            // one pass over the clients, each getting the run in order.
            var end = start + 1
            while end < deliveries.endIndex, !deliveries[end].isForNamedClients { end += 1 }
            let run = deliveries[start..<end]
            for connection in connections.values where connection.isWelcomed && !connection.isSource {
                for delivery in run {
                    switch delivery {
                    case .frame(let message): connection.outbox.enqueueFrame(message, now: time)
                    case .broadcast(let message): if !connection.outbox.enqueueControl(message, now: time) { kill(connection) }
                    case .send, .sendFrame: break
                    }
                }
            }
            everyoneTouched = true
            start = end
        }
        if everyoneTouched {
            for connection in connections.values { lws_callback_on_writable(connection.wsi) }
        } else {
            for connection in touched { lws_callback_on_writable(connection.wsi) }
        }
        for connection in touched { connection.isTouched = false }
        for connection in connections.values
        where connection.closing == nil && connection.outbox.isBacklogged(now: time, limit: configuration.backlogLimit) {
            kill(connection)
        }
    }

    /// Drops a client that stopped reading: closing politely would need it to read.
    func kill(_ connection: Connection) {
        guard connection.closing == nil else { return }
        connection.closing = LWS_CLOSE_STATUS_POLICY_VIOLATION
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_LAGGING, LWS_TO_KILL_ASYNC)
    }

    /// Writes in one WRITEABLE callback at most, before yielding to other clients.
    private static let writesPerCallback = 8

    /// `LWS_CALLBACK_SERVER_WRITEABLE`: closes the client if it is to be closed, else writes
    /// what it has waiting.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi] else { return 0 }
        if let code = connection.closing {
            lws_close_reason(wsi, code, nil, 0)
            return -1
        }
        let time = now
        // Several writes per callback, while the socket takes them whole: lws allows more than
        // one lws_write per WRITEABLE if nothing was left buffered (lws 4.1.6 `include/libwebsockets/lws-ws-state.h`, `lws_partial_buffered()`), and
        // each extra write saves a poll round. Not `lws_send_pipe_choked`: it is a `poll()` of
        // its own (lib/plat/unix/unix-sockets.c), one more system call per write (perf: as many
        // `poll`s as `sendto`s at the throughput peak), where a full socket already shows as a
        // short send that lws buffers.
        var writes = 0
        while writes < Self.writesPerCallback, let first = connection.outbox.next(now: time) {
            if !write(first, andWhatFollowsFrom: &connection.outbox, to: wsi, now: time) { return -1 }
            writes += 1
            if lws_partial_buffered(wsi) != 0 { break }
        }
        if !connection.outbox.isEmpty {
            lws_callback_on_writable(wsi)
        } else if connection.closesWhenFlushed != nil, lws_partial_buffered(wsi) == 0 {
            // The error and a close frame are written: the client answers the close and lws
            // closes then. Closing at once would reset the connection if the client had sent
            // something meanwhile, and a reset can lose the error before the client reads it.
            // A client that does not answer is closed after 2 s.
            connection.closesWhenFlushed = nil
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 2)
        }
        return 0
    }

    /// A viewer that asked for another protocol version (or none: a version 1 viewer): one
    /// `error` with code `version` saying what to do, then a close with 1008. The controller
    /// never hears of it.
    func refuseVersion(_ version: Int?, of connection: Connection) {
        let asked = version.map { "version \($0)" } ?? "no version (a version 1 viewer)"
        refuse(
            connection, code: .version,
            "this server speaks protocol version \(wireProtocolVersion) and the viewer asked for \(asked): reload the page to get the matching viewer"
        )
    }

    /// Sends `connection` one `error` and closes it with 1008 once that is written.
    func refuse(_ connection: Connection, code: ErrorCode, _ message: String) {
        let error = ErrorMessage(code: code, message: message)
        let encoder = ServerMessage.encoder()
        let bytes: Data
        do {
            bytes = try encoder.encode(ServerMessage.error(error))
        } catch {
            configuration.log("could not encode a refusal: \(error)")
            connection.closing = LWS_CLOSE_STATUS_POLICY_VIOLATION
            lws_callback_on_writable(connection.wsi)
            return
        }
        _ = connection.outbox.enqueueControl(OutboundMessage(Array(bytes)), now: now)
        _ = connection.outbox.enqueueControl(OutboundMessage(closing: UInt16(LWS_CLOSE_STATUS_POLICY_VIOLATION.rawValue)), now: now)
        connection.closesWhenFlushed = LWS_CLOSE_STATUS_POLICY_VIOLATION
        lws_callback_on_writable(connection.wsi)
    }

    /// Writes `first`, and with it the messages queued behind it that fit in one batch, in
    /// their queue order (control first, then frames: ``ClientOutbox/next(now:)``).
    /// - Returns: false when lws failed the write (the connection must close).
    private func write(
        _ first: OutboundMessage, andWhatFollowsFrom outbox: inout ClientOutbox,
        to wsi: OpaquePointer, now time: Double
    ) -> Bool {
        // Frames are built by OutboundMessage, so every write is raw: LWS_WRITE_HTTP is
        // LWS_WRITE_RAW, and lws sends the bytes as they are.
        guard let second = outbox.upcoming, first.frameCount + second.frameCount <= batch.capacity else {
            // Alone, or too large to batch (like the ~50 KB hello).
            return lws_write(wsi, first.frame, first.frameCount, LWS_WRITE_HTTP) >= first.frameCount
        }
        batch.removeAll()
        _ = batch.append(first)
        while let message = outbox.upcoming, batch.append(message) {
            _ = outbox.next(now: time)
        }
        return lws_write(wsi, batch.frames, batch.count, LWS_WRITE_HTTP) >= batch.count
    }
}
