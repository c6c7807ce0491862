#if canImport(Glibc)
internal import Glibc
#endif

/// SIGINT and SIGTERM, received synchronously by one thread.
///
/// ``block()`` must run before any other thread starts, so every thread inherits a mask with
/// both signals blocked and the kernel keeps them pending until ``wait()`` takes one. (A
/// `DispatchSource` signal source installs its handler asynchronously after `resume()`; a
/// signal arriving in that window is lost, which is how a prompt SIGTERM once hung shutdown.)
package enum TerminationSignals {
    private static func set() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks SIGINT and SIGTERM in the calling thread and every thread it starts afterwards.
    package static func block() {
        var signals = set()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives; returns its number.
    package static func wait() -> Int32 {
        var signals = set()
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }
}
