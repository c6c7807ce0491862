/// Which playing views make frames on a tick: the server's bound on the replay work pages
/// without the token can ask for.
///
/// Each page may play a view of its own (a page is a person), and a view of its own costs a
/// replay step, a JSON encoding and a delivery per frame: about 16 µs of one core at the
/// default 60 frames a second, so 1,000 watch-only pages each playing its own view took
/// 97 % of a core (BENCHMARKS.md, "What a watch-only page costs"). Views a page with the token
/// shows always make every frame. Views shown to watch-only pages only make frames for at most
/// ``watchOnlyViewsPerTick`` of them a tick; past it, a window of that many moves on at each
/// tick, so every such view goes on playing in time (its player advances at every tick) and
/// is shown at 60 × limit / count frames a second instead of 60. A page draws the newest frame
/// it has, as it does when a slow socket conflates its frames.
struct FrameBudget {
    /// Views of watch-only pages that make frames on one tick: 200 at 60 a second is 12,000
    /// frames a second, about a fifth of a core.
    static let watchOnlyViewsPerTick = 200

    private var cursor = 0

    /// Of `count` watch-only views (in a fixed order), whether the one at each position makes
    /// frames this tick: every one when they fit, else the next ``watchOnlyViewsPerTick`` after
    /// the last tick's, wrapping.
    mutating func window(of count: Int) -> (Int) -> Bool {
        let limit = Self.watchOnlyViewsPerTick
        guard count > limit else { return { _ in true } }
        let start = cursor % count
        cursor = (start + limit) % count
        return { position in (position - start + count) % count < limit }
    }
}
