internal import Foundation

/// What a ``LiveLink`` changes while it runs, and the lock that guards it: the one place of the
/// link whose safety across threads the compiler cannot check.
///
/// `@unchecked Sendable`: `fields` is read and written only inside ``withLock(_:)`` and
/// ``wait(until:stoppingWhen:then:)``, both holding `condition`; every change is broadcast to
/// the threads waiting on it.
final class LinkState: @unchecked Sendable {
    /// The link's mutable state.
    struct Fields {
        /// The state machine: samples and time in, actions out.
        var core: LinkCore
        /// The transport connection of the current attempt.
        var connection: (any LiveTransportConnection)?
        /// Counts attempts: events of an older connection are ignored.
        var generation = 0
        /// Who is told each new status.
        var statusHandler: (@Sendable (LiveLink.Status) -> Void)?
        /// When the one pending timer fires, if one is pending.
        var scheduled: Double?
    }

    private let condition = NSCondition()
    private var fields: Fields

    init(core: LinkCore) {
        fields = Fields(core: core)
    }

    /// Runs `body` on the fields under the lock, then wakes every waiting thread.
    func withLock<Result>(_ body: (inout Fields) -> Result) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body(&fields)
    }

    /// Waits under the lock until `stop` holds or `deadline` passes, then returns `result` of
    /// the fields as they are.
    func wait<Result>(until deadline: Date, stoppingWhen stop: (Fields) -> Bool, then result: (Fields) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while !stop(fields) {
            if !condition.wait(until: deadline) { break }
        }
        return result(fields)
    }
}
