public import Foundation
public import PanCapture
public import PanTrace

/// A live link from a device to a running `pantrace serve`: hand it what the pan recognizer's
/// action sees, as you would hand it to ``TraceRecorder``, and the server records each gesture
/// while the pages watching the device see it through their own preset (docs/LIVE.md).
///
/// ``record(state:translation:velocity:location:touches:timestamp:)`` never blocks: it puts
/// the sample in a bounded queue and returns. When the queue is full (the network stalls or the
/// server is away) the oldest unsent `changed` sample is dropped, counted in
/// ``Counters/dropped`` and sent to the server as `dropped`. The link reconnects with backoff
/// (0.25 s doubling to 10 s, ±20 %) and says so through ``onStatus``; on reconnecting it sends
/// only what the server does not have (its `received`). A gesture cut by a disconnect is kept
/// by the server as incomplete; its later samples are discarded (``Counters/discarded``), never
/// sent twice.
///
/// ```swift
/// let link = LiveLink(configuration: .init(
///     url: URL(string: "ws://192.168.1.5:8080/live")!, token: "…",
///     source: LiveSource(name: UIDevice.current.name, screen: ScreenGeometry(width: 390, height: 844, scale: 3))))
/// link.onStatus = { status in DispatchQueue.main.async { statusLabel.text = status.description } }
/// link.start()
/// ```
///
/// What it changes while it runs is a ``LinkState`` (`Interop/LinkState.swift`), under that
/// state's lock; status callbacks go out on the serial `callbacks` queue.
public final class LiveLink: Sendable {
    /// What the link connects to and how it behaves.
    public struct Configuration: Sendable {
        /// `ws://HOST:PORT/live` (the query is added).
        public var url: URL
        /// The server's control token (`pantrace serve` prints it in the page URL).
        public var token: String
        /// Who the device is.
        public var source: LiveSource
        /// Samples the queue holds at most, sent or not, until the server acknowledges them.
        public var queueCapacity: Int
        /// Batches sent and not yet acknowledged, at most.
        public var window: Int
        /// After this many connection attempts in a row that fail before joining, stop
        /// (``Status/gaveUp(reason:)``); `nil`: keep trying.
        public var maxFailedAttempts: Int?
        /// First reconnection delay, doubled after each failure up to ``backoffMax``.
        public var backoffBase: Double
        /// Longest reconnection delay.
        public var backoffMax: Double
        /// An open connection that has not joined within this is closed and tried again.
        public var joinTimeout: Double
        /// Unacknowledged batches for this long: ``Status/stalled(since:)``.
        public var stallAfter: Double
        /// Seed of the backoff's jitter.
        public var seed: UInt64

        /// Creates a configuration with a 2,048-sample queue (17 s at 120 Hz) and 8 batches in flight.
        public init(
            url: URL, token: String, source: LiveSource, queueCapacity: Int = 2048, window: Int = 8, maxFailedAttempts: Int? = nil,
            backoffBase: Double = 0.25, backoffMax: Double = 10, joinTimeout: Double = 10, stallAfter: Double = 3,
            seed: UInt64 = UInt64.random(in: 0...UInt64.max)
        ) {
            self.url = url
            self.token = token
            self.source = source
            self.queueCapacity = max(1, queueCapacity)
            self.window = max(1, window)
            self.maxFailedAttempts = maxFailedAttempts
            self.backoffBase = backoffBase
            self.backoffMax = backoffMax
            self.joinTimeout = joinTimeout
            self.stallAfter = stallAfter
            self.seed = seed
        }

        /// The WebSocket URL with `v`, `token` and `role=source`.
        public var joinURL: URL {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
            components.queryItems = [
                URLQueryItem(name: "v", value: "3"), URLQueryItem(name: "token", value: token), URLQueryItem(name: "role", value: "source")
            ]
            return components.url ?? url
        }
    }

