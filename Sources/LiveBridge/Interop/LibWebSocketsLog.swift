internal import CLibWebSockets
internal import Synchronization

/// Where libwebsockets' own log lines go: nowhere, unless the user asked (`serve --verbose`).
///
/// lws logs at process level (`lws_set_log_level` is global), formats every line into one
/// shared buffer (`_lws_logv`, `lib/core/logs.c`, with `LWS_MAX_SMP` 1), and prints errors a
/// client can provoke (a malformed upgrade, oversized headers) or a flood of `accept: errno
/// 24` when descriptors run out. So the level is set once, before any service thread starts,
/// and every line goes through ``emit``: `accept: errno 24` raises
/// ``sawDescriptorExhaustion`` for the service loop to act on; the rest reach the verbose
/// sink, if there is one.
enum LibWebSocketsLog {
    /// Set when lws failed an `accept` for want of descriptors; the listening shard pauses.
    static let sawDescriptorExhaustion = Atomic<Bool>(false)
    /// The lines' destination when verbose (one line each, without the trailing newline).
    static let verboseSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Routes lws's log through ``emit``: errors always (to catch `EMFILE`), warnings and
    /// notices too when `sink` is given.
    static func install(verbose sink: (@Sendable (String) -> Void)?) {
        verboseSink.withLock { $0 = sink }
        let level = LLL_ERR | (sink == nil ? 0 : LLL_WARN | LLL_NOTICE)
        lws_set_log_level(level, emitLine)
    }

    fileprivate static func emit(_ line: String) {
        if line.contains("accept: errno 24") || line.contains("accept: errno 23") {
            sawDescriptorExhaustion.store(true, ordering: .releasing)
            return
        }
        let sink = verboseSink.withLock { $0 }
        sink?("lws: " + line.trimmingTrailingNewlines)
    }
}

/// The `lws_set_log_level` emitter: a C function pointer, so a top-level function.
private func emitLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    LibWebSocketsLog.emit(String(cString: line))
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
