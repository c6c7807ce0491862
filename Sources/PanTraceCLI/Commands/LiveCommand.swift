internal import ArgumentParser
internal import Foundation
internal import PanCapture
internal import PanTrace
internal import PanTraceLive

/// `pantrace live`: a pointer log in, as it is read, a live source of a running `pantrace serve` out.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Stream a pointer log (getevent, evemu, csv, jsonl) into a running pantrace serve as a live source.",
        discussion: """
            Each line is read as it arrives (adb exec-out getevent -lt /dev/input/eventN | pantrace \
            live --from - …), run through the same pan recognizer and velocity estimator as \
            pantrace record, and the samples are sent to the server, which records each gesture \
            under live/ while watching pages see it. With --realtime a file is paced at its own \
            timestamps (--time-scale 4: four times as fast). Exit status: 0 when every sample was \
            acknowledged, 3 when some were dropped or discarded on the way, 1 when the server \
            cannot be reached, refuses the token, or a line of the log is bad (named). docs/LIVE.md.
            """)

    /// Some samples did not reach the server (dropped or discarded), the rest did.
    static let partialExitCode: Int32 = 3

    @Option(name: .customLong("from"), help: "The pointer log to read (- for standard input).")
    var log: String = "-"

    @Option(help: "Log format: csv, jsonl, getevent or evemu (default: from the extension .csv, .jsonl or .events).")
    var format: PointerLogFormat?

    @Option(
        name: .customLong("to"),
        help: "The server's WebSocket, ws://HOST:PORT/live, or the page address pantrace serve prints (its token= is the token).")
    var address: String

    @Option(help: "The server's control token (the token= of the page address pantrace serve prints; not needed when --to has it).")
    var token: String?

    @Option(help: "What pages call the device (1–64 characters).")
    var name: String = "pantrace live"

    @Option(help: "The recordings' source: ios, android, linux or other (default: android for getevent, linux for evemu, else other).")
    var platform: String?

    @OptionGroup var recognizing: RecognizerOptions

    @Flag(help: "Pace the log at its own timestamps (for a file; a pipe from a device is paced by the device).")
    var realtime = false

    @Option(name: .customLong("time-scale"), help: "With --realtime: play this many times as fast (0.01…1000).")
    var timeScale: Double = 1

    @Option(name: .customLong("queue"), help: "Samples the link queues at most while the server is away (16…1000000).")
    var queueCapacity: Int = 4096

    @Option(help: "Connection attempts in a row that may fail before giving up (1…1000).")
    var retries: Int = 5

    @Option(name: .customLong("drain-timeout"), help: "Seconds to wait at the end for the server to acknowledge every sample.")
    var drainTimeout: Double = 10

    func validate() throws {
        guard (1...4).contains(recognizing.scale) else { throw ValidationError("--scale must be 1…4 for a live source (it is \(recognizing.scale))") }
        guard (0.01...1000).contains(timeScale) else { throw ValidationError("--time-scale must be 0.01…1000") }
        guard (16...1_000_000).contains(queueCapacity) else { throw ValidationError("--queue must be 16…1000000") }
        guard (1...1000).contains(retries) else { throw ValidationError("--retries must be 1…1000") }
        guard drainTimeout >= 0, drainTimeout.isFinite else { throw ValidationError("--drain-timeout must be a non-negative number") }
        guard format != nil || PointerLogFormat(path: log) != nil else {
            throw ValidationError("--format is needed: \(log == "-" ? "standard input" : log) has no .csv, .jsonl or .events extension")
        }
        _ = try LiveEndpoint(to: address, token: token)
        if let platform, LiveSource.Platform(rawValue: platform) == nil {
            throw ValidationError("--platform must be ios, android, linux or other (it is \(platform))")
        }
    }

    func run() throws {
        let screen = recognizing.scaledScreen
        let format = self.format ?? PointerLogFormat(path: log)!
        let importer = PointerLogImporter(
            configuration: .init(
                format: format, getevent: try recognizing.getevent(on: screen)))
        let platform = self.platform.flatMap(LiveSource.Platform.init(rawValue:)) ?? Self.platform(of: format)
        let source = LiveSource(name: name, platform: platform, screen: screen, edge: recognizing.edge, velocity: recognizing.velocity.source)
        if let problem = source.problem { throw ValidationError(problem) }
        let endpoint = try LiveEndpoint(to: address, token: token)
        // Messages name the WebSocket, never the token.
        let url = endpoint.url.absoluteString
        let link = LiveLink(
            configuration: .init(
                url: endpoint.url, token: endpoint.token, source: source, queueCapacity: queueCapacity, maxFailedAttempts: retries))
        link.onStatus = { status in
            // The first attempt and the stop at the end are the command's own doing, and a
            // refusal or giving up is the command's error line (`fail(on:)`), said once.
            if case .connecting(let attempt) = status, attempt == 1 { return }
            if status.isFinal { return }
            StandardError.line("live: \(status)")
        }
        link.start()
        // Join first, so an unreachable server or a refused token is said before the log is read.
        let joined = link.waitForStatus(timeout: 120) {
            if case .connected = $0 { return true }
            return $0.isFinal
        }
        if joined.isFinal { link.stop() }
        try Self.fail(on: joined, url: url)

        var feed = LiveFeed(
            link: link,
            recognizer: PanRecognizer(configuration: recognizing.recognizer(on: screen)))
        let waitsForRoom = !realtime && log != "-"
        var pacing = RealtimePacing(timeScale: timeScale)
        var start: ContinuousClock.Instant?
        let clock = ContinuousClock()
        var failure: (any Error)?
        var summary: PointerLogImporter.Summary?
        do {
            summary = try importer.forEachScreenEvent(inLogAt: log) { event throws(CaptureError) in
                if realtime {
                    let offset = pacing.due(atNanoseconds: event.nanoseconds)
                    if let start {
                        let wait = clock.now.duration(to: start + .seconds(offset))
                        if wait > .zero {
                            let (seconds, attoseconds) = wait.components
                            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                        }
                    } else {
                        start = clock.now
                    }
                }
                if waitsForRoom { _ = link.waitUntilQueued(below: queueCapacity / 2, timeout: .infinity) }
                try feed.handle(event)
                return !link.status.isFinal
            }
        } catch {
            failure = error
        }
        if feed.inGesture {
            StandardError.line("warning: the log ended mid-gesture: the server keeps that gesture as incomplete when the link closes")
        }
        for warning in summary?.warnings ?? [] { StandardError.line("warning: \(warning)") }
        if let warning = pacing.warning { StandardError.line("warning: \(warning)") }
        let drained = link.waitUntilDrained(timeout: drainTimeout)
        let status = link.status
        link.stop()
        let counters = link.counters
        StandardOutput.text(feed.report(counters, url: url))
        if let failure { throw failure }
        try Self.fail(on: status, url: url)
        if !drained {
            throw CLIFailure(
                "\(counters.queued) sample\(counters.queued == 1 ? " was" : "s were") not acknowledged by \(url) within \(drainTimeout) s")
        }
        if counters.dropped + counters.discarded + counters.rejected > 0 { throw ExitCode(Self.partialExitCode) }
    }

    static func platform(of format: PointerLogFormat) -> LiveSource.Platform {
        switch format {
        case .getevent: .android
        case .evemu: .linux
        case .csv, .jsonl: .other
        }
    }

    /// A final status other than a stop is the command's failure.
    static func fail(on status: LiveLink.Status, url: String) throws {
        switch status {
        case .refused(let reason): throw CLIFailure("\(url) refused the link: \(reason)")
        case .gaveUp(let reason): throw CLIFailure("\(url): \(reason)")
        case .connected, .stalled, .disconnected, .connecting, .stopped, .idle: return
        }
    }
}

