/// Keeps a flood of like lines out of the log: of each kind, the first line is written at
/// once, and the ones that follow within ``interval`` are counted and summarised in one line
/// when it is over, so a kind writes at most one line per interval however often it happens.
///
/// A value type on a clock given as an input (seconds on any monotonic scale): tests drive
/// it with virtual time; ``BridgeLog`` gives it the bridge's clock and calls ``flush(now:)``
/// when ``nextDue`` comes.
struct RepeatedLines: Sendable {
    /// The shortest time between two lines of one kind.
    var interval: Double
    /// The most kinds followed at once; past it, new kinds share one (``overflowKind``).
    var maximumKinds: Int

    private struct Window: Sendable {
        var start: Double
        var suppressed = 0
        var last = ""
    }

    private var windows: [String: Window] = [:]
    /// The kind lines share once ``maximumKinds`` are followed.
    static let overflowKind = "\u{0}other"

    /// Creates an empty summariser.
    init(interval: Double = 1, maximumKinds: Int = 64) {
        precondition(interval > 0 && maximumKinds > 0, "interval and maximumKinds must be positive")
        self.interval = interval
        self.maximumKinds = maximumKinds
    }

    /// The lines to write now for `line`, of `kind` (lines of one kind are "alike"), at `now`:
    /// the line itself, a summary of the kind's last interval, or nothing (counted for later).
    mutating func admit(_ line: String, kind: String, now: Double) -> [String] {
        var out = flush(now: now)
        let key = windows[kind] != nil || windows.count < maximumKinds ? kind : Self.overflowKind
        guard var window = windows[key] else {
            windows[key] = Window(start: now)
            out.append(line)
            return out
        }
        if now >= window.start + interval, window.suppressed == 0 {
            windows[key] = Window(start: now)
            out.append(line)
        } else {
            window.suppressed += 1
            window.last = line
            windows[key] = window
        }
        return out
    }

    /// The summaries due at `now`: one line for each kind whose interval is over with lines
    /// counted in it. Kinds with nothing counted and an interval over are forgotten.
    mutating func flush(now: Double) -> [String] {
        var out: [String] = []
        for (kind, window) in windows.sorted(by: { $0.value.start < $1.value.start }) where now >= window.start + interval {
            if window.suppressed > 0 {
                out.append(Self.summary(window, until: now))
                windows[kind] = Window(start: now)
            } else {
                windows[kind] = nil
            }
        }
        return out
    }

    /// Every summary still pending, whatever the time (at shutdown).
    mutating func flushAll(now: Double) -> [String] {
        let out = windows.values.filter { $0.suppressed > 0 }.sorted { $0.start < $1.start }.map { Self.summary($0, until: now) }
        windows.removeAll()
        return out
    }

    /// When the next summary falls due, or nil when none is pending.
    var nextDue: Double? {
        windows.values.filter { $0.suppressed > 0 }.map { $0.start + interval }.min()
    }

    private static func summary(_ window: Window, until now: Double) -> String {
        let seconds = Double(Int(((now - window.start) * 10).rounded())) / 10
        let lines = window.suppressed == 1 ? "1 more line" : "\(window.suppressed) more lines"
        return "\(lines) like this in the last \(seconds) s, the last: \(window.last)"
    }
}
