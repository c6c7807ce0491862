public import PanTrace

/// Records raw pointer events into one `.pantrace` file per recognised gesture, as they come.
///
/// The one "events → recorded trace file" pipeline: `pantrace record` feeds it the events of
/// a log, and a live recorder (the browser bridge) feeds it the events of a session, so the
/// same events give byte-identical files. Each event goes through a ``PanRecognizer``; a
/// `began` opens the next file of the ``RecordingDestination`` with a ``TraceWriter`` in the
/// ``TraceWriter/Configuration/live`` layout (a chunk at least every 100 ms of gesture time,
/// and one at the release), so a crash loses at most the last 100 ms.
///
/// A gesture still in progress when the input stops is left by ``interrupt()``: every sample
/// in complete chunks, no end mark (readers report it incomplete). A release for which the
/// platform gives no velocity is recorded with zero velocity and a metadata chunk adding
/// `"releaseVelocity": "none"`.
///
/// ```swift
/// let recording = GestureRecording(
///     configuration: .init(recognizer: .init(edge: .left), metadata: TraceMetadata(id: "", source: "browser")),
///     destination: RecordingDestination(folder: "recordings", stem: "session"))
/// for event in events { _ = try recording.handle(event) }
/// try recording.interrupt()
/// ```
public final class GestureRecording {
    /// What the recording writes.
    public struct Configuration: Sendable {
        /// Recognizer thresholds and the velocity estimator.
        public var recognizer: PanRecognizer.Configuration
        /// The metadata every gesture starts from. Its `id` is replaced by the file's stem,
        /// and `screen`, `edge` and `velocityOrigin` by the recognizer's.
        public var metadata: TraceMetadata
        /// How samples are grouped into chunks; ``TraceWriter/Configuration/live`` by default.
        public var writer: TraceWriter.Configuration
        /// The sample grid.
        public var grid: SampleGrid

        /// Creates a configuration.
        public init(
            recognizer: PanRecognizer.Configuration = .init(), metadata: TraceMetadata,
            writer: TraceWriter.Configuration = .live, grid: SampleGrid = .standard
        ) {
            self.recognizer = recognizer
            self.metadata = metadata
            self.writer = writer
            self.grid = grid
        }
    }

    /// What one event did to the recording.
    public enum Outcome: Hashable, Sendable {
        /// Nothing visible: a touch went down or moved within the slop.
        case none
        /// A gesture began with `sample`; its file was created at `path`.
        case began(path: String, sample: PanSample)
        /// The pan moved: `sample` was recorded.
        case changed(PanSample)
        /// A gesture ended or was cancelled with `sample`; its file is complete.
        case finished(RecordedGesture, sample: PanSample)
        /// A touch did not become a pan.
        case failed(PanRecognizer.Failure)
        /// The event belongs to no gesture being recognised.
        case ignored(PanRecognizer.Ignored)
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// Where the files go.
    public let destination: RecordingDestination
    /// The recognizer's current state.
    public private(set) var recognizer: PanRecognizer
    /// Every gesture written so far, in order, the interrupted one included.
    public private(set) var gestures: [RecordedGesture] = []
    /// How many touches failed, by reason.
    public private(set) var failures: [PanRecognizer.Failure: Int] = [:]
    /// How many extra pointers (down while another was down) were ignored.
    public private(set) var ignoredPointers = 0

    private var current: GestureFile?
    private var nextNumber = 1

    /// The corpus file gestures go into instead of files of their own, if any.
    private let corpus: (writer: CorpusWriter, path: String)?

    /// Creates a recording; no file is created until a gesture begins.
    public init(configuration: Configuration, destination: RecordingDestination) {
        self.configuration = configuration
        self.destination = destination
        self.recognizer = PanRecognizer(configuration: configuration.recognizer)
        self.corpus = nil
    }

