#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The process's limit on open file descriptors, which bounds how many viewers `serve` holds.
///
/// Every viewer costs one descriptor; the rest of the process (standard streams, one event
/// pipe per service thread, the listener, a file being served or read, Foundation) needs a
/// few dozen. `serve` raises the soft limit to the hard limit at start, as nginx's
/// `worker_rlimit_nofile` or systemd's `LimitNOFILE` would, and keeps ``reserve`` of it free:
/// at the high-water mark the listener stops accepting for a second at a time instead of
/// meeting `EMFILE` (see ``WebSocketServer``).
struct DescriptorLimit: Sendable, Equatable {
    /// The soft limit in force (after raising).
    var soft: Int
    /// The hard limit.
    var hard: Int

    /// Descriptors kept free for everything but viewers.
    static func reserve(serviceThreads: Int) -> Int { 32 + 4 * serviceThreads }

    /// The lowest descriptor number at which a just-accepted connection is refused: Linux
    /// hands out the lowest free number, so reaching it means fewer than the reserve are left.
    func highWater(serviceThreads: Int) -> Int { max(1, soft - Self.reserve(serviceThreads: serviceThreads)) }

    /// Viewers the process can hold at once.
    func capacity(serviceThreads: Int) -> Int { max(0, soft - Self.reserve(serviceThreads: serviceThreads)) }

    /// Raises the soft limit to the hard limit (capped at 1,048,576, as a hard limit may be
    /// "unlimited"); returns the limits then in force. A failure leaves the limit as it was.
    static func raised() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return DescriptorLimit(soft: 1024, hard: 1024) }
        let ceiling = rlim_t(1 << 20)
        let wanted = min(limit.rlim_max, ceiling)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return DescriptorLimit(soft: Int(min(limit.rlim_cur, ceiling)), hard: Int(min(limit.rlim_max, ceiling)))
    }
}
