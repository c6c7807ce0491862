/// A token bucket: `rate` tokens a second, at most `burst` saved up, full at first. Every rate
/// limit of the bridge is one: a page's pointer events, a source's samples, and the replay work
/// that pages without control may ask for, all together.
///
/// A request that costs more than is saved waits; one that costs more than the whole burst
/// runs when the bucket is full and leaves it in debt, so the rate holds on average whatever
/// the requests cost. Time is an input (tests pass virtual time).
struct TokenBucket {
    let rate: Double
    let burst: Double
    private(set) var tokens: Double
    private var last: Double?

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes `cost` at `now`; returns nil when taken, else the seconds until it could be.
    mutating func take(_ cost: Double = 1, now: Double) -> Double? {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
        let needed = min(cost, burst)
        guard tokens >= needed else { return (needed - tokens) / rate }
        tokens -= cost
        return nil
    }
}

/// Says a repeated error at most once per ``interval`` for each kind: pointer events and
/// samples come by the hundred, and a reply to each would flood the sender's queue.
struct Throttle {
    static let interval = 1.0
    private var lastSaid: [String: Double] = [:]

    /// Whether the error of `kind` may be said at `now` (and, when it may, that it was).
    mutating func allows(_ kind: String, now: Double) -> Bool {
        guard now - lastSaid[kind, default: -.infinity] >= Self.interval else { return false }
        lastSaid[kind] = now
        return true
    }
}
