internal import ArgumentParser
internal import PanCapture
internal import PanTrace
internal import Foundation

/// `pantrace record`: a raw pointer log in, one `.pantrace` per recognised gesture out.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Turn a raw pointer log (csv, jsonl, Android getevent) into one .pantrace per recognised gesture.",
        discussion: """
            Gestures are written as OUT-1.pantrace, OUT-2.pantrace, … (or LOGNAME-1.pantrace, … \
            inside OUT when OUT is a folder or ends in /), as they are recognised; existing files \
            are never overwritten. On a bad line the gesture being written keeps every sample \
            before it (the file is left without its end mark) and the command fails naming the \
            line. With --skip-bad-lines, lines that cannot be used are skipped instead, counted by \
            reason, the first few printed with their line numbers, and the command exits 3. A log \
            with no gesture exits 1 with one line saying why. Formats and recognizer rules: \
            docs/CAPTURE.md.
            """)

    /// The exit status when gestures were recorded but lines were skipped (--skip-bad-lines).
    static let skippedLinesExitCode: Int32 = 3

    @Option(name: .customLong("from"), help: "The pointer log to read.")
    var log: String

    @Option(help: "Log format: csv, jsonl, getevent or evemu (default: from the extension .csv, .jsonl or .events).")
    var format: PointerLogFormat?

    @Option(
        name: .shortAndLong,
        help:
            "Output stem (OUT → OUT-1.pantrace, …), folder (ends in / or exists), or corpus file (OUT.pantraces: gestures OUT-1, OUT-2, … in one file)."
    )
    var output: String

    @Option(help: "What the person meant.")
    var intent: Intent = .unknown

    @OptionGroup var recognizing: RecognizerOptions

    @Option(help: "Creation time for the metadata, ISO 8601 (default: now; fix it for reproducible files).")
    var created: String?

    @Option(help: "Source for the metadata (default: import:<format>; the live bridge writes browser).")
    var source: String?

    @Option(name: .customLong("tag"), help: "A tag for every gesture (repeat for several).")
    var tags: [String] = []

    @Flag(
        name: .customLong("skip-bad-lines"),
        help: "Skip lines that cannot be used (counted by reason, the first few printed); exit 3 if any were skipped.")
    var skipsBadLines = false

    func validate() throws {
        try ScreenGeometry.validate(scale: recognizing.scale)
        guard format != nil || PointerLogFormat(path: log) != nil else {
            throw ValidationError("--format is needed: \(log) does not end in .csv, .jsonl or .events")
        }
    }

    /// The size of a log from which on `record` shows a progress bar on a terminal.
    static let progressThreshold = 8 << 20

    func run() throws {
        let screen = recognizing.scaledScreen
        let format = self.format ?? PointerLogFormat(path: log)!
        var importing = PointerLogImporter.Configuration(
            format: format, getevent: try recognizing.getevent(on: screen),
            skipsBadLines: skipsBadLines)
        // A log of 8 MiB or more (a few seconds of work) shows its progress on a terminal.
        let size = log == "-" ? 0 : ((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0)
        let bar = ProgressBar.ifUseful(work: Double(size), threshold: Double(Self.progressThreshold), label: "record", unit: "MiB")
        if let bar { importing.progress = { offset in bar.update(offset >> 20, of: max(1, size >> 20)) } }
        defer { bar?.finish() }
        let importer = PointerLogImporter(configuration: importing)
        let metadata = TraceMetadata(
            id: "", created: created ?? ISO8601DateFormatter().string(from: Date()), source: source ?? format.source, intent: intent, tags: tags)
        let recordingConfiguration = GestureRecording.Configuration(
            recognizer: recognizing.recognizer(on: screen), metadata: metadata)
        let recording: GestureRecording
        // -o OUT.pantraces: every gesture into one corpus file, named at its first write.
        let corpus = GestureCorpus.isCorpus(path: output) ? try CorpusWriter(creatingFileAt: output, publication: .atFirstWrite) : nil
        if let corpus {
            let stem = RecordingDestination.sanitized(
                String(URL(fileURLWithPath: output).lastPathComponent.dropLast(GestureCorpus.fileExtension.count)))
            recording = GestureRecording(configuration: recordingConfiguration, corpus: corpus, at: output, stem: stem)
        } else {
            let destination = RecordingDestination(output: output, logPath: log)
            // As synth does: the folder is created if missing, and a failure names the folder,
            // not a line of the log.
            do {
                try FileManager.default.createDirectory(atPath: destination.folder, withIntermediateDirectories: true)
            } catch {
                throw CLIFailure("cannot create the output folder \(destination.folder): \(error.localizedDescription)")
            }
            recording = GestureRecording(configuration: recordingConfiguration, destination: destination)
        }
        // The corpus is finished once it holds a gesture (an interrupted one stays without
        // its end mark); with none it is never named.
        func finishCorpus() throws {
            if let corpus, !recording.gestures.isEmpty { try corpus.finish() }
        }
        let summary: PointerLogImporter.Summary
        do {
            summary = try importer.record(logAt: log, into: recording)
            bar?.finish()
        } catch {
            bar?.finish()
            // The files a failed run leaves (each finished, the last maybe without its end
            // mark), and no summary line: the error is the outcome.
            Self.reportFiles(recording)
            do {
                try finishCorpus()
            } catch let failure {
                StandardError.line("error: \(failure)")
            }
            throw error
        }
        try finishCorpus()
        for warning in summary.warnings { StandardError.line("warning: \(warning)") }
        Self.reportSkipped(summary)
        guard !recording.gestures.isEmpty else { throw CLIFailure(Self.whyEmpty(log, summary, recording)) }
        Self.report(recording)
        if summary.skippedTotal > 0 { throw ExitCode(Self.skippedLinesExitCode) }
    }

    /// One line saying why a log gave no gesture.
    static func whyEmpty(_ log: String, _ summary: PointerLogImporter.Summary, _ recording: GestureRecording) -> String {
        if let reason = summary.noTouchReason { return "no gestures in \(log): \(reason)" }
        var notes: [String] = []
        var touches = 0
        for failure in PanRecognizer.Failure.allCases {
            if let count = recording.failures[failure] {
                notes.append("\(count) \(failure.rawValue)")
                touches += count
            }
        }
        if summary.events == 0 { return "no gestures in \(log): no pointer events in \(summary.lines) lines" }
        if notes.isEmpty { return "no gestures in \(log): \(summary.events) pointer events, none of them began a pan" }
        return "no gestures in \(log): \(touches == 1 ? "the touch" : "every one of the \(touches) touches") "
            + (notes.count == 1 ? recording.failures.first!.key.rawValue : "failed: " + notes.joined(separator: ", "))
    }

    /// The skipped lines: counts by reason, the first few, and a total (standard error).
    static func reportSkipped(_ summary: PointerLogImporter.Summary) {
        guard summary.skippedTotal > 0 else { return }
        for example in summary.skippedExamples { StandardError.line("skipped: \(example)") }
        let reasons = summary.skipped.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        StandardError.line(
            "skipped \(summary.skippedTotal) line\(summary.skippedTotal == 1 ? "" : "s"): "
                + reasons.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }

    /// One line per file written.
    static func reportFiles(_ recording: GestureRecording) {
        for gesture in recording.gestures {
            let end = gesture.endPhase.map(\.description) ?? "INCOMPLETE"
            let velocity = gesture.isComplete && !gesture.hasReleaseVelocity ? ", no release velocity (recorded as 0)" : ""
            print("wrote \(gesture.path): \(gesture.sampleCount) samples, \(DecimalText.fixed(gesture.duration, digits: 3)) s, \(end)\(velocity)")
        }
    }

    /// One line per file written, then how many gestures and what did not become one.
    static func report(_ recording: GestureRecording) {
        reportFiles(recording)
        var notes: [String] = []
        for failure in PanRecognizer.Failure.allCases {
            if let count = recording.failures[failure] { notes.append("\(count) \(failure.rawValue)") }
        }
        if recording.ignoredPointers > 0 {
            notes.append("\(recording.ignoredPointers) extra pointer\(recording.ignoredPointers == 1 ? "" : "s") ignored")
        }
        let count = recording.gestures.count
        print("\(count) gesture\(count == 1 ? "" : "s") recorded" + (notes.isEmpty ? "" : "; not gestures: " + notes.joined(separator: ", ")))
    }
}

extension PointerLogFormat {
    /// The format a log's extension names, if it names one (`.csv`, `.jsonl`).
    init?(path: String) {
        if path.hasSuffix(".csv") {
            self = .csv
        } else if path.hasSuffix(".jsonl") {
            self = .jsonl
        } else if path.hasSuffix(".events") {
            self = .evemu
        } else {
            return nil
        }
    }
}

extension GeteventOptions {
    /// The options `record` and `velocity` take, with the `-p` dump read from its file.
    init(device: String?, deviceInfo: String?, axisRange: String?, screen: ScreenGeometry?) throws {
        var deviceAxes: [String: GeteventAxes] = [:]
        if let deviceInfo {
            let text: String
            do {
                text = try String(contentsOfFile: deviceInfo, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read --device-info \(deviceInfo): \(error.localizedDescription)")
            }
            deviceAxes = try GeteventAxes.devices(inDump: text, file: deviceInfo)
        }
        self.init(device: device, axes: try axisRange.map { try GeteventAxes(argument: $0) }, deviceAxes: deviceAxes, screen: screen)
    }
}