/// The recognizer's samples into the link, as `TraceRecorder` would take them in an app.
struct LiveFeed {
    let link: LiveLink
    var recognizer: PanRecognizer
    private(set) var gestures = 0
    private(set) var samples = 0
    private(set) var failures = 0
    private(set) var inGesture = false

    init(link: LiveLink, recognizer: PanRecognizer) {
        self.link = link
        self.recognizer = recognizer
    }

    /// Recognizes one event and sends its sample. Each gesture's clock starts at its `began`,
    /// the recognizer's own sample time, so the server's file has `record`'s times exactly.
    mutating func handle(_ event: PointerEvent) throws(CaptureError) {
        let state: TraceRecorder.State
        let sample: PanSample
        switch recognizer.handle(event) {
        case .none, .ignored:
            return
        case .rejected(let rejection):
            throw CaptureError(rejected: rejection)
        case .failed:
            failures += 1
            return
        case .began(let began):
            (state, sample) = (.began, began)
            gestures += 1
            inGesture = true
        case .changed(let changed):
            (state, sample) = (.changed, changed)
        case .ended(let ended, _):
            (state, sample) = (.ended, ended)
            inGesture = false
        case .cancelled(let cancelled, _):
            (state, sample) = (.cancelled, cancelled)
            inGesture = false
        }
        samples += 1
        link.record(
            state: state, translation: sample.translation, velocity: sample.velocity, location: sample.location, touches: sample.touches,
            timestamp: sample.time)
    }

    /// One line: what was sent and what happened on the way.
    func report(_ counters: LiveLink.Counters, url: String) -> String {
        var line = "live: \(gestures) gesture\(gestures == 1 ? "" : "s"), \(samples) sample\(samples == 1 ? "" : "s") to \(url)"
        if let source = counters.source { line += " (source \(source))" }
        line += "; acknowledged through sample \(counters.acknowledged); \(counters.dropped) dropped, \(counters.discarded) discarded"
        if counters.rejected > 0 { line += ", \(counters.rejected) rejected" }
        line += ", \(counters.reconnects) reconnect\(counters.reconnects == 1 ? "" : "s")"
        if counters.rateLimited > 0 { line += ", rate-limited \(counters.rateLimited)×" }
        if failures > 0 { line += "; \(failures) touch\(failures == 1 ? "" : "es") did not become a pan" }
        if let error = counters.lastServerError { line += "; last server error: \(error)" }
        return line
    }
}
