internal import CLibWebSockets
internal import Foundation
internal import Synchronization

/// One libwebsockets service shard: one context, one service thread, its clients.
///
/// Every lws call except `lws_cancel_service` happens on the shard's service thread
/// (lws 4.1.6 `include/libwebsockets/lws-service.h`: `lws_cancel_service()` may be called from another thread); other threads hand over ``Delivery``s and accepted sockets
/// through `Mutex`-guarded queues and wake the loop with `lws_cancel_service`, and only while
/// the context is alive: the loop clears the guarded context reference before
/// `lws_context_destroy`.
///
/// Sharding: the bridge runs ``LiveBridge/Configuration/serviceThreads`` shards (by default
/// one per core, at most two), so that the `send()`s of a broadcast, most of its cost, run on
/// several cores. Shard 0 owns the listening socket
/// (`iface` 127.0.0.1 with `LWS_SERVER_OPTION_DISABLE_IPV6` by default: lws 4.1.6
/// `lib/plat/unix/unix-sockets.c`, `lws_interface_to_sa()`). `LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE` cannot give each shard its own listener in
/// 4.1.6: `SO_REUSEPORT` is only set when `count_threads > 1`
/// (`lib/roles/http/server/server.c`, `_lws_vhost_init_server`), and with `LWS_MAX_SMP` 1
/// `count_threads` is 1, so a second bind fails. Instead shard 0 hands every other accepted
/// socket to a peer from `LWS_CALLBACK_FILTER_NETWORK_CONNECTION` (``handOff(_:)``): it
/// duplicates the descriptor for the peer and returns non-zero, and lws closes its own copy
/// (`lib/roles/listen/ops-listen.c`); the peer, a `CONTEXT_PORT_NO_LISTEN_SERVER` context,
/// adopts the duplicate on its own thread with `lws_adopt_descriptor_vhost(…, LWS_ADOPT_SOCKET
/// | LWS_ADOPT_HTTP, …)`, the same call and flags the listener itself uses on an accepted
/// socket, so the connection then goes through the HTTP request and upgrade as if accepted
/// there. Connection ids are `shard + 1` modulo the shard count, unique across shards and
/// naming their shard (``shardIndex(of:count:)``).
///
/// `@unchecked Sendable`: the state below the "service thread only" mark is touched only on
/// the service thread, inside lws callbacks and ``run()``; the cross-thread state is in
/// `Mutex`es and `Atomic`s. The C strings, protocol table and options lws keeps pointers to
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
        /// Keep-alive: ping after this many seconds without a pong, hang up after the second
        /// number. Only a pong resets them (lws 4.1.6 calls `lws_validity_confirmed` on a PONG,
        /// `lib/roles/ws/ops-ws.c`; this server never calls it on a message). The hang-up is the bound docs/PROTOCOL.md §1 gives for a viewer
        /// that stops reading: one that reads nothing answers no ping, and until its socket
        /// buffers fill (hundreds of kB) nothing shows it as backlogged.
        var pingSeconds: UInt16 = 5
        var hangupSeconds: UInt16 = 10
        /// This shard's index and the number of shards (see the type's discussion).
        var shard = 0
        var shardCount = 1
        /// Test only (`make autobahn`): every message a client sends is written back to it,
        /// and the controller never hears of the client (WebSocketServer+Echo.swift).
        var isEchoing = false
        /// The bridge's log (``LiveBridge/Configuration/log``), escaped and summarised.
        var log = BridgeLog(sink: { _ in })
        /// The process's descriptor limit (raised by ``LiveBridge``), which sets lws's table
        /// size and the high-water mark at which the listener pauses.
        var descriptors = DescriptorLimit(soft: 1024, hard: 1024)
    }

    /// The shard that owns connection `id` among `count` shards.
    static func shardIndex(of id: ConnectionID, count: Int) -> Int {
        Int((id - 1) % UInt64(count))
    }

    /// The context, to reach `lws_cancel_service` from other threads.
    ///
    /// `@unchecked Sendable`: off the service thread it is only read inside the `context`
    /// Mutex, and only for `lws_cancel_service`, the one lws call safe from any thread; the
    /// loop clears it under that Mutex before `lws_context_destroy`.
    struct ContextRef: @unchecked Sendable { let raw: OpaquePointer }

    let configuration: Configuration
    private let inbox: Inbox
    let pending = Mutex<[Delivery]>([])
    let context = Mutex<ContextRef?>(nil)
    private let stopRequested = Atomic<Bool>(false)
    private let boundPort = Atomic<Int>(0)
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Accepted sockets handed over by the listening shard, not yet adopted (descriptors this
    /// shard owns: adopted, or closed at shutdown).
    let handedOver = Mutex<[Int32]>([])
    /// Shards the listening shard hands accepted sockets to.
    let peers = Mutex<[WebSocketServer]>([])
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

    // Service thread only. (Internal, not private, for the extensions in
    // WebSocketServer+Writes.swift and WebSocketServer+Sharding.swift.)
    /// A class, so a fan-out mutates each client's outbox in place: with a struct in the
    /// dictionary, mutating entries while iterating its keys copied the whole table per client.
    final class Connection {
        let id: ConnectionID
        let wsi: OpaquePointer
        var outbox = ClientOutbox()
        var received: [UInt8] = []
        var closing: lws_close_status?
        /// Echo mode: whether the message being received is binary (set at its first part).
        var receivingBinary: Bool?
        /// Whether the controller has sent this viewer anything yet. Its first message is its
        /// `hello` (the answer to `.opened`), and until then frames and broadcasts pass it by:
        /// the `hello` already holds the state they would change.
        var isWelcomed = false
        /// Close with this code once everything queued is written (a viewer of another
        /// protocol version gets its `error` first).
        var closesWhenFlushed: lws_close_status?
        /// A live source (`role=source`): broadcasts and frames for pages pass it by.
        var isSource = false
        /// Whether it is listed for a WRITEABLE request in the delivery pass under way (so
        /// a client sent several frames in one pass is asked for once).
        var isTouched = false

        init(id: ConnectionID, wsi: OpaquePointer) {
            self.id = id
            self.wsi = wsi
        }
    }
    var connections: [OpaquePointer: Connection] = [:]
    var connectionsByID: [ConnectionID: Connection] = [:] {
        didSet { audience = nil }
    }
    /// The clients of the last `sendFrame`'s list, looked up once: the frames of one view come
    /// with the same list one after another (``drainDeliveries()``). Forgotten when a client
    /// comes or goes.
    var audience: (ids: [ConnectionID], connections: [Connection])?
    /// Upgrades accepted but not yet established: whether each may control, and the protocol
    /// version its URL asked for (`v=`), nil when none.
    private var admitted: [OpaquePointer: (canControl: Bool, version: Int?, isSource: Bool)] = [:]
    /// Bytes lws reads per receive, and the most it sends per `send()` (plus `LWS_PRE + 4`):
    /// `lws_issue_raw` caps a send at the protocol's `rx_buffer_size` (`lib/core-net/output.c`).
    private static let rxBufferSize = 16 * 1024
    /// One client's queued messages, copied together for one write.
    let batch = CoalescedWrite(capacity: WebSocketServer.rxBufferSize)
    private var nextID: ConnectionID
    var isShuttingDown = false
    var vhost: OpaquePointer?
    /// Sockets accepted by this (listening) shard; every `shardCount`-th stays here.
    var accepted = 0
    /// The listening socket's wsi, as lws passes it to `FILTER_NETWORK_CONNECTION`.
    var listener: OpaquePointer?
    /// While descriptors are short: when the listener may accept again.
    var acceptPausedUntil: Double?
    /// Connections refused for want of descriptors since the last log line, and when that was.
    var refusedForDescriptors = 0
    var lastDescriptorLog = -Double.infinity
    /// The request policy with the port actually bound (port 0 picks one).
    var policy: RequestPolicy

    init(configuration: Configuration, inbox: Inbox) {
        self.configuration = configuration
        self.policy = configuration.policy
        self.inbox = inbox
        self.epoch = clock.now
        nextID = ConnectionID(configuration.shard + 1)
        // nil iface listens on every interface; a numeric one needs IPv6 off (lws 4.1.6 `lib/plat/unix/unix-sockets.c`, `lws_interface_to_sa()`: with IPv6 on, a numeric IPv4 iface binds `::`).
        iface = configuration.host == "0.0.0.0" ? nil : strdup(configuration.host)
        protocols[0] = lws_protocols(
            name: protocolName, callback: serviceCallback, per_session_data_size: 0,
            rx_buffer_size: Self.rxBufferSize, id: 0, user: nil, tx_packet_size: 0)
        protocols[1] = lws_protocols()
        // "default": a browser's `new WebSocket(url)` sends no subprotocol and binds to the
        // default protocol (lws 4.1.6 `lib/roles/ws/server-ws.c`, `lws_process_ws_upgrade()`; the `"default"` pvo in `lib/core-net/vhost.c`); HTTP binds to it too, so this callback
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

    /// The port actually bound (after ``start(listenerPort:onExit:)``), useful with port 0; a shard
    /// that does not listen reports the listening shard's (``start(listenerPort:onExit:)``).
    var port: Int { boundPort.load(ordering: .acquiring) }

    /// Whether this shard owns the listening socket.
    var listens: Bool { configuration.shard == 0 }

    /// Starts the service thread; blocks until it has created its context (or failed to).
    /// - Parameters:
    ///   - listenerPort: for a shard that does not listen, the port the listening shard bound
    ///     (the request policy checks `Host` and `Origin` against it).
    ///   - onExit: called on the service thread when it ends, with why it failed, if it did.
    /// - Returns: why the shard could not start, or nil.
    func start(listenerPort: Int? = nil, onExit: @escaping @Sendable (String?) -> Void) -> String? {
        if let listenerPort { boundPort.store(listenerPort, ordering: .releasing) }
        let thread = Thread { [self] in
            // The kernel's name (top, perf, /proc/PID/task/*/comm); Foundation's `name` stays inside Swift.
            _ = pantrace_name_this_thread("pantrace.lws.\(configuration.shard)")
            let problem = run()
            onExit(problem)
            finished.signal()
        }
        thread.start()
        started.wait()
        started.signal()
        // Not `failure`, which the thread sets only once it has ended: a race that let a port
        // in use print a URL with port 0 and exit 0 (9 runs in 12).
        return startProblem.withLock { $0 }
    }

    /// Blocks until the service thread has ended (after ``start(listenerPort:onExit:)``).
    func waitUntilFinished() { finished.wait(); finished.signal() }

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

    func wake() {
        context.withLock { if let c = $0 { lws_cancel_service(c.raw) } }
    }

    // MARK: Service thread

    /// Why the service thread could not start, set before ``started`` is signalled so that
    /// ``start(listenerPort:onExit:)`` never reads it too early.
    private let startProblem = Mutex<String?>(nil)

    /// Records why the thread could not start, then lets ``start(listenerPort:onExit:)`` go on.
    private func failToStart(_ problem: String) -> String {
        startProblem.withLock { $0 = problem }
        started.signal()
        return problem
    }

    /// Runs the service loop on the calling thread until ``stop()``; returns a failure description.
    private func run() -> String? {
        var info = lws_context_creation_info()
        // A shard that does not listen is still a server: it adopts sockets shard 0 accepted.
        info.port = listens ? Int32(configuration.port) : CONTEXT_PORT_NO_LISTEN_SERVER
        info.iface = listens ? UnsafePointer(iface) : nil
        info.protocols = UnsafePointer(protocols)
        info.pvo = UnsafePointer(pvo)
        info.retry_and_idle_policy = UnsafePointer(retry)
        info.options =
            UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
            | UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
        if iface != nil { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        // Exactly the soft limit: lws then indexes its descriptor table directly, and its
        // own accept modulation matches the process (lib/core/context.c, max_fds).
        info.fd_limit_per_thread = UInt32(clamping: configuration.descriptors.soft)
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(self).toOpaque()  // self outlives the context: run() destroys it
        guard let ctx = lws_create_context(&info) else {
            let problem =
                listens
                ? "cannot listen on \(configuration.host):\(configuration.port) (in use, or not an address of this machine)"
                : "cannot start service thread \(configuration.shard)"
            return failToStart(problem)
        }
        vhost = lws_get_vhost_by_name(ctx, "default")
        if listens {
            // lws 4.1.6 can create the context even when the bind failed (the port in use):
            // the vhost then reports no listening port. Checked here, so `serve` says so in
            // one line and exits 1 instead of printing a URL with port 0.
            let bound = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? 0
            guard bound > 0, configuration.port == 0 || bound == configuration.port else {
                lws_context_destroy(ctx)
                return failToStart("cannot listen on \(configuration.host):\(configuration.port) (in use, or not an address of this machine)")
            }
            boundPort.store(bound, ordering: .releasing)
        }
        policy.port = port
        context.withLock { $0 = ContextRef(raw: ctx) }
        started.signal()

        var shutdownDeadline: Double?
        while lws_service(ctx, 0) >= 0 {
            if listens { modulateAccepting() }
            if stopRequested.load(ordering: .acquiring) {
                if shutdownDeadline == nil {
                    shutdownDeadline = now + 1.0
                    beginShutdown()
                }
                if connections.isEmpty || now > shutdownDeadline! { break }
            }
        }
        context.withLock { $0 = nil }  // no lws_cancel_service, no hand-over from here on
        for socket in handedOver.withLock({ $0 }) { close(socket) }  // arrived too late to adopt
        lws_context_destroy(ctx)
        return nil
    }

    var now: Double {
        let d = clock.now - epoch
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    private func beginShutdown() {
        isShuttingDown = true
        for connection in connections.values {
            connection.closing = LWS_CLOSE_STATUS_GOINGAWAY
            lws_callback_on_writable(connection.wsi)
        }
    }

    fileprivate func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            // `in` carries the accepted descriptor and `wsi` is the listener
            // (lib/roles/listen/ops-listen.c); non-zero makes lws close the descriptor.
            let socket = Int32(truncatingIfNeeded: Int(bitPattern: input))
            if listens, Int(socket) >= configuration.descriptors.highWater(serviceThreads: configuration.shardCount) {
                pauseAccepting(listener: wsi)
                return 1
            }
            return handOff(socket) ? 1 : 0
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE where length == 1:
            // A close payload is empty or starts with a 2-byte code (RFC 6455 §5.5.1); lws 4.1.6
            // checks codes only when there are two bytes and would echo the one byte back.
            lws_close_reason(wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, nil, 0)
            return -1
        case LWS_CALLBACK_HTTP:
            return serveHTTP(wsi, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/")
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            let connection = Connection(id: nextID, wsi: wsi)
            nextID += ConnectionID(configuration.shardCount)
            connections[wsi] = connection
            connectionsByID[connection.id] = connection
            let admission = admitted.removeValue(forKey: wsi) ?? (canControl: false, version: nil, isSource: false)
            if !configuration.isEchoing, admission.version != wireProtocolVersion {
                refuseVersion(admission.version, of: connection)
                return 0
            }
            if !configuration.isEchoing, admission.isSource {
                // A live source records into the library: without the token it is refused.
                guard admission.canControl else {
                    refuse(
                        connection, code: .forbidden,
                        "a live source needs the token: connect with the ?token= that pantrace serve printed")
                    return 0
                }
                connection.isSource = true
                inbox.push(.sourceOpened(connection.id))
            } else if !configuration.isEchoing {
                inbox.push(.opened(connection.id, canControl: admission.canControl))
            }
            if isShuttingDown {
                connection.closing = LWS_CLOSE_STATUS_GOINGAWAY
                lws_callback_on_writable(wsi)
            }
            return 0
        case LWS_CALLBACK_RECEIVE:
            return receive(wsi, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi)
        case LWS_CALLBACK_CLOSED:
            admitted[wsi] = nil
            if let connection = connections.removeValue(forKey: wsi) {
                connectionsByID[connection.id] = nil
                if !configuration.isEchoing { inbox.push(.closed(connection.id)) }
            }
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainDeliveries()
            return 0  // never non-zero: lws would close its event pipe (lws 4.1.6 `lib/roles/pipe/ops-pipe.c`, `rops_handle_POLLIN_pipe()`)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let uri = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        var buffer = [CChar](repeating: 0, count: 256)
        let token = lws_get_urlarg_by_name(wsi, "token=", &buffer, Int32(buffer.count)).map { String(cString: $0) }
        let version = lws_get_urlarg_by_name(wsi, "v=", &buffer, Int32(buffer.count)).flatMap { Int(String(cString: $0)) }
        let role = lws_get_urlarg_by_name(wsi, "role=", &buffer, Int32(buffer.count)).map { String(cString: $0) }
        let path = String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        // Host and Origin first: a page of another site (or a name rebound to this address)
        // is refused before anything it sent can reach the log.
        let verdict = policy.admit(
            path: path, token: token, host: header(wsi, WSI_TOKEN_HOST), origin: header(wsi, WSI_TOKEN_ORIGIN))
        switch verdict {
        case .accept(let canControl):
            // lws 4.1.6 drops a connection whose Sec-WebSocket-Protocol names only protocols it
            // does not serve, without an answer (lws_process_ws_upgrade, lib/roles/ws/server-ws.c),
            // and has no way to accept it without a subprotocol: refuse it here with a 400. The
            // header is the client's: escaped and cut short, and a flood is summarised (BridgeLog).
            if let offered = header(wsi, WSI_TOKEN_PROTOCOL), !offered.isEmpty,
                !offered.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "pantrace" })
            {
                configuration.log(
                    "refused a WebSocket upgrade offering only unknown subprotocols (\(LogText.escaped(offered, limit: 80)))",
                    kind: "refused-subprotocols")
                _ = lws_return_http_status(wsi, 400, nil)
                return 1
            }
            guard !isShuttingDown else { break }
            admitted[wsi] = (canControl, version, role == "source")
            return 0
        case .reject(let status):
            _ = lws_return_http_status(wsi, UInt32(status), nil)
            return 1
        }
        _ = lws_return_http_status(wsi, 503, nil)
        return 1
    }

    private func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let connection = connections[wsi] else { return -1 }
        if connection.received.count + length > configuration.maximumMessageBytes {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nil, 0)
            return -1
        }
        if configuration.isEchoing, connection.receivingBinary == nil {
            connection.receivingBinary = lws_frame_is_binary(wsi) != 0
        }
        if let input, length > 0 {
            connection.received.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        if lws_is_final_fragment(wsi) != 0 {
            let message = connection.received
            connection.received.removeAll(keepingCapacity: true)
            guard !configuration.isEchoing else { return echo(message, to: connection) }
            inbox.push(.message(connection.id, message))
        }
        return 0
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
