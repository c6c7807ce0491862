/// Streams a raw pointer log into pointer events, or straight into recorded gestures.
///
/// The log is read through one fixed-size buffer (``Configuration/bufferSize``), a line at a
/// time, so its size does not matter: parse → events → recognizer → writer, nothing kept.
/// Every error names the log, the line and the byte where the line starts. Two things are
/// only warnings: a last line cut off before its newline that cannot be read (a log copied
/// while still being written; getevent loses at most that line when killed), and a gesture
/// still in progress when the log ends.
///
/// ```swift
/// let importer = PointerLogImporter(configuration: .init(format: .csv))
/// let recording = GestureRecording(configuration: …, destination: RecordingDestination(output: "out", logPath: "log.csv"))
/// let summary = try importer.record(logAt: "log.csv", into: recording)
/// ```
public struct PointerLogImporter: Sendable {
    /// How to read the log.
    public struct Configuration: Sendable {
        /// The log's format.
        public var format: PointerLogFormat
        /// Bytes read at a time; also the longest line accepted.
        public var bufferSize: Int
        /// How to read `getevent` and `evemu` logs.
        public var getevent: GeteventOptions
        /// Skip lines that cannot be used (``CaptureError/skipReason``) instead of stopping
        /// at the first; ``Summary/skipped`` counts them.
        public var skipsBadLines: Bool
        /// Called with the byte offset reached, every ``progressInterval`` lines and once at
        /// the end, for a progress bar on a long log; nil (the default) for none.
        public var progress: (@Sendable (_ byteOffset: Int) -> Void)?
        /// Lines between two ``progress`` calls.
        public static let progressInterval = 16_384

        /// Creates a configuration; the buffer is 64 KiB by default.
        public init(
            format: PointerLogFormat, bufferSize: Int = 1 << 16, getevent: GeteventOptions = GeteventOptions(), skipsBadLines: Bool = false
        ) {
            precondition(bufferSize >= 16, "bufferSize must be at least 16 bytes")
            self.format = format
            self.bufferSize = bufferSize
            self.getevent = getevent
            self.skipsBadLines = skipsBadLines
        }
    }

    /// What reading the log found.
    public struct Summary: Sendable {
        /// Lines read.
        public var lines = 0
        /// Pointer events produced.
        public var events = 0
        /// Problems that did not stop the import (see ``CaptureError/isWarning``).
        public var warnings: [CaptureError] = []
        /// The most bytes the read buffer ever held; never more than the buffer size.
        public var peakBufferedBytes = 0
        /// The read buffer's allocated capacity (it never grows past it).
        public var bufferCapacity = 0
        /// Lines skipped (``Configuration/skipsBadLines``), by reason.
        public var skipped: [String: Int] = [:]
        /// The first skipped lines' errors (at most ``skippedExampleLimit``), file and line filled in.
        public var skippedExamples: [CaptureError] = []
        /// How many skipped lines ``skippedExamples`` keeps.
        public static let skippedExampleLimit = 5
        /// Every line skipped.
        public var skippedTotal: Int { skipped.values.reduce(0, +) }
        /// When the log gave no touch at all: why, in one line (nil when it gave some).
        public var noTouchReason: String?
    }

    /// The configuration in use.
    public let configuration: Configuration

    /// Creates an importer.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Calls `body` with each pointer event of the log, in order, until it returns false.
    ///
    /// - Throws: ``CaptureError`` for a line that cannot be read or an error `body` throws,
    ///   either way with the file, line and byte offset filled in.
    public func forEachEvent(
        inLogAt path: String, _ body: (PointerEvent) throws(CaptureError) -> Bool
    ) throws(CaptureError) -> Summary {
        try forEachEvent(inLogAt: path, requiresMapping: false, body)
    }

    /// Calls `body` with each pointer event of the log in points on the screen, as
    /// ``record(logAt:into:)`` feeds them to its recognizer (getevent and evemu logs mapped
    /// from the panel's ranges to ``GeteventOptions/screen``), in order, until it returns false.
    /// Standard input (`-`) is read as it arrives, so each event comes as soon as its line does.
    ///
    /// - Throws: ``CaptureError`` as ``forEachEvent(inLogAt:_:)`` does.
    public func forEachScreenEvent(
        inLogAt path: String, _ body: (PointerEvent) throws(CaptureError) -> Bool
    ) throws(CaptureError) -> Summary {
        try forEachEvent(inLogAt: path, requiresMapping: true, body)
    }

