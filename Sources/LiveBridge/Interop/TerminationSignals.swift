#if canImport(Glibc)
    internal import Glibc
#endif
internal import Synchronization

/// SIGINT and SIGTERM, turned into bytes on a pipe that one thread reads (the self-pipe trick).
///
/// ``install()`` sets a handler for both signals with `sigaction` before `serve` prints its
/// address, so a signal that comes at any moment after is received, whichever thread the
/// kernel delivers it to: the handler only writes the signal's number to the pipe (`write(2)`
/// is async-signal-safe), and ``wait()`` reads it. Blocking the signals and `sigwait`ing
/// instead needs every thread of the process to inherit the mask, which the Swift concurrency
/// runtime's own threads and main thread do not promise; a `DispatchSource` installs its
/// handler asynchronously and can miss a prompt signal.
package enum TerminationSignals {
    /// The pipe's write end, read by the handler (a lock-free load is async-signal-safe).
    private static let writeEnd = Atomic<Int32>(-1)
    private static let readEnd = Atomic<Int32>(-1)

    /// Installs the handler for SIGINT and SIGTERM (once; later calls do nothing).
    package static func install() {
        guard readEnd.load(ordering: .acquiring) < 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd.store(ends[0], ordering: .releasing)
        writeEnd.store(ends[1], ordering: .releasing)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(TerminationSignals.writeEnd.load(ordering: .relaxed), &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives (after ``install()``); returns its number.
    package static func wait() -> Int32 {
        var byte: UInt8 = 0
        while true {
            let n = read(readEnd.load(ordering: .acquiring), &byte, 1)
            if n == 1 { return Int32(byte) }
            if n < 0, errno == EINTR { continue }
            return SIGTERM  // the pipe failed: treat it as a request to stop
        }
    }
}