    /// What the link is doing, for the app to show.
    public enum Status: Hashable, Sendable, CustomStringConvertible {
        /// Not started.
        case idle
        /// Opening a connection (`attempt` counts from 1 since the last success).
        case connecting(attempt: Int)
        /// Joined: the server knows the device as `source`; `reconnects` so far.
        case connected(source: Int, reconnects: Int)
        /// Connected, but nothing acknowledged since `since` (link-clock seconds): the network
        /// or the server stalls; samples wait in the queue and drop when it is full.
        case stalled(since: Double)
        /// The connection is gone; the next attempt is in `retryIn` seconds.
        case disconnected(reason: String, retryIn: Double)
        /// The server refused the link (a wrong token, another protocol version): final.
        case refused(reason: String)
        /// ``Configuration/maxFailedAttempts`` attempts failed in a row: final.
        case gaveUp(reason: String)
        /// ``LiveLink/stop()`` was called: final.
        case stopped

        /// Whether the link will never send again.
        public var isFinal: Bool {
            switch self {
            case .refused, .gaveUp, .stopped: true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .idle: "not started"
            case .connecting(let attempt): attempt == 1 ? "connecting" : "connecting (attempt \(attempt))"
            case .connected(let source, let reconnects):
                "connected as source \(source)" + (reconnects == 0 ? "" : " (reconnected \(reconnects)×)")
            case .stalled: "stalled: the server acknowledges nothing"
            case .disconnected(let reason, let retryIn): "disconnected (\(reason)); retrying in \(String(format: "%.1f", retryIn)) s"
            case .refused(let reason): "refused by the server: \(reason)"
            case .gaveUp(let reason): "gave up: \(reason)"
            case .stopped: "stopped"
            }
        }
    }

    /// What the link has done so far.
    public struct Counters: Hashable, Sendable {
        /// Samples in the queue now (sent or not, not yet acknowledged).
        public var queued = 0
        /// Samples written to a connection, resends included.
        public var sent = 0
        /// The highest `seq` the server acknowledged.
        public var acknowledged = 0
        /// Samples dropped because the queue was full.
        public var dropped = 0
        /// Samples of gestures cut by a disconnect (the server kept those as incomplete).
        public var discarded = 0
        /// Samples refused before queueing (not finite, out of range, time going back).
        public var rejected = 0
        /// Reconnections after the first connection attempt.
        public var reconnects = 0
        /// Joins after which the server had less than was acknowledged (it restarted).
        public var restartsSeen = 0
        /// `rate_limited` errors from the server.
        public var rateLimited = 0
        /// Other errors from the server (bad samples, unreadable messages).
        public var serverErrors = 0
        /// The last error the server sent, `code: message`.
        public var lastServerError: String?
        /// The number the server knows the device by, once joined.
        public var source: Int?
    }

    /// What ``record(state:translation:velocity:location:touches:timestamp:)`` did.
    public enum Enqueued: Hashable, Sendable {
        /// Queued as sample `seq`.
        case queued(seq: Int)
        /// Queued as sample `seq`; the queue was full, so an older unsent sample was dropped.
        case queuedDroppingAnother(seq: Int)
        /// Dropped: the queue is full of samples that cannot be dropped.
        case dropped
        /// Not sent: a sample of a gesture cut by a disconnect.
        case discarded
        /// Not a sample to send (`possible`, or no gesture in progress, or the link stopped).
        case ignored
        /// A value the server would refuse; the sentence names it.
        case rejected(String)
    }

    /// Called on a private serial queue with each new status, in order.
    public var onStatus: (@Sendable (Status) -> Void)? {
        get { state.withLock { $0.statusHandler } }
        set { state.withLock { $0.statusHandler = newValue } }
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let state: LinkState
    private let transport: any LiveTransport
    private let queue = DispatchQueue(label: "PanTraceLive.link")
    private let callbacks = DispatchQueue(label: "PanTraceLive.status")
    private static let onCallbacks = DispatchSpecificKey<Bool>()

    /// Creates a link; nothing happens until ``start()``.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.state = LinkState(core: LinkCore(configuration: configuration))
        self.transport = defaultTransport()
        callbacks.setSpecific(key: Self.onCallbacks, value: true)
    }

    /// The current status.
    public var status: Status { state.withLock { $0.core.status } }

    /// The counters now.
    public var counters: Counters { state.withLock { $0.core.counters } }

    /// Starts connecting (in the background; the status says how it goes).
    public func start() {
        locked { link, now in link.core.start(now: now) }
    }

    /// Closes the link for good. When it returns, every status callback has run (unless it is
    /// called from ``onStatus`` itself), so what the caller says next comes after them.
    public func stop() {
        locked { link, now in link.core.stop(now: now) }
        if DispatchQueue.getSpecific(key: Self.onCallbacks) != true { callbacks.sync {} }
    }

