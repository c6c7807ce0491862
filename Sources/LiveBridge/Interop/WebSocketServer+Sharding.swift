internal import CLibWebSockets
internal import Foundation
internal import Synchronization

// Sharding: the listening shard hands accepted sockets to the others (see WebSocketServer).
extension WebSocketServer {
    // MARK: Any thread

    /// Gives the listening shard the shards it hands accepted sockets to.
    func handOff(to peers: [WebSocketServer]) {
        self.peers.withLock { $0 = peers }
    }

    /// Takes over an accepted socket (from the listening shard's thread); false, and the
    /// descriptor still the caller's, when this shard is not running.
    func adopt(_ socket: Int32) -> Bool {
        context.withLock { context in
            guard let context else { return false }
            handedOver.withLock { $0.append(socket) }
            lws_cancel_service(context.raw)
            return true
        }
    }

    // MARK: Service thread

    /// On the listening shard: whether `socket`, just accepted, goes to a peer shard (then lws
    /// closes its descriptor, and the peer owns a duplicate). Accepted sockets go round the
    /// shards in turn.
    func handOff(_ socket: Int32) -> Bool {
        guard !isShuttingDown else { return false }
        let peers = peers.withLock { $0 }
        guard !peers.isEmpty else { return false }
        accepted += 1
        let turn = accepted % (peers.count + 1)
        guard turn > 0 else { return false }
        let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return false }
        if peers[turn - 1].adopt(duplicate) { return true }
        close(duplicate)
        return false
    }

    /// Adopts the sockets the listening shard handed over, as lws adopts one it accepted
    /// (`rops_handle_POLLIN_listen`, `lib/roles/listen/ops-listen.c`: `LWS_ADOPT_SOCKET |
    /// LWS_ADOPT_HTTP`, no protocol, the vhost's own), so the HTTP request, the upgrade and the
    /// request policy run here as they would there. During shutdown it closes them instead.
    func adoptHandedOver() {
        let sockets = handedOver.withLock { queue -> [Int32] in
            defer { queue.removeAll() }
            return queue
        }
        for socket in sockets {
            guard let vhost, !isShuttingDown else {
                close(socket)
                continue
            }
            var descriptor = lws_sock_file_fd_type()
            descriptor.sockfd = socket
            let type = lws_adoption_type(rawValue: LWS_ADOPT_SOCKET.rawValue | LWS_ADOPT_HTTP.rawValue)
            // On failure lws has closed the socket (lib/core-net/adopt.c).
            _ = lws_adopt_descriptor_vhost(vhost, type, descriptor, nil, nil)
        }
    }
}

// Descriptor exhaustion: the listening shard pauses accepting instead of spinning on EMFILE.
extension WebSocketServer {
    /// How long the listener pauses when descriptors are short, and how often it says so.
    static let acceptPause = 1.0
    static let descriptorLogInterval = 10.0

    /// Stops accepting for ``acceptPause`` seconds (the clients already connected are served
    /// as before) and logs at most once per ``descriptorLogInterval``.
    ///
    /// lws 4.1.6 keeps the listener armed when `accept` fails with `EMFILE` and logs every
    /// retry, so a full table made it spin (`rops_handle_POLLIN_listen`). The listener is
    /// paused with `lws_rx_flow_control`, the exported way to clear its `POLLIN`.
    func pauseAccepting(listener: OpaquePointer) {
        self.listener = listener
        refusedForDescriptors += 1
        if acceptPausedUntil == nil {
            lws_rx_flow_control(listener, 0)
            acceptPausedUntil = now + Self.acceptPause
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.acceptPause) { [self] in wake() }
        }
        if now - lastDescriptorLog >= Self.descriptorLogInterval {
            let limit = configuration.descriptors
            configuration.log(
                "out of file descriptors (limit \(limit.soft), \(connections.count) viewers on this thread): "
                    + "new connections are refused for \(Int(Self.acceptPause)) s at a time; \(refusedForDescriptors) refused")
            lastDescriptorLog = now
            refusedForDescriptors = 0
        }
    }

    /// Each service loop on the listening shard: pauses after lws met `EMFILE`, resumes once
    /// the pause is over (a connection refused then pauses it again).
    func modulateAccepting() {
        if LibWebSocketsLog.sawDescriptorExhaustion.exchange(false, ordering: .acquiringAndReleasing) {
            if let listener {
                pauseAccepting(listener: listener)
            } else {
                // No connection has come through yet, so the listener is unknown: slow the loop
                // down instead (at most 20 rounds a second) until descriptors free up.
                var request = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                nanosleep(&request, nil)
            }
        }
        if let until = acceptPausedUntil, now >= until, let listener {
            acceptPausedUntil = nil
            lws_rx_flow_control(listener, 1)
        }
    }
}
