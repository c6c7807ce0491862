/// Hands frames to the service threads at most once per ``interval``: frames that come faster
/// wait and go together, so each viewer gets them in one write.
///
/// A `send()` on loopback costs several microseconds whatever its size, so the cost of a
/// broadcast is about one `send()` per viewer per hand-over. At the frame rates `serve` allows
/// (at most 240 a second, one every 4.2 ms or more) every frame goes at once and nothing
/// changes; frames closer together than ``interval`` (the benchmark's `--bench-frame-rate`, a
/// catch-up after a stall) share a hand-over, a wake-up of each service thread and one write
/// per viewer, at the price of at most ``interval`` of latency. Anything that is not a frame
/// (a broadcast, a message to one viewer) goes at once, with the held frames before it, so the
/// order viewers see is the order the controller produced.
///
/// Pure (time is passed in), so tests drive it with virtual time.
struct FramePacer {
    /// The shortest time between two hand-overs of frames.
    static let interval = 0.003

    private var held: [Delivery] = []
    /// When frames were last handed over.
    private var lastRelease = -Double.infinity

    /// When ``release(_:now:)`` should be called again to hand over held frames; nil when none wait.
    var deadline: Double? { held.isEmpty ? nil : lastRelease + Self.interval }

    /// Frames waiting.
    var heldCount: Int { held.count }

    /// Takes what the controller produced at `now`; returns what to hand over now, in order.
    /// `urgent` (a live gesture's frame: the finger is moving now) hands everything over at once.
    mutating func release(_ deliveries: [Delivery], now: Double, urgent: Bool = false) -> [Delivery] {
        let onlyFrames = !urgent && deliveries.allSatisfy(\.isFrame)
        held += deliveries
        guard !held.isEmpty, !onlyFrames || now >= lastRelease + Self.interval else { return [] }
        if held.contains(where: \.isFrame) { lastRelease = now }
        defer { held.removeAll(keepingCapacity: true) }
        return held
    }
}