    /// Sends one callback of the pan recognizer; returns at once (see ``Enqueued``).
    ///
    /// - Parameters:
    ///   - state: the recognizer's state.
    ///   - translation: `translation(in:)`, points since the touch went down.
    ///   - velocity: `velocity(in:)`, points per second.
    ///   - location: `location(in:)`, if wanted.
    ///   - touches: `numberOfTouches`, if wanted.
    ///   - timestamp: seconds on a monotonic clock (`CACurrentMediaTime()`).
    @discardableResult
    public func record(
        state: TraceRecorder.State, translation: PanVector, velocity: PanVector, location: PanVector? = nil, touches: Int? = nil,
        timestamp: Double
    ) -> Enqueued {
        var result = Enqueued.ignored
        locked { link, now in
            let (enqueued, actions) = link.core.record(
                state: state, translation: translation, velocity: velocity, location: location, touches: touches, timestamp: timestamp,
                now: now)
            result = enqueued
            return actions
        }
        return result
    }

    /// Blocks until every sample is acknowledged, the link stops for good, or `timeout`
    /// seconds pass; returns whether the queue is empty. Not for an app's main thread.
    public func waitUntilDrained(timeout: Double) -> Bool {
        wait(timeout: timeout) { $0.queuedCount == 0 }
    }

    /// Blocks until the queue holds fewer than `count` samples (or the link stops for good, or
    /// `timeout` seconds pass); returns whether it does. For a reader that would rather wait than
    /// drop (`pantrace live` reading a file); not for an app's main thread.
    public func waitUntilQueued(below count: Int, timeout: Double) -> Bool {
        wait(timeout: timeout) { $0.queuedCount < count }
    }

    /// Blocks until the status satisfies `done` (or is final, or `timeout` seconds pass) and
    /// returns it. Not for an app's main thread.
    public func waitForStatus(timeout: Double, until done: (Status) -> Bool) -> Status {
        _ = wait(timeout: timeout) { done($0.status) }
        return status
    }

    private func wait(timeout: Double, until done: (LinkCore) -> Bool) -> Bool {
        state.wait(until: Date(timeIntervalSinceNow: timeout), stoppingWhen: { done($0.core) || $0.core.isFinished }, then: { done($0.core) })
    }

    // MARK: - Driving the core

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Runs one input of the core under the state's lock and performs its actions in order
    /// (still under the lock, so sends keep their order; transports only enqueue).
    private func locked(_ body: (inout LinkState.Fields, Double) -> [LinkCore.Action]) {
        state.withLock { link in
            let actions = body(&link, Self.now())
            perform(actions, on: &link)
            reschedule(&link)
        }
    }

    private func perform(_ actions: [LinkCore.Action], on link: inout LinkState.Fields) {
        for action in actions {
            switch action {
            case .connect:
                link.connection?.close()
                link.generation += 1
                let current = link.generation
                let queue = self.queue
                link.connection = transport.open(configuration.joinURL) { [weak self] event in
                    queue.async { [weak self] in self?.handle(event, generation: current) }
                }
            case .send(let text):
                link.connection?.send(text)
            case .close:
                link.connection?.close()
                link.connection = nil
                link.generation += 1
            case .status(let status):
                if let handler = link.statusHandler { callbacks.async { handler(status) } }
            }
        }
    }

    private func handle(_ event: LiveTransportEvent, generation: Int) {
        locked { link, now in
            guard generation == link.generation else { return [] }
            switch event {
            case .opened:
                return link.core.opened(now: now)
            case .text(let text):
                return link.core.received(text, now: now)
            case .closed(let reason):
                link.connection = nil
                link.generation += 1
                return link.core.closed(reason: reason, now: now)
            }
        }
    }

    /// Keeps one timer at the core's next deadline.
    private func reschedule(_ link: inout LinkState.Fields) {
        guard let deadline = link.core.nextDeadline else { return }
        if let scheduled = link.scheduled, scheduled <= deadline, scheduled > Self.now() { return }
        link.scheduled = deadline
        let delay = max(0, deadline - Self.now())
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.locked { link, now in
                link.scheduled = nil
                return link.core.tick(now: now)
            }
        }
    }
}
