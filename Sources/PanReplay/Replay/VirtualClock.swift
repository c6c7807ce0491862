internal import Synchronization

/// A clock whose time moves only when someone sleeps on it or calls ``advance(by:)``: the
/// deterministic driver for paced replays in tests (as NIO's `EmbeddedEventLoop.advanceTime`).
///
/// `sleep(until:)` returns at once, having moved `now` to the deadline, so a paced replay on a
/// virtual clock takes no wall time and reports zero lateness.
package final class VirtualClock: Clock, Sendable {
    /// An instant on a virtual clock: the time since the clock was made.
    package struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// Time since the clock's origin.
        package var offset: Duration

        /// Creates an instant `offset` after the origin.
        package init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants by time.
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    /// Creates a clock at its origin.
    package init() {}

    /// The current virtual time.
    package var now: Instant { current.withLock { $0 } }

    /// The smallest step: one nanosecond.
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward by `duration`.
    package func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    /// Moves time to `deadline` (if it is later) and returns without waiting.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, deadline) }
    }
}
