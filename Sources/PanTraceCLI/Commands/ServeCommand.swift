internal import ArgumentParser
internal import Foundation
internal import LiveBridge
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// `pantrace serve`: the live viewer.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the live viewer: web/ over HTTP, replays and recording over WebSocket at /live.",
        discussion: """
            Listens on 127.0.0.1 only unless --host 0.0.0.0 is given (to record from a phone on \
            the same network: open the printed URL with this machine's address instead of \
            127.0.0.1, and pass that origin with --allow-origin http://ADDRESS:PORT). The URL \
            carries a token; without it a viewer can watch but not control or record. The token \
            is kept for the next serve of the same recordings folder, in a file only you can \
            read ($XDG_STATE_HOME/pantrace, else ~/.local/state/pantrace), so open tabs stay in \
            control across a restart; --new-token replaces it. A corpus file (.pantraces) in the \
            recordings folder is listed one entry per gesture, PATH.pantraces#NAME, up to \
            --max-corpus-gestures of each (said on the page and here when reached); --max-files \
            counts a corpus as one file. Gestures inside a corpus replay like files but are not \
            edited (keep and drop refuse them).
            """)

    @Option(help: "Address to listen on (127.0.0.1, or 0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Recordings folder: the library, and where live recordings are saved.")
    var recordings = "recordings"

    @Option(help: "Folder of the web viewer.")
    var web = "web"

    @Option(name: .customLong("allow-origin"), help: "Another origin allowed to connect, e.g. http://192.168.1.5:8080 (repeatable).")
    var allowedOrigins: [String] = []

    @Option(
        help:
            "Recording a new page opens on (its path under the recordings folder, or PATH.pantraces#NAME for a corpus's gesture); by default a labelled edge swipe."
    )
    var open: String?

    @Option(help: "Preset of the first view (default: best for an edge swipe, swipe-dismiss for a swipe down).")
    var preset: String?

    @Option(help: "A setting file (tune --save-setting): the first view's preset and parameters. Instead of --preset.")
    var setting: String?

    @Option(help: "Frames per second streamed to viewers.")
    var fps: Double = 60

    @Option(help: "Control token to use for this run instead of the remembered one (not stored; 16 or more URL-safe characters).")
    var token: String?

    @Flag(name: .customLong("new-token"), help: "Make a new control token and remember it (tabs holding the old one only watch).")
    var newToken = false

    @OptionGroup var folders: FolderLimitOptions

    @Option(
        name: .customLong("max-corpus-gestures"),
        help:
            "The most gestures the library lists of one corpus file (.pantraces); past it the rest are not listed, and the page and this output say so."
    )
    var maxCorpusGestures = 1_000

    @Flag(help: "Also log libwebsockets' own warnings and notices (to standard error).")
    var verbose = false

    /// Benchmark only (Benchmarks/bridge/load.py): frames this many times a second, cycling
    /// through the replay without pauses, above the 240 cap of --fps.
    @Option(name: .customLong("bench-frame-rate"), help: .hidden)
    var benchFrameRate: Double?

    /// Test only (scripts/autobahn.sh, `make autobahn`): every WebSocket message is echoed
    /// back to its sender, for the Autobahn|Testsuite fuzzing client.
    @Flag(name: .customLong("echo"), help: .hidden)
    var echo = false

    func validate() throws {
        if preset != nil && setting != nil {
            throw ValidationError("--preset and --setting: a setting file names its own preset; give one of them")
        }
        if let open {
            // A corpus's gesture: the corpus file must exist; whether it holds the gesture is
            // found when the library is read (an error line naming it, as for a damaged file).
            let file =
                open.range(of: GestureCorpus.fileExtension + "#", options: [.caseInsensitive]).map {
                    String(open[..<$0.lowerBound]) + GestureCorpus.fileExtension
                } ?? open
            if !FileManager.default.fileExists(atPath: recordings + "/" + file) {
                throw ValidationError("--open \(open): no such recording under \(recordings)/")
            }
        }
        guard maxCorpusGestures >= 1 else { throw ValidationError("--max-corpus-gestures must be at least 1, got \(maxCorpusGestures)") }
        if let token {
            let allowed = token.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
            }
            guard token.utf8.count >= 16, token.utf8.count <= 256, allowed else {
                throw ValidationError("--token must be 16 to 256 letters, digits, '-' or '_'")
            }
            guard !newToken else { throw ValidationError("--token and --new-token cannot be used together") }
        }
    }

    func run() throws {
        // Before the address is printed, so a signal sent the moment after it is not lost.
        TerminationSignals.install()
        let remembered: RememberedToken? =
            token == nil && FileManager.default.fileExists(atPath: recordings)
            ? RememberedToken.resolve(
                recordingsFolder: recordings, renew: newToken,
                stateFolder: RememberedToken.stateFolder { ProcessInfo.processInfo.environment[$0] })
            : nil
        // A library over --max-files is an error before the server starts (a folder that
        // grows past it while serving is logged, and lists none until it shrinks).
        if TraceFolder.list(recordings, formats: [.pantrace], corpora: true, limit: folders.maxFiles).limitReached {
            throw FolderLimitOptions.failure(folder: recordings, limit: folders.maxFiles)
        }
        var configuration = LiveBridge.Configuration(
            host: host, port: port, recordingsFolder: recordings, webFolder: web, allowedOrigins: allowedOrigins,
            token: token ?? remembered?.token, frameRate: fps, benchmarkFrameRate: benchFrameRate)
        configuration.isEchoing = echo
        configuration.firstRecording = open
        configuration.firstPreset = preset
        if let setting {
            let parameters = try SettingFile.read(setting)
            configuration.firstPreset = parameters.preset.name.rawValue
            configuration.firstParameters = parameters.values
        }
        configuration.log = { StandardError.line("pantrace serve: \($0)") }
        configuration.logsLibWebSockets = verbose
        configuration.maximumRecordings = folders.maxFiles
        configuration.maximumCorpusGestures = maxCorpusGestures
        // A bridge that cannot start is a LiveBridgeError: one `error:` line, exit 1.
        try withLiveBridge(configuration) { bridge in
            for problem in bridge.libraryProblems { StandardError.line("warning: \(problem)") }
            // Both signals stop the bridge politely (1001 to clients, recordings finalised).
            let signals = Thread {
                _ = TerminationSignals.wait()
                bridge.stop()
            }
            signals.start()
            say("pantrace serve: open \(bridge.url)")
            say(
                "listening on \(configuration.host):\(bridge.port), recordings from \(LogText.escaped(recordings, limit: 500))/, "
                    + "viewer from \(LogText.escaped(web, limit: 500))/ (Ctrl-C stops)")
            say("room for \(bridge.viewerCapacity) viewers at once (open-file limit \(bridge.openFileLimit))")
            say(remembered?.note ?? "token: given with --token (not stored)")
            if let warning = remembered?.warning { StandardError.line("warning: \(warning)") }
            bridge.wait()
        }
        say("pantrace serve: stopped")
    }

    /// Unbuffered: the first line is the readiness signal scripts and tests wait for. A closed
    /// stdout (piped into `head -1`) must not stop the server: the error is dropped.
    private func say(_ line: String) { try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8)) }
}