    /// Records the log's gestures with `recording`, one file per recognised gesture.
    ///
    /// On an error, the gesture being written keeps every sample accepted before the bad
    /// line, in complete chunks, without an end mark (``GestureRecording/interrupt()``); files
    /// of earlier gestures are finished and never touched again. A gesture still in progress
    /// at the end of the log is left the same way, with a warning.
    ///
    /// - Throws: ``CaptureError`` naming the log, line and byte of the first problem.
    public func record(logAt path: String, into recording: GestureRecording) throws(CaptureError) -> Summary {
        var summary: Summary
        do {
            summary = try forEachEvent(inLogAt: path, requiresMapping: true) { event throws(CaptureError) in
                _ = try recording.handle(event)
                return true
            }
        } catch {
            // Best effort: keep what the gesture had; the error being thrown is the one to report.
            _ = try? recording.interrupt()
            throw error
        }
        if let gesture = try recording.interrupt() {
            summary.warnings.append(CaptureError(.endedMidGesture(path: gesture.path), file: path, line: summary.lines))
        }
        return summary
    }

    private func forEachEvent(
        inLogAt path: String, requiresMapping: Bool, _ body: (PointerEvent) throws(CaptureError) -> Bool
    ) throws(CaptureError) -> Summary {
        var reader = try LogLineReader(path: path, bufferSize: configuration.bufferSize)
        var summary: Summary
        switch configuration.format {
        case .csv:
            var parser = CSVPointerParser()
            summary = try run(&reader, &parser, body)
        case .jsonl:
            var parser = JSONLPointerParser()
            summary = try run(&reader, &parser, body)
        case .getevent:
            var options = configuration.getevent
            if !requiresMapping { options.screen = nil }
            var parser = GeteventParser(options: options, requiresMapping: requiresMapping)
            summary = try run(&reader, &parser, body)
        case .evemu:
            var options = configuration.getevent
            if !requiresMapping { options.screen = nil }
            var unusableBeside: [String] = []
            if requiresMapping, options.axes == nil {
                let beside = try EvemuParser.axesBeside(log: path)
                if let axes = beside.axes { options.deviceAxes[""] = axes }
                unusableBeside = beside.unusable
            }
            var parser = EvemuParser(options: options, requiresMapping: requiresMapping, unusableBeside: unusableBeside)
            summary = try run(&reader, &parser, body)
        }
        summary.peakBufferedBytes = reader.peakBufferedBytes
        summary.bufferCapacity = reader.bufferCapacity
        return summary
    }

    private func run<Parser: PointerLogParser>(
        _ reader: inout LogLineReader, _ parser: inout Parser, _ body: (PointerEvent) throws(CaptureError) -> Bool
    ) throws(CaptureError) -> Summary {
        var summary = Summary()
        var events: [PointerEvent] = []
        events.reserveCapacity(16)
        let path = reader.path
        let skipsBadLines = configuration.skipsBadLines
        /// Skips the line when lenient and the error allows it; throws otherwise.
        func skipOrThrow(_ error: CaptureError, _ location: LogLineReader.Location) throws(CaptureError) {
            let located = error.located(file: path, line: location.line, byteOffset: location.byteOffset)
            guard skipsBadLines, let reason = error.skipReason else { throw located }
            summary.skipped[reason, default: 0] += 1
            if summary.skippedExamples.count < Summary.skippedExampleLimit { summary.skippedExamples.append(located) }
        }
        let progress = configuration.progress
        var lastOffset = 0
        defer { progress?(lastOffset) }
        try reader.forEachLine { line, location throws(CaptureError) -> Bool in
            summary.lines = location.line
            lastOffset = location.byteOffset + line.count + (location.isTerminated ? 1 : 0)
            if let progress, location.line % Self.Configuration.progressInterval == 0 { progress(location.byteOffset) }
            events.removeAll(keepingCapacity: true)
            do throws(CaptureError) {
                try parser.parse(line, into: &events)
            } catch {
                guard location.isTerminated else {
                    summary.warnings.append(CaptureError(.truncatedLine, file: path, line: location.line, byteOffset: location.byteOffset))
                    return false
                }
                try skipOrThrow(error, location)
                return true
            }
            for event in events {
                summary.events += 1
                do throws(CaptureError) {
                    guard try body(event) else { return false }
                } catch {
                    try skipOrThrow(error, location)
                }
            }
            return true
        }
        summary.noTouchReason = parser.noTouchReason
        return summary
    }
}
