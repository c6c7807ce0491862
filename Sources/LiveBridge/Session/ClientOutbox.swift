/// What one client has still to be sent: the newest frame and the control messages.
///
/// Frames are conflated: up to ``frameLimit`` wait (so a client that keeps up sees every
/// frame even when several arrive in one wake-up); past that the oldest is dropped, so a slow
/// client skips to the newest frames and costs a bounded amount of memory. Control messages
/// (the snapshot, library changes, errors, replies) are never dropped; there is a bound on
/// how many may wait, and a client past it is closed. A client that has had something
/// pending without any write for longer than the backlog limit is closed too.
struct ClientOutbox {
    /// Control messages that may wait before the client is closed as stuck.
    static let controlLimit = 256
    /// Frames that may wait; older ones are dropped (latest wins). About one write's worth
    /// (``CoalescedWrite``, 16 KiB, at the mean frame of ~680 B): a client that lags gets its
    /// backlog in one `send()`, so under load the bridge makes fewer system calls per message
    /// delivered (with 8, batches of at most 8 made the throughput peak cost 2–3 times the
    /// CPU per message of a C server on the same libwebsockets, Benchmarks/bridge). At 120
    /// frames/s that is 0.2 s of frames.
    static let frameLimit = 24

    /// The waiting frames, oldest at `frameHead`: a ring of ``frameLimit`` slots, allocated at
    /// the first frame and reused, so queueing, dropping and taking a frame move no other.
    private var frames: ContiguousArray<OutboundMessage?> = []
    private var frameHead = 0
    private(set) var pendingFrames = 0
    private var control: [OutboundMessage] = []
    private var controlHead = 0
    /// Frames replaced before they were sent.
    private(set) var droppedFrames = 0
    /// When the outbox last went from empty to pending, or last made progress while pending.
    private(set) var pendingSince: Double?

    var isEmpty: Bool { pendingFrames == 0 && controlHead == control.count }
    var pendingControl: Int { control.count - controlHead }

    /// Queues a frame, dropping the oldest unsent one when ``frameLimit`` are waiting.
    mutating func enqueueFrame(_ message: OutboundMessage, now: Double) {
        if isEmpty { pendingSince = now }
        if frames.isEmpty { frames = ContiguousArray(repeating: nil, count: Self.frameLimit) }
        if pendingFrames == Self.frameLimit {
            frames[frameHead] = message
            frameHead = (frameHead + 1) % Self.frameLimit
            droppedFrames += 1
        } else {
            frames[(frameHead + pendingFrames) % Self.frameLimit] = message
            pendingFrames += 1
        }
    }

    /// Queues a control message; `false` when the client already has too many waiting. A
    /// message that supersedes a kind (``OutboundMessage/supersedes``) removes the one of that
    /// kind still waiting and goes last, after everything said before it (an `ack` never
    /// overtakes an error sent before it), so a burst of such changes costs a slow client one
    /// message.
    mutating func enqueueControl(_ message: OutboundMessage, now: Double) -> Bool {
        if let kind = message.supersedes, let waiting = control[controlHead...].lastIndex(where: { $0.supersedes == kind }) {
            control.remove(at: waiting)
            control.append(message)
            return true
        }
        guard pendingControl < Self.controlLimit else { return false }
        if isEmpty { pendingSince = now }
        if controlHead > 64, controlHead * 2 > control.count {
            control.removeFirst(controlHead)
            controlHead = 0
        }
        control.append(message)
        return true
    }

    /// The message ``next(now:)`` would return, left in place.
    var upcoming: OutboundMessage? {
        controlHead < control.count ? control[controlHead] : pendingFrames > 0 ? frames[frameHead] : nil
    }

    /// The next message to write: control first (in order), then frames (in order).
    mutating func next(now: Double) -> OutboundMessage? {
        let message: OutboundMessage?
        if controlHead < control.count {
            message = control[controlHead]
            controlHead += 1
            if controlHead == control.count {
                control.removeAll(keepingCapacity: true)
                controlHead = 0
            }
        } else if pendingFrames > 0 {
            message = frames[frameHead]
            frames[frameHead] = nil
            frameHead = (frameHead + 1) % Self.frameLimit
            pendingFrames -= 1
        } else {
            message = nil
        }
        pendingSince = isEmpty ? nil : now
        return message
    }

    /// Whether something has waited longer than `limit` seconds without any write.
    func isBacklogged(now: Double, limit: Double) -> Bool {
        guard let pendingSince else { return false }
        return now - pendingSince > limit
    }
}
