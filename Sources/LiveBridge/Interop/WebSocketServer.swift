internal import CLibWebSockets
internal import Foundation
internal import Synchronization

/// The libwebsockets server: one context, one service thread, the client table.
///
/// Every lws call except `lws_cancel_service` happens on the service thread
/// (libwebsockets.md §1.9); other threads hand over ``Delivery``s through a `Mutex`-guarded
/// queue and wake the loop with `lws_cancel_service`, and only while the context is alive:
/// the loop clears the guarded context reference before `lws_context_destroy`.
///
/// `@unchecked Sendable`: the state below the "service thread only" mark is touched only on
/// the service thread, inside lws callbacks and ``run()``; the cross-thread state is in
/// `Mutex`es and an `Atomic`. The C strings, protocol table and options lws keeps pointers to
/// are allocated in `init` and freed once in `deinit`, after the context is destroyed.
final class WebSocketServer: @unchecked Sendable {
    struct Configuration: Sendable {
        var host: String
        var port: Int
        var policy: RequestPolicy
        var files: StaticFiles
        /// Largest message accepted from a client; larger closes it with 1009.
        var maximumMessageBytes = 64 * 1024
        /// A client with something pending and no write for this long is closed.
        var backlogLimit: Double = 3
        /// Keep-alive: ping after this many idle seconds, hang up after the second number.
        var pingSeconds: UInt16 = 20
        var hangupSeconds: UInt16 = 30
    }

    private struct ContextRef: @unchecked Sendable { let raw: OpaquePointer }

    let configuration: Configuration
    private let inbox: Inbox
    private let pending = Mutex<[Delivery]>([])
    private let context = Mutex<ContextRef?>(nil)
    private let stopRequested = Atomic<Bool>(false)
    private let boundPort = Atomic<Int>(0)
    private let started = DispatchSemaphore(value: 0)
    private let clock = ContinuousClock()
    private let epoch: ContinuousClock.Instant

