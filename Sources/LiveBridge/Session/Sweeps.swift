/// Tuning sweeps (`tune`): one at a time, server-wide, run off the controller thread.
struct Sweeps {
    /// The page whose sweep is running, if one is.
    private(set) var running: ConnectionID?
    private var pending: (ConnectionID, TuneJob)?

    /// Starts the job `make` builds (it checks the request) for page `page`.
    /// - Throws: `busy` while another sweep runs (before the request is checked), or what
    ///   `make` throws.
    mutating func start(for page: ConnectionID, _ make: () throws -> TuneJob) throws {
        guard running == nil else {
            throw BridgeFailure(.busy, "a tuning sweep is already running; ask again when it has finished", retryAfter: 1)
        }
        pending = (page, try make())
        running = page
    }

    /// The sweep to run, once.
    mutating func takePending() -> (ConnectionID, TuneJob)? {
        defer { pending = nil }
        return pending
    }

    /// The running sweep finished.
    mutating func finished() { running = nil }
}