    /// Creates a recording whose gestures go into the corpus `writer` (a file at `path`),
    /// named `STEM-1`, `STEM-2`, … after `stem`, each written as it happens
    /// (``CorpusWriter/beginLive(name:metadata:grid:configuration:)``). The caller finishes
    /// the corpus.
    public init(configuration: Configuration, corpus writer: CorpusWriter, at path: String, stem: String) {
        self.configuration = configuration
        self.destination = RecordingDestination(folder: ".", stem: stem)
        self.recognizer = PanRecognizer(configuration: configuration.recognizer)
        self.corpus = (writer, path)
    }

    /// Whether a gesture's file is open.
    public var isRecordingGesture: Bool { current != nil }

    /// Takes one pointer event.
    ///
    /// - Throws: ``CaptureError`` for an event the recognizer rejects (nothing changes, the
    ///   current gesture stays open) or a file that cannot be created or written.
    public func handle(_ event: PointerEvent) throws(CaptureError) -> Outcome {
        switch recognizer.handle(event) {
        case .none:
            return .none
        case .rejected(let rejection):
            throw CaptureError(.rejected(rejection))
        case .ignored(let reason):
            if reason == .extraPointer, event.phase == .down { ignoredPointers += 1 }
            return .ignored(reason)
        case .failed(let failure):
            failures[failure, default: 0] += 1
            return .failed(failure)
        case .began(let sample):
            let file = try open()
            try recording { () throws(PanTraceError) in try file.append(sample) }
            return .began(path: file.path, sample: sample)
        case .changed(let sample):
            guard let file = current else { return .none }
            try recording { () throws(PanTraceError) in try file.append(sample) }
            return .changed(sample)
        case .ended(let sample, let hasVelocity), .cancelled(let sample, let hasVelocity):
            guard let file = current else { return .none }
            current = nil
            var metadata: TraceMetadata?
            if !hasVelocity {
                var changed = file.writer.metadata
                changed.extra["releaseVelocity"] = .string("none")
                metadata = changed
            }
            try recording { () throws(PanTraceError) in try file.end(with: sample, metadata: metadata) }
            let gesture = RecordedGesture(
                path: file.path, id: file.writer.metadata.id, sampleCount: file.sampleCount, duration: file.duration,
                endPhase: sample.phase, hasReleaseVelocity: hasVelocity)
            gestures.append(gesture)
            return .finished(gesture, sample: sample)
        }
    }

    /// Stops the gesture in progress, if any: its samples so far are written in complete
    /// chunks and the file is closed without an end mark.
    ///
    /// Call it when the input stops (end of a log, a bad line, a closed connection).
    /// - Returns: the interrupted gesture, or `nil` if none was in progress.
    @discardableResult
    public func interrupt() throws(CaptureError) -> RecordedGesture? {
        guard let file = current else { return nil }
        current = nil
        let gesture = RecordedGesture(
            path: file.path, id: file.writer.metadata.id, sampleCount: file.sampleCount, duration: file.duration,
            endPhase: nil, hasReleaseVelocity: false)
        gestures.append(gesture)
        try recording { () throws(PanTraceError) in try file.interrupt() }
        return gesture
    }

    private func open() throws(CaptureError) -> GestureFile {
        var metadata = configuration.metadata
        metadata.screen = configuration.recognizer.screen
        metadata.edge = configuration.recognizer.edge
        metadata.velocityOrigin = configuration.recognizer.velocity.rawValue
        let file: GestureFile
        if let corpus {
            let name = "\(destination.stem)-\(nextNumber)"
            nextNumber += 1
            metadata.id = name
            let writer: TraceWriter
            do {
                writer = try corpus.writer.beginLive(name: name, metadata: metadata, grid: configuration.grid, configuration: configuration.writer)
            } catch {
                throw CaptureError(.recording(error))
            }
            file = GestureFile(path: "\(corpus.path)#\(name)", writer: writer)
        } else {
            file = try destination.createNextFile(
                number: &nextNumber, metadata: metadata, grid: configuration.grid, configuration: configuration.writer)
        }
        current = file
        return file
    }

    private func recording(_ body: () throws(PanTraceError) -> Void) throws(CaptureError) {
        do {
            try body()
        } catch {
            throw CaptureError(.recording(error))
        }
    }
}