    // C memory lws keeps pointers to; freed in deinit, after lws_context_destroy.
    private let protocolName = strdup("pantrace")!
    private let defaultOption = strdup("default")!
    private let emptyValue = strdup("")!
    private let iface: UnsafeMutablePointer<CChar>?
    private let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
    private let pvoDefault = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
    private let pvo = UnsafeMutablePointer<lws_protocol_vhost_options>.allocate(capacity: 1)
    private let retry = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)

    // Service thread only.
    private struct Connection {
        let id: ConnectionID
        var outbox = ClientOutbox()
        var received: [UInt8] = []
        var closing: lws_close_status?
    }
    private var connections: [OpaquePointer: Connection] = [:]
    private var admitted: [OpaquePointer: Bool] = [:]
    private var nextID: ConnectionID = 1
    private var isShuttingDown = false
    /// The request policy with the port actually bound (port 0 picks one).
    private var policy: RequestPolicy

    init(configuration: Configuration, inbox: Inbox) {
        self.configuration = configuration
        self.policy = configuration.policy
        self.inbox = inbox
        self.epoch = clock.now
        // nil iface listens on every interface; a numeric one needs IPv6 off (libwebsockets.md §1.13).
        iface = configuration.host == "0.0.0.0" ? nil : strdup(configuration.host)
        protocols[0] = lws_protocols(
            name: protocolName, callback: serviceCallback, per_session_data_size: 0,
            rx_buffer_size: 16 * 1024, id: 0, user: nil, tx_packet_size: 0)
        protocols[1] = lws_protocols()
        // "default": a browser's `new WebSocket(url)` sends no subprotocol and binds to the
        // default protocol (libwebsockets.md §1.4); HTTP binds to it too, so this callback
        // answers HTTP and forwards the rest to lws_callback_http_dummy.
        pvoDefault.initialize(to: lws_protocol_vhost_options(next: nil, options: nil, name: defaultOption, value: emptyValue))
        pvo.initialize(to: lws_protocol_vhost_options(next: nil, options: pvoDefault, name: protocolName, value: emptyValue))
        var policy = lws_retry_bo_t()
        policy.secs_since_valid_ping = configuration.pingSeconds
        policy.secs_since_valid_hangup = configuration.hangupSeconds
        retry.initialize(to: policy)
    }

    deinit {
        free(protocolName)
        free(defaultOption)
        free(emptyValue)
        free(iface)
        protocols.deallocate()
        pvoDefault.deallocate()
        pvo.deallocate()
        retry.deallocate()
    }

    // MARK: Any thread

    /// The port actually bound (after ``waitUntilStarted()``), useful with port 0.
    var port: Int { boundPort.load(ordering: .acquiring) }

    /// Blocks until the service thread has created its context (or failed to).
    func waitUntilStarted() { started.wait(); started.signal() }

    /// Hands deliveries to the service thread and wakes it.
    func deliver(_ deliveries: [Delivery]) {
        guard !deliveries.isEmpty else { return }
        pending.withLock { $0.append(contentsOf: deliveries) }
        wake()
    }

    /// Asks the service thread to close every client with 1001 and stop.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
        // A client that never reads must not hold shutdown open: wake again after a grace period.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { [self] in wake() }
    }

    private func wake() {
        context.withLock { if let c = $0 { lws_cancel_service(c.raw) } }
    }

    // MARK: Service thread

    /// Runs the service loop on the calling thread until ``stop()``; returns a failure description.
    func run() -> String? {
        lws_set_log_level(LLL_ERR | LLL_WARN, lwsl_emit_stderr)
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.iface = UnsafePointer(iface)
        info.protocols = UnsafePointer(protocols)
        info.pvo = UnsafePointer(pvo)
        info.retry_and_idle_policy = UnsafePointer(retry)
        info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
            | UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
        if iface != nil { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        info.fd_limit_per_thread = 4096
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()  // self outlives the context: run() destroys it
        guard let ctx = lws_create_context(&info) else {
            started.signal()
            return "cannot listen on \(configuration.host):\(configuration.port) (in use, or not an address of this machine)"
        }
        if let vhost = lws_get_vhost_by_name(ctx, "default") {
            let bound = Int(lws_get_vhost_listen_port(vhost))
            policy.port = bound
            boundPort.store(bound, ordering: .releasing)
        }
        context.withLock { $0 = ContextRef(raw: ctx) }
        started.signal()

        var shutdownDeadline: Double?
        while lws_service(ctx, 0) >= 0 {
            if stopRequested.load(ordering: .acquiring) {
                if shutdownDeadline == nil {
                    shutdownDeadline = now + 1.0
                    beginShutdown()
                }
                if connections.isEmpty || now > shutdownDeadline! { break }
            }
        }
        context.withLock { $0 = nil }  // no lws_cancel_service from here on
        lws_context_destroy(ctx)
        return nil
    }

    private var now: Double {
        let d = clock.now - epoch
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    private func beginShutdown() {
        isShuttingDown = true
        for wsi in connections.keys {
            connections[wsi]!.closing = LWS_CLOSE_STATUS_GOINGAWAY
            lws_callback_on_writable(wsi)
        }
    }

    fileprivate func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                            _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP:
            return serveHTTP(wsi, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/")
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            let id = nextID
            nextID += 1
            connections[wsi] = Connection(id: id)
            inbox.push(.opened(id, canControl: admitted.removeValue(forKey: wsi) ?? false))
            if isShuttingDown {
                connections[wsi]!.closing = LWS_CLOSE_STATUS_GOINGAWAY
                lws_callback_on_writable(wsi)
            }
            return 0
        case LWS_CALLBACK_RECEIVE:
            return receive(wsi, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi)
        case LWS_CALLBACK_CLOSED:
            admitted[wsi] = nil
            if let connection = connections.removeValue(forKey: wsi) { inbox.push(.closed(connection.id)) }
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainDeliveries()
            return 0  // never non-zero: lws would close its event pipe (libwebsockets.md §1.5)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func serveHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        let status: UInt32
        if !policy.isAllowedHost(header(wsi, WSI_TOKEN_HOST)) {
            status = 403
        } else {
            switch configuration.files.resolve(path) {
            case .file(let file, let mime):
                let extra = "cache-control: no-store\r\n"
                let result = lws_serve_http_file(wsi, file, mime, extra, Int32(extra.utf8.count))
                if result < 0 { return -1 }
                if result > 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
                return 0
            case .notFound: status = 404
            case .forbidden: status = 403
            case .unsupportedType: status = 415
            }
        }
        if lws_return_http_status(wsi, status, nil) != 0 { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    private func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let uri = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        var buffer = [CChar](repeating: 0, count: 256)
        let token = lws_get_urlarg_by_name(wsi, "token=", &buffer, Int32(buffer.count)).map { String(cString: $0) }
        let path = String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let verdict = policy.admit(
            path: path, token: token, host: header(wsi, WSI_TOKEN_HOST), origin: header(wsi, WSI_TOKEN_ORIGIN))
        switch verdict {
        case .accept(let canControl):
            guard !isShuttingDown else { break }
            admitted[wsi] = canControl
            return 0
        case .reject(let status):
            _ = lws_return_http_status(wsi, UInt32(status), nil)
            return 1
        }
        _ = lws_return_http_status(wsi, 503, nil)
        return 1
    }

    private func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard connections[wsi] != nil else { return -1 }
        if connections[wsi]!.received.count + length > configuration.maximumMessageBytes {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nil, 0)
            return -1
        }
        if let input, length > 0 {
            connections[wsi]!.received.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        if lws_is_final_fragment(wsi) != 0 {
            let message = connections[wsi]!.received
            connections[wsi]!.received.removeAll(keepingCapacity: true)
            inbox.push(.message(connections[wsi]!.id, message))
        }
        return 0
    }

    /// Messages written in one WRITEABLE callback at most, before yielding to other clients.
    private static let writesPerCallback = 8

    private func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard var connection = connections[wsi] else { return 0 }
        if let code = connection.closing {
            lws_close_reason(wsi, code, nil, 0)
            return -1
        }
        let time = now
        // Several queued messages per callback, while the socket takes them whole: lws allows
        // more than one lws_write per WRITEABLE if nothing was left buffered (libwebsockets.md
        // §1.6), and each extra write saves a poll round.
        var written = 0
        while written < Self.writesPerCallback, let message = connection.outbox.next(now: time) {
            if lws_write(wsi, message.payload, message.count, LWS_WRITE_TEXT) < message.count {
                connections[wsi] = connection
                return -1
            }
            written += 1
            if lws_partial_buffered(wsi) != 0 || lws_send_pipe_choked(wsi) != 0 { break }
        }
        connections[wsi] = connection
        if !connection.outbox.isEmpty { lws_callback_on_writable(wsi) }
        return 0
    }

    private func drainDeliveries() {
        let batch = pending.withLock { queue -> [Delivery] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        let time = now
        var byID: [ConnectionID: OpaquePointer] = [:]
        if batch.contains(where: { if case .send = $0 { return true } else { return false } }) {
            for (wsi, connection) in connections { byID[connection.id] = wsi }
        }
        var touched = Set<OpaquePointer>()
        for delivery in batch {
            switch delivery {
            case .frame(let message):
                for wsi in connections.keys {
                    connections[wsi]!.outbox.enqueueFrame(message, now: time)
                    touched.insert(wsi)
                }
            case .broadcast(let message):
                for wsi in connections.keys where !connections[wsi]!.outbox.enqueueControl(message, now: time) {
                    kill(wsi)
                }
                touched.formUnion(connections.keys)
            case .send(let id, let message):
                guard let wsi = byID[id], connections[wsi] != nil else { continue }
                if !connections[wsi]!.outbox.enqueueControl(message, now: time) { kill(wsi) }
                touched.insert(wsi)
            }
        }
        for wsi in touched where connections[wsi] != nil { lws_callback_on_writable(wsi) }
        for (wsi, connection) in connections
        where connection.closing == nil && connection.outbox.isBacklogged(now: time, limit: configuration.backlogLimit) {
            kill(wsi)
        }
    }

    /// Drops a client that stopped reading: closing politely would need it to read.
    private func kill(_ wsi: OpaquePointer) {
        guard connections[wsi]?.closing == nil else { return }
        connections[wsi]!.closing = LWS_CLOSE_STATUS_POLICY_VIOLATION
        lws_set_timeout(wsi, PENDING_TIMEOUT_LAGGING, LWS_TO_KILL_ASYNC)
    }
}

/// The protocol callback: a top-level function converts to `@convention(c)`. It reaches the
/// server through the context's user pointer (set from `Unmanaged.passUnretained`).
private func serviceCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let server = Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue()
    return server.handle(wsi, reason, user, input, length)
}
