internal import Dispatch
internal import Synchronization

/// The bridge's log: every line made safe for the terminal (``LogText``; values from outside
/// are escaped where they are put in a line) and cut to ``lineLimit``, and floods of like lines summarised once a second (``RepeatedLines``),
/// before they reach the sink (`pantrace serve` writes them to standard error).
///
/// Lines may come from any thread; the sink is called under the lock, one line at a time, in
/// order. Summaries fall due on a timer, so a flood that stops is still summarised.
final class BridgeLog: Sendable {
    /// The longest line written, in characters of escaped text.
    static let lineLimit = 400

    private let sink: @Sendable (String) -> Void
    private let state = Mutex<(lines: RepeatedLines, flushScheduled: Bool)>((RepeatedLines(), false))
    private let clock = ContinuousClock()
    private let epoch: ContinuousClock.Instant

    /// A log writing to `sink`.
    init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
        epoch = clock.now
    }

    private var now: Double {
        let d = clock.now - epoch
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Logs `line`; lines of one `kind` count as alike (by default, the same text).
    func callAsFunction(_ line: String, kind: String? = nil) {
        let text = LogText.terminalSafe(line, limit: Self.lineLimit)
        let due: Double? = state.withLock { state in
            for out in state.lines.admit(text, kind: kind ?? text, now: now) { sink(out) }
            guard !state.flushScheduled, let due = state.lines.nextDue else { return nil }
            state.flushScheduled = true
            return due
        }
        if let due { scheduleFlush(at: due) }
    }

    /// Writes every pending summary now (at shutdown).
    func flushAll() {
        state.withLock { state in
            for out in state.lines.flushAll(now: now) { sink(out) }
        }
    }

    private func scheduleFlush(at due: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, due - now)) { [self] in
            let next: Double? = state.withLock { state in
                for out in state.lines.flush(now: now) { sink(out) }
                state.flushScheduled = state.lines.nextDue != nil
                return state.lines.nextDue
            }
            if let next { scheduleFlush(at: next) }
        }
    }
}
