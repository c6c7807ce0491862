internal import Dispatch
internal import Foundation
internal import PanTrace
internal import Synchronization
package import TransitionEngine

/// The live viewer's server: HTTP for `web/`, WebSocket at `/live`, and the replay everyone
/// watches (docs/PROTOCOL.md, docs/VIEWER.md).
///
/// Threads: the libwebsockets service threads (sockets only; one per shard, see
/// ``Configuration/serviceThreads``) and the controller thread (the player, the library,
/// recordings), which exchange messages through mailboxes. Use
/// ``withLiveBridge(_:_:)`` so the bridge is always shut down: clients get a 1001 close and
/// recordings in progress are finalised.
package final class LiveBridge: Sendable {
    /// Where and what to serve.
    package struct Configuration: Sendable {
        /// Address to listen on: `127.0.0.1` (default, loopback only) or `0.0.0.0` (every interface).
        package var host: String
        /// Port; 0 picks a free one (read ``port`` after start).
        package var port: Int
        /// The recordings folder (the library; live recordings are written under it).
        package var recordingsFolder: String
        /// The web viewer's folder.
        package var webFolder: String
        /// Origins allowed besides the server's own, e.g. `http://192.168.1.5:8080`.
        package var allowedOrigins: [String]
        /// The token that grants control; random per launch by default.
        package var token: String
        /// Frames per second streamed to viewers.
        package var frameRate: Double
        /// Seconds a client may stay backlogged before it is closed.
        package var backlogLimit: Double
        /// Benchmark only (`Benchmarks/bridge`): when set, frames are produced this many times
        /// a second (1…100,000, not capped at 240), each the replay's next frame, cycling without
        /// the loop pause, so the frame rate does not depend on the replay. `nil` (the default):
        /// frames follow the replay at ``frameRate``.
        package var benchmarkFrameRate: Double?
        /// libwebsockets service threads, each with its own context and a share of the
        /// clients, so the per-client writes of a broadcast run on several cores: 2 when the
        /// machine has 2 or more cores, else 1 (1…8).
        package var serviceThreads = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))
        /// Test only (`make autobahn`, the Autobahn|Testsuite fuzzing client): every WebSocket
        /// message a client sends at `/live` is sent back to it unchanged, text as text and
        /// binary as binary, a fragmented one once whole, up to ``echoMaximumMessageBytes``;
        /// clients get nothing else (no hello, no frames) and cannot control anything. Who may
        /// connect is checked as always. `false` (the default): the live viewer.
        package var isEchoing = false
        /// The largest message echo mode takes back (1 MiB; larger closes with 1009). The
        /// largest in Autobahn cases 1–7 and 10 is 7.1.6's 256 KiB; the 9.x performance
        /// cases, up to 16 MiB, are not run.
        package static let echoMaximumMessageBytes = 1 << 20
        /// The recording (library id) a new page opens on, or nil for the built-in choice
        /// (``BridgeController/firstView(in:)``: a labelled edge swipe under `best`).
        package var firstRecording: String?
        /// The preset of the first view, or nil for the one that suits it.
        package var firstPreset: String?
        /// The first view's parameters (`serve --setting`: a tuned setting's), as `load` takes them.
        package var firstParameters: [String: PresetValue] = [:]
        /// Where the bridge's own log lines go while it runs (a recording skipped, a message
        /// that could not be encoded, descriptors running out), one line each, from any
        /// thread. The default drops them; `pantrace serve` writes them to standard error.
        /// Lines arrive safe for a terminal: what came from outside is escaped (control
        /// characters as `\x1b`, lengths capped) and a flood of like lines is summarised at most
        /// once a second (docs/VIEWER.md, "The server's log").
        package var log: @Sendable (String) -> Void = { _ in }
        /// Whether libwebsockets' own warnings and notices go to ``log`` too (`serve
        /// --verbose`); by default none of its lines reach a user.
        package var logsLibWebSockets = false
        /// The most `.pantrace` files the recordings folder may hold (`serve --max-files`):
        /// a scan that finds more lists none and logs the limit.
        package var maximumRecordings = TraceFolder.defaultLimit
        /// The most gestures listed of one corpus file in the recordings folder (`serve
        /// --max-corpus-gestures`): past it the rest are not listed, and the page and the log
        /// say so.
        package var maximumCorpusGestures = 1_000

        /// Creates a configuration with a fresh random token.
        package init(
            host: String = "127.0.0.1", port: Int = 8080, recordingsFolder: String = "recordings", webFolder: String = "web",
            allowedOrigins: [String] = [], token: String? = nil, frameRate: Double = 60, backlogLimit: Double = 3,
            benchmarkFrameRate: Double? = nil
        ) {
            self.host = host
            self.port = port
            self.recordingsFolder = recordingsFolder
            self.webFolder = webFolder
            self.allowedOrigins = allowedOrigins
            self.token = token ?? Self.randomToken()
            self.frameRate = frameRate
            self.backlogLimit = backlogLimit
            self.benchmarkFrameRate = benchmarkFrameRate
        }

        /// 128 random bits as 32 hex digits, from the system's secure generator.
        package static func randomToken() -> String {
            var generator = SystemRandomNumberGenerator()
            let digits = Array("0123456789abcdef")
            return String((0..<32).map { _ in digits[Int(generator.next(upperBound: UInt8(16)))] })
        }
    }

    /// The configuration in use.
    package let configuration: Configuration
    private let inbox = Inbox()
    /// The service shards; the first listens (WebSocketServer).
    private let servers: [WebSocketServer]
    private let stopping = Atomic<Bool>(false)
    private let controllerFinished = DispatchSemaphore(value: 0)
    private let startupProblems = Mutex<[String]>([])
    /// Messages that could not be encoded and were not sent (each also logged).
    private let unencodable = Atomic<Int>(0)
    /// ``Configuration/log`` behind the escaper and the summariser.
    private let log: BridgeLog

    /// Checks the configuration; nothing listens until ``start()``.
    /// - Throws: ``LiveBridgeError`` for a bad host, port or folder.
    package init(configuration: Configuration) throws(LiveBridgeError) {
        guard ["127.0.0.1", "0.0.0.0"].contains(configuration.host) || RequestPolicy.isIPLiteral(configuration.host) else {
            throw LiveBridgeError(.badHost(configuration.host))
        }
        guard (0...65535).contains(configuration.port) else { throw LiveBridgeError(.badPort(configuration.port)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.webFolder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LiveBridgeError(.missingFolder("web", configuration.webFolder))
        }
        guard FileManager.default.fileExists(atPath: configuration.recordingsFolder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LiveBridgeError(.missingFolder("recordings", configuration.recordingsFolder))
        }
        guard configuration.frameRate > 0, configuration.frameRate <= 240 else { throw LiveBridgeError(.badRate("frame rate", "1…240")) }
        if let rate = configuration.benchmarkFrameRate, !(rate >= 1 && rate <= 100_000) {
            throw LiveBridgeError(.badRate("benchmark frame rate", "1…100000"))
        }
        guard (1...8).contains(configuration.serviceThreads) else { throw LiveBridgeError(.badRate("service threads", "1…8")) }
        self.configuration = configuration
        let log = BridgeLog(sink: configuration.log)
        self.log = log
        // Process-wide, so set once here before any service thread exists.
        let lwsLines: @Sendable (String) -> Void = { line in log(line) }
        LibWebSocketsLog.install(verbose: configuration.logsLibWebSockets ? lwsLines : nil)
        let descriptors = DescriptorLimit.raised()
        self.descriptors = descriptors
        LargeBuffers.mapSeparately()
        let policy = RequestPolicy(
            port: configuration.port, token: configuration.token, allowedOrigins: Set(configuration.allowedOrigins.map { $0.lowercased() }))
        servers = (0..<configuration.serviceThreads).map { [inbox] shard in
            var server = WebSocketServer.Configuration(
                host: configuration.host, port: configuration.port, policy: policy,
                files: StaticFiles(root: configuration.webFolder), backlogLimit: configuration.backlogLimit,
                shard: shard, shardCount: configuration.serviceThreads, log: log, descriptors: descriptors)
            if configuration.isEchoing {
                server.isEchoing = true
                server.maximumMessageBytes = Configuration.echoMaximumMessageBytes
            }
            return WebSocketServer(configuration: server, inbox: inbox)
        }
    }

    /// The port actually listened on.
    package var port: Int { servers[0].port }

    private let descriptors: DescriptorLimit

    /// The open-file limit in force (the soft limit, raised to the hard limit at start).
    package var openFileLimit: Int { descriptors.soft }

    /// How many viewers can be connected at once: the open-file limit less what the rest of
    /// the process keeps free. Past it, new connections are refused for a second at a time
    /// and the log says so; viewers already connected are not affected.
    package var viewerCapacity: Int { descriptors.capacity(serviceThreads: configuration.serviceThreads) }

    /// The address to open, with the token.
    package var url: String {
        let host = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host
        return "http://\(host):\(port)/?token=\(configuration.token)"
    }

    /// Problems found at start, one line each: recordings that could not be read, a default
    /// replay that could not be loaded.
    /// Names in them are the files' own, escaped for a terminal (``LogText``).
    package var libraryProblems: [String] { startupProblems.withLock { $0 }.map { LogText.terminalSafe($0, limit: BridgeLog.lineLimit) } }

    /// Starts the threads and returns once the socket is listening.
    /// - Throws: ``LiveBridgeError`` if the port cannot be bound.
    package func start() throws(LiveBridgeError) {
        for (index, server) in servers.enumerated() {
            // The listening shard first: the others learn its port.
            let problem = server.start(listenerPort: index == 0 ? nil : servers[0].port) { [self] _ in
                // One shard ending (stopped, or lws failed) ends them all, and the controller.
                for other in servers { other.stop() }
                stopping.store(true, ordering: .releasing)
                inbox.poke()
            }
            if let problem {
                for started in servers[...index] { started.waitUntilFinished() }
                throw LiveBridgeError(.cannotListen(problem))
            }
        }
        servers[0].handOff(to: Array(servers.dropFirst()))

        let ready = DispatchSemaphore(value: 0)
        let controllerThread = Thread { [self] in
            var controller = BridgeController(
                configuration: .init(
                    recordingsFolder: configuration.recordingsFolder, frameRate: configuration.frameRate,
                    maximumRecordings: configuration.maximumRecordings, maximumCorpusGestures: configuration.maximumCorpusGestures))
            let loadProblem = controller.loadDefault(
                recording: configuration.firstRecording, preset: configuration.firstPreset, parameters: configuration.firstParameters)
            startupProblems.withLock {
                $0 = controller.libraryProblems.map { "skipped \($0)" } + controller.libraryNotices + (loadProblem.map { [$0] } ?? [])
            }
            ready.signal()
            runController(&controller)
            controller.finaliseRecording()
            controller.finaliseSources()
            controllerFinished.signal()
        }
        controllerThread.name = "pantrace.controller"
        controllerThread.start()
        ready.wait()
    }

    /// Asks every thread to stop: clients get a 1001 close; returns at once (see ``wait()``).
    package func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for server in servers { server.stop() }
        inbox.poke()
    }

    /// Blocks until every thread has shut down (a recording in progress is finalised first).
    package func wait() {
        for server in servers { server.waitUntilFinished() }
        controllerFinished.wait()
        controllerFinished.signal()
        log.flushAll()
    }

    /// `--bench-frame-rate`: the most frames one wake-up makes to catch up.
    static let benchmarkCatchUp = 16

    private func runController(_ controller: inout BridgeController) {
        let clock = ContinuousClock()
        let epoch = clock.now
        func seconds() -> Double {
            let d = clock.now - epoch
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        let encoder = ServerMessage.encoder()
        let tickRate = configuration.benchmarkFrameRate ?? configuration.frameRate
        // Encoded messages shared between clients (a join's hello and series), by share key.
        var shared: [String: OutboundMessage] = [:]
        // The `frame` objects of replays' frames, written once for every page shown them.
        var frameBodies: [FrameBody: [UInt8]] = [:]
        // The hello of pages joining a quiet scene, by share key (``HelloTemplate``).
        var helloTemplate: (key: String, template: HelloTemplate)?
        var pacer = FramePacer()
        var nextFrame = seconds()
        while !stopping.load(ordering: .acquiring) {
            // Idle (no deadline) unless someone is watching a replay that moves, or frames wait
            // for the pacer: ~0 % CPU.
            let wake = [controller.wantsTicks ? nextFrame : nil, pacer.deadline, controller.deadline].compactMap { $0 }.min()
            let deadline: DispatchTime? = wake.map { .now() + max(0, $0 - seconds()) }
            let inputs = inbox.wait(until: deadline)
            var out: [Outgoing] = []
            controller.wallClock = Date().timeIntervalSince1970
            for input in inputs { out += controller.handle(input, now: seconds()) }
            if let due = controller.deadline, seconds() >= due { out += controller.due(now: seconds()) }
            for line in controller.takeLog() { log(line) }
            if let (requester, job) = controller.takePendingTune() {
                DispatchQueue.global().async { [inbox] in inbox.push(.tuned(requester, job.run())) }
            }
            for job in controller.takePendingCompares() {
                DispatchQueue.global().async { [inbox] in inbox.push(.compared(job.request, job.run())) }
            }
            let now = seconds()
            if controller.wantsTicks, now >= nextFrame, let rate = configuration.benchmarkFrameRate {
                // Every frame due since the last wake-up, up to a bound, then skip (the C peer
                // in Benchmarks/bridge does the same): a late wake-up loses no frame, so the
                // rate measured is the fan-out's, not the timer's.
                let due = min(Self.benchmarkCatchUp, Int((now - nextFrame) * rate) + 1)
                for _ in 0..<due { out += controller.benchmarkTick(now: now) }
                nextFrame = max(nextFrame + Double(due) / rate, now - Double(Self.benchmarkCatchUp) / rate)
            } else if controller.wantsTicks, now >= nextFrame {
                out += controller.tick(now: now)
                nextFrame = max(nextFrame + 1 / tickRate, now - 1 / tickRate)
            } else if !controller.wantsTicks {
                nextFrame = now
                _ = controller.tick(now: now)
            }
            var deliveries: [Delivery] = []
            for outgoing in out {
                if let key = outgoing.shareKey, case .hello(let hello) = outgoing.message {
                    if helloTemplate?.key != key { helloTemplate = HelloTemplate(hello, encoder: encoder).map { (key, $0) } }
                    if let (_, template) = helloTemplate {
                        deliveries += delivery(OutboundMessage(template.bytes(forPage: hello.page)), to: outgoing.target)
                        continue
                    }
                }
                if let key = outgoing.shareKey, let cached = shared[key] {
                    deliveries += delivery(cached, to: outgoing.target)
                    continue
                }
                guard let message = encode(outgoing, with: encoder, frameBodies: &frameBodies) else { continue }
                message.supersedes = outgoing.supersedes
                if let key = outgoing.shareKey {
                    if shared.count >= 8 { shared.removeAll() }  // keys of past loads and versions
                    shared[key] = message
                }
                deliveries += delivery(message, to: outgoing.target)
            }
            // Clients the controller closes: a close frame after everything they were sent.
            for outgoing in out where outgoing.closesConnection {
                if case .client(let id) = outgoing.target { deliveries.append(.send(id, OutboundMessage.closingForPolicy())) }
            }
            deliver(pacing: &pacer, at: seconds(), deliveries, urgent: out.contains(where: \.isLiveFrame))
        }
    }

    /// Hands `deliveries` over through the pacer: frames closer together than its interval
    /// wait and go together (``FramePacer``).
    private func deliver(pacing pacer: inout FramePacer, at now: Double, _ deliveries: [Delivery], urgent: Bool = false) {
        deliver(pacer.release(deliveries, now: now, urgent: urgent))
    }

    /// Broadcasts go to every shard, in the same order; a message for one client to its shard.
    private func deliver(_ deliveries: [Delivery]) {
        guard servers.count > 1 else {
            servers[0].deliver(deliveries)
            return
        }
        var byShard = [[Delivery]](repeating: [], count: servers.count)
        for delivery in deliveries {
            switch delivery {
            case .send(let id, _):
                byShard[WebSocketServer.shardIndex(of: id, count: servers.count)].append(delivery)
            case .sendFrame(let ids, let message):
                // One delivery per shard with its share of the pages, not one per page.
                var shares = [[ConnectionID]](repeating: [], count: servers.count)
                for id in ids { shares[WebSocketServer.shardIndex(of: id, count: servers.count)].append(id) }
                for (shard, share) in shares.enumerated() where !share.isEmpty { byShard[shard].append(.sendFrame(share, message)) }
            case .frame, .broadcast:
                for shard in byShard.indices { byShard[shard].append(delivery) }
            }
        }
        for (server, deliveries) in zip(servers, byShard) { server.deliver(deliveries) }
    }

    private func delivery(_ payload: OutboundMessage, to target: Outgoing.Target) -> [Delivery] {
        switch target {
        case .frames: [.frame(payload)]
        case .everyone: [.broadcast(payload)]
        case .client(let id): [.send(id, payload)]
        case .clients(let ids): ids.map { .send($0, payload) }
        case .framesFor(let ids): [.sendFrame(ids, payload)]
        }
    }

    private func encode(
        _ outgoing: Outgoing, with encoder: JSONEncoder, frameBodies: inout [FrameBody: [UInt8]]
    ) -> OutboundMessage? {
        var message = outgoing.message
        if case .encoded(_, let bytes) = message { return OutboundMessage(bytes) }
        if case .frame(var frame) = message {
            frame.emittedMicroseconds = Int64(Date().timeIntervalSince1970 * 1e6)
            // The hot path: the same bytes as the encoder below, without Codable, and the
            // `frame` object of a replay's frame written once for every page shown it.
            if let body = frame.body {
                if let written = frameBodies[body] {
                    if let bytes = frame.sortedKeysJSON(body: written) { return OutboundMessage(bytes) }
                } else if let written = FrameMessage.bodyJSON(frame.frame) {
                    if frameBodies.count >= FrameCache.limit { frameBodies.removeAll(keepingCapacity: true) }
                    frameBodies[body] = written
                    if let bytes = frame.sortedKeysJSON(body: written) { return OutboundMessage(bytes) }
                }
            }
            if let bytes = frame.sortedKeysJSON() { return OutboundMessage(bytes) }
            message = .frame(frame)
        }
        let data: Data
        do {
            data = try encoder.encode(message)
        } catch {
            // Values are checked where they enter, so this should not happen; if it does, the
            // message is not sent and the log says which and why.
            let count = unencodable.add(1, ordering: .relaxed).newValue
            log("could not encode a \(message.type) message (\(count) so far): \(error)", kind: "unencodable")
            return nil
        }
        return OutboundMessage(Array(data))
    }
}

/// Runs `body` with a started bridge and always shuts it down afterwards.
package func withLiveBridge<R>(_ configuration: LiveBridge.Configuration, _ body: (LiveBridge) throws -> R) throws -> R {
    let bridge = try LiveBridge(configuration: configuration)
    try bridge.start()
    defer {
        bridge.stop()
        bridge.wait()
    }
    return try body(bridge)
}

/// Why a bridge cannot start, in one line (a struct wrapping a private code, so kinds can be added).
package struct LiveBridgeError: Error, CustomStringConvertible, Sendable {
    enum Code: Sendable {
        case badHost(String)
        case badPort(Int)
        case missingFolder(String, String)
        case badRate(String, String)
        case cannotListen(String)
    }

    let code: Code

    init(_ code: Code) { self.code = code }

    /// The one line a user sees.
    package var description: String {
        switch code {
        case .badHost(let host): "--host must be an IP address such as 127.0.0.1 or 0.0.0.0, got \(host)"
        case .badPort(let port): "--port must be 0…65535, got \(port)"
        case .missingFolder(let what, let path): "\(what) folder \(path) does not exist"
        case .badRate(let what, let range): "\(what) must be \(range)"
        case .cannotListen(let why): why
        }
    }
}
