/// A token bucket of work (replay frames): `rate` a second, at most `burst` saved up.
///
/// A request that costs more than is saved waits; one that costs more than the whole burst
/// runs when the bucket is full and leaves it in debt, so the rate holds on average whatever
/// the requests cost. Time is an input (tests pass virtual time).
struct WorkBudget {
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
    mutating func take(_ cost: Double, now: Double) -> Double? {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
        let needed = min(cost, burst)
        guard tokens >= needed else { return (needed - tokens) / rate }
        tokens -= cost
        return nil
    }
}
