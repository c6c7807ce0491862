internal import Foundation
package import PanCapture
internal import PanLiveWire
package import PanTrace

/// The live link's logic without a socket or a clock: the bounded queue and its drop policy,
/// joining and resuming after `received`, batching within the server's rate and the window of
/// unacknowledged batches, reconnection with backoff, and the status an app shows.
///
/// Every input carries `now` (seconds on any monotonic clock) and returns the ``Action``s to
/// perform in order; ``nextDeadline`` says when ``tick(now:)`` is next due. ``LiveLink`` drives
/// it with a real transport and clock; the tests drive it with virtual time.
package struct LinkCore {
    /// What the driver does next.
    package enum Action: Hashable, Sendable {
        /// Open a new connection (closing any previous one).
        case connect
        /// Send one text message on the open connection.
        case send(String)
        /// Close the connection.
        case close
        /// Tell the app.
        case status(LiveLink.Status)
    }

    private enum Phase: Hashable {
        case idle
        case connecting(since: Double)
        case joining(since: Double)
        case ready
        case waiting(until: Double)
        case finished
    }

    package let configuration: LiveLink.Configuration
    package private(set) var status: LiveLink.Status = .idle
    package private(set) var counters = LiveLink.Counters()

    private var phase = Phase.idle
    /// Samples not yet acknowledged, in `seq` order; the first `sentCount` were sent on the
    /// current connection.
    private var queue: [LiveSample] = []
    private var sentCount = 0
    /// The last `seq` of each batch sent on this connection and not yet acknowledged.
    private var inFlight: [Int] = []
    private var nextSeq = 1
    /// The highest `seq` ever written to a connection: the server cannot have more.
    private var highestSent = 0
    /// The `began` of the gesture the app is in, and its last time.
    private var currentGesture: Int?
    private var lastTime = 0.0
    /// The app's gesture was cut by a disconnect (the server kept it as incomplete): its later
    /// samples are discarded until the next `began`.
    private var cutGesture: Int?
    private var failedAttempts = 0
    private var everJoined = false
    /// A WebSocket opened but closed before `source_ready`.
    private var openedWithoutAnswer = false
    private var maxBatch = 64
    private var rate = 1000.0
    private var burst = 2000.0
    private var tokens = 2000.0
    private var tokensAt = 0.0
    /// The most a server may set the rate (samples/s) and the burst to: a sample a microsecond.
    static let maximumRate = 1_000_000.0
    private var lastProgress = 0.0
    private var random: SplitMix

    package init(configuration: LiveLink.Configuration) {
        self.configuration = configuration
        self.random = SplitMix(seed: configuration.seed)
    }

    /// Samples waiting (sent or not) for the server's acknowledgement.
    package var queuedCount: Int { queue.count }

    /// Whether the link has stopped for good (``LiveLink/Status/isFinal``).
    package var isFinished: Bool { phase == .finished }

    // MARK: - Inputs

    /// Starts connecting.
    package mutating func start(now: Double) -> [Action] {
        guard phase == .idle else { return [] }
        return connect(now: now)
    }

    /// Stops for good: the connection is closed and nothing is sent again.
    package mutating func stop(now: Double) -> [Action] {
        guard phase != .finished else { return [] }
        let wasOpen = phase != .idle
        phase = .finished
        return (wasOpen ? [.close] : []) + setStatus(.stopped)
    }

    /// Takes one callback of the pan recognizer; never blocks and never fails loudly: what
    /// happened to the sample is the ``LiveLink/Enqueued`` returned (and the counters).
    package mutating func record(
        state: TraceRecorder.State, translation: PanVector, velocity: PanVector, location: PanVector?, touches: Int?, timestamp: Double,
        now: Double
    ) -> (LiveLink.Enqueued, [Action]) {
        if phase == .finished { return (.ignored, []) }
        switch state {
        case .possible:
            return (.ignored, [])
        case .began:
            break
        case .changed, .ended, .cancelled, .failed:
            guard let gesture = currentGesture else { return (.ignored, []) }
            if cutGesture == gesture {
                if state != .changed { currentGesture = nil }
                counters.discarded += 1
                return (.discarded, [])
            }
        }
        if let problem = LiveSample.problem(
            time: timestamp, translation: translation, velocity: velocity, location: location, touches: touches)
        {
            counters.rejected += 1
            return (.rejected(problem), [])
        }
        if state != .began, timestamp < lastTime {
            counters.rejected += 1
            return (.rejected("timestamp goes back within the gesture (\(timestamp) after \(lastTime))"), [])
        }
        let seq = nextSeq
        nextSeq += 1
        if state == .began { currentGesture = seq }
        let sample = LiveSample(
            seq: seq, gesture: currentGesture ?? seq, time: timestamp, state: state, translation: translation, velocity: velocity,
            location: location, touches: touches)
        lastTime = timestamp
        if state != .began && state != .changed { currentGesture = nil }
        var result = LiveLink.Enqueued.queued(seq: seq)
        if queue.count >= configuration.queueCapacity {
            if let victim = queue[sentCount...].firstIndex(where: { !$0.isBoundary }) {
                queue.remove(at: victim)
            } else if !sample.isBoundary {
                counters.dropped += 1
                return (.dropped, [])
            } else if sentCount < queue.count {
                queue.remove(at: sentCount)
            } else {
                counters.dropped += 1
                return (.dropped, [])
            }
            counters.dropped += 1
            result = .queuedDroppingAnother(seq: seq)
        }
        queue.append(sample)
        counters.queued = queue.count
        return (result, pump(now: now))
    }

    /// The connection the last ``Action/connect`` asked for is open.
    package mutating func opened(now: Double) -> [Action] {
        guard case .connecting = phase else { return [] }
        phase = .joining(since: now)
        var source = configuration.source
        if source.client.isEmpty { source.client = LiveSource.clientName }
        return [.send(source.message)]
    }

    /// A text message from the server.
    package mutating func received(_ text: String, now: Double) -> [Action] {
        guard let message = try? JSONDecoder().decode(ServerMessage.self, from: Data(text.utf8)) else {
            counters.serverErrors += 1
            return []
        }
        switch (phase, message.type) {
        case (.joining, LiveWire.MessageType.sourceReady.rawValue):
            return join(message, now: now)
        case (.ready, LiveWire.MessageType.ack.rawValue):
            guard let received = message.received else { return [] }
            acknowledge(believed(received, in: "ack"), now: now)
            var actions: [Action] = []
            if case .stalled = status, let source = counters.source {
                actions += setStatus(.connected(source: source, reconnects: counters.reconnects))
            }
            return actions + pump(now: now)
        case (_, LiveWire.MessageType.error.rawValue):
            let code = message.code ?? "error"
            let text = message.message ?? "(no message)"
            counters.lastServerError = "\(code): \(text)"
            if code == "forbidden" || code == "version" {
                phase = .finished
                return [.close] + setStatus(.refused(reason: "\(code): \(text)"))
            }
            if code == "rate_limited" {
                counters.rateLimited += 1
            } else {
                counters.serverErrors += 1
            }
            // Refused while joining (the session still looks connected, the server is full):
            // close, and try again after the backoff.
            if case .joining = phase { return [.close] + closed(reason: "\(code): \(text)", now: now) }
            return []
        default:
            return []
        }
    }

    /// The connection closed or could not be opened; `reason` says why, for the status.
    package mutating func closed(reason: String, now: Double) -> [Action] {
        switch phase {
        case .idle, .finished, .waiting:
            return []
        case .connecting:
            failedAttempts += 1
        case .joining:
            failedAttempts += 1
            openedWithoutAnswer = true
        case .ready:
            failedAttempts = 0
        }
        sentCount = 0
        inFlight.removeAll()
        if let limit = configuration.maxFailedAttempts, failedAttempts >= limit {
            phase = .finished
            let why =
                everJoined
                ? reason
                : openedWithoutAnswer
                    ? "the server closed the connection before answering (a wrong token is refused this way when its error is lost): \(reason)"
                    : "cannot reach the server: \(reason)"
            return setStatus(.gaveUp(reason: why))
        }
        let delay = backoff(attempt: failedAttempts)
        phase = .waiting(until: now + delay)
        return setStatus(.disconnected(reason: reason, retryIn: delay))
    }

    /// Time passed: reconnects when the backoff is over, sends what the rate allows now,
    /// notices a stalled server and a join that never finished.
    package mutating func tick(now: Double) -> [Action] {
        switch phase {
        case .waiting(let until) where now >= until:
            counters.reconnects += 1
            return connect(now: now)
        case .connecting(let since) where now - since >= configuration.joinTimeout,
            .joining(let since) where now - since >= configuration.joinTimeout:
            return [.close] + closed(reason: "no answer within \(Self.seconds(configuration.joinTimeout))", now: now)
        case .ready:
            var actions: [Action] = []
            if !inFlight.isEmpty, now - lastProgress >= configuration.stallAfter, status != .stalled(since: lastProgress) {
                actions += setStatus(.stalled(since: lastProgress))
            }
            return actions + pump(now: now)
        default:
            return []
        }
    }

    /// When ``tick(now:)`` is next due, or `nil` when only an input can change anything.
    package var nextDeadline: Double? {
        switch phase {
        case .waiting(let until):
            return until
        case .connecting(let since), .joining(let since):
            return since + configuration.joinTimeout
        case .ready:
            var deadline: Double?
            if !inFlight.isEmpty, status != .stalled(since: lastProgress) { deadline = lastProgress + configuration.stallAfter }
            if sentCount < queue.count, inFlight.count < configuration.window, tokens < 1 {
                let refill = tokensAt + (1 - tokens) / rate
                deadline = min(deadline ?? refill, refill)
            }
            return deadline
        case .idle, .finished:
            return nil
        }
    }

    // MARK: - Steps

    private mutating func connect(now: Double) -> [Action] {
        phase = .connecting(since: now)
        return [.connect] + setStatus(.connecting(attempt: failedAttempts + 1))
    }

    private mutating func join(_ message: ServerMessage, now: Double) -> [Action] {
        let received = believed(max(0, message.received ?? 0), in: "source_ready")
        if let batch = message.maxBatch, batch > 0 { maxBatch = batch }
        // Finite and at most a sample a microsecond: the token count must fit a batch size.
        if let rate = message.rate, rate > 0, rate.isFinite { self.rate = min(rate, Self.maximumRate) }
        if let burst = message.burst, burst >= 1, burst.isFinite { self.burst = min(burst, Self.maximumRate) }
        tokens = min(tokens, burst)
        tokensAt = now
        // After a restart the server has nothing (`received` below what was acknowledged): the
        // old server kept everything acknowledged, so only later samples are sent.
        let restarted = received < counters.acknowledged
        if restarted { counters.restartsSeen += 1 }
        acknowledge(max(received, counters.acknowledged), now: now)
        // A gesture whose `began` the server already had was closed at the disconnect (kept as
        // incomplete): its later samples cannot continue it, so they are discarded.
        let base = counters.acknowledged
        var cut = 0
        while cut < queue.count, queue[cut].gesture <= base { cut += 1 }
        if cut > 0 {
            queue.removeFirst(cut)
            counters.discarded += cut
        }
        if let gesture = currentGesture, gesture <= base { cutGesture = gesture }
        counters.queued = queue.count
        counters.source = message.source
        failedAttempts = 0
        everJoined = true
        phase = .ready
        lastProgress = now
        return setStatus(.connected(source: message.source ?? 0, reconnects: counters.reconnects)) + pump(now: now)
    }

    /// `received` from the server's `message`, or what was sent when it claims more: samples
    /// never sent cannot have arrived, and believing it would drop them unsent. The claim is
    /// counted as a server error and named.
    private mutating func believed(_ received: Int, in message: String) -> Int {
        guard received > highestSent else { return received }
        counters.serverErrors += 1
        counters.lastServerError = "\(message): received \(received) is beyond the \(highestSent) samples sent; not believed"
        return highestSent
    }

    private mutating func acknowledge(_ received: Int, now: Double) {
        guard received > counters.acknowledged || !queue.isEmpty else { return }
        counters.acknowledged = max(counters.acknowledged, received)
        var count = 0
        while count < queue.count, queue[count].seq <= counters.acknowledged { count += 1 }
        if count > 0 {
            queue.removeFirst(count)
            sentCount = max(0, sentCount - count)
        }
        inFlight.removeAll { $0 <= counters.acknowledged }
        counters.queued = queue.count
        lastProgress = now
    }

    private mutating func pump(now: Double) -> [Action] {
        guard phase == .ready else { return [] }
        tokens = min(burst, tokens + (now - tokensAt) * rate)
        tokensAt = now
        var actions: [Action] = []
        while sentCount < queue.count, inFlight.count < configuration.window, tokens >= 1 {
            let count = min(maxBatch, queue.count - sentCount, Int(tokens))
            var json = JSONText()
            json.open()
            json.field("type", LiveWire.MessageType.samples.rawValue)
            json.field("dropped", counters.dropped)
            json.key("samples")
            json.openArray()
            for sample in queue[sentCount..<sentCount + count] { sample.write(to: &json) }
            json.closeArray()
            json.close()
            if inFlight.isEmpty { lastProgress = now }
            sentCount += count
            inFlight.append(queue[sentCount - 1].seq)
            highestSent = max(highestSent, queue[sentCount - 1].seq)
            tokens -= Double(count)
            counters.sent += count
            actions.append(.send(json.text))
        }
        return actions
    }

    private mutating func backoff(attempt: Int) -> Double {
        let base = configuration.backoffBase * pow(2, Double(max(0, attempt - 1)))
        let capped = min(configuration.backoffMax, base)
        // ±20 % so that many devices do not reconnect in step.
        return capped * (0.8 + 0.4 * random.unit())
    }

    private mutating func setStatus(_ new: LiveLink.Status) -> [Action] {
        guard new != status else { return [] }
        status = new
        return [.status(new)]
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The fields of the server's messages a source reads.
struct ServerMessage: Decodable {
    var type: String
    var source: Int?
    var received: Int?
    var maxBatch: Int?
    var rate: Double?
    var burst: Double?
    var code: String?
    var message: String?

    enum CodingKeys: String, CodingKey {
        case type, source, received, rate, burst, code, message
        case maxBatch = "max_batch"
    }
}

/// A small seeded generator for the backoff's jitter (deterministic in tests).
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
