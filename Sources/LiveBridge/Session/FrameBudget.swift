/// Which playing views make frames on a tick: the server's bound on the replay work pages
/// without the token can ask for.
///
/// Each page may play a view of its own (a page is a person; a watch-only page gets one by
/// going to the background and back), and a view of its own costs a replay step, a JSON
/// encoding and a delivery per frame: about 10 µs each, so 1,000 watch-only pages each playing
/// its own view took 37 % of a core here (BENCHMARKS.md, "What a watch-only page costs").
/// Views a page with the token sees always make every frame. Views only watch-only pages see
/// make frames for at most ``watchOnlyViewsPerTick`` of them a tick; past it, a window of that
/// many moves on at each tick, so every such view goes on playing in time (its player advances
/// at every tick) and is shown on limit / count of the ticks. A page draws the newest frame it
/// has, as it does when a slow socket conflates its frames.
struct FrameBudget {
    /// Views of watch-only pages that make frames on one tick: 200 at 60 ticks a second.
    static let watchOnlyViewsPerTick = 200

    private var cursor = 0

    /// Of `ticking` (in a fixed order), the views that make frames on this tick: every one a
    /// page with the token sees (`isControlled`), and of the rest all when they fit, else the
    /// next ``watchOnlyViewsPerTick`` after the last tick's, wrapping.
    mutating func framing<ID: Hashable>(_ ticking: [ID], isControlled: (ID) -> Bool) -> Set<ID> {
        var framing: Set<ID> = []
        var watchOnly: [ID] = []
        for id in ticking {
            if isControlled(id) { framing.insert(id) } else { watchOnly.append(id) }
        }
        let limit = Self.watchOnlyViewsPerTick
        guard watchOnly.count > limit else { return framing.union(watchOnly) }
        let start = cursor % watchOnly.count
        cursor = (start + limit) % watchOnly.count
        for offset in 0..<limit { framing.insert(watchOnly[(start + offset) % watchOnly.count]) }
        return framing
    }
}
