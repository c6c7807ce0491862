public import PanTrace

/// Records what a `UIPanGestureRecognizer` handler sees into crash-safe `.pantrace` files,
/// one per gesture, without importing UIKit.
///
/// Call ``record(state:translation:velocity:location:touches:timestamp:)`` from the
/// recognizer's action with its state, `translation(in:)`, `velocity(in:)`, `location(in:)`,
/// `numberOfTouches` and a monotonic timestamp in seconds (`CACurrentMediaTime()` or the
/// touch's `timestamp`). `began` opens the next file of the destination, `changed` appends,
/// `ended` and `cancelled` append and finish it; `possible` and `failed` write nothing.
/// Velocity is UIKit's own, so the metadata says `velocity: recorded`. Samples reach the disk
/// in the ``TraceWriter/Configuration/live`` layout: a chunk at least every 100 ms of gesture
/// time and one at the release, so a crash loses at most the last 100 ms. docs/CAPTURE.md
/// shows the handler an app writes.
public final class TraceRecorder {
    /// `UIGestureRecognizer.State`, with the same raw values, so an app can write
    /// `TraceRecorder.State(rawValue: pan.state.rawValue)`.
    public enum State: Int, CaseIterable, Hashable, Sendable {
        /// No gesture yet.
        case possible = 0
        /// The pan began.
        case began = 1
        /// The pan moved.
        case changed = 2
        /// The finger lifted (`.recognized` has the same value).
        case ended = 3
        /// The system cancelled the gesture.
        case cancelled = 4
        /// The gesture failed.
        case failed = 5
    }

    /// The metadata every gesture starts from; `id` is replaced by the file's stem.
    public var metadata: TraceMetadata
    /// Where the files go; existing names are skipped, never overwritten.
    public let destination: RecordingDestination
    /// Every gesture finished so far, in order.
    public private(set) var gestures: [RecordedGesture] = []

    private let writerConfiguration: TraceWriter.Configuration
    private let grid: SampleGrid
    private var current: GestureFile?
    private var beganTimestamp = 0.0
    private var nextNumber = 1

    /// Creates a recorder writing into `destination`.
    ///
    /// - Parameters:
    ///   - destination: the folder and file-name stem; ``RecordingDestination/skipsExistingNames``
    ///     is turned on, so a relaunched app numbers on from the files already there.
    ///   - metadata: source (`ios`), screen, edge, intent and tags for every gesture.
    ///   - configuration: chunking; ``TraceWriter/Configuration/live`` by default.
    public init(
        destination: RecordingDestination, metadata: TraceMetadata, configuration: TraceWriter.Configuration = .live,
        grid: SampleGrid = .standard
    ) {
        var destination = destination
        destination.skipsExistingNames = true
        self.destination = destination
        var metadata = metadata
        metadata.velocityOrigin = VelocitySource.recorded.rawValue
        self.metadata = metadata
        self.writerConfiguration = configuration
        self.grid = grid
    }

    /// Whether a gesture's file is open.
    public var isRecordingGesture: Bool { current != nil }

    /// The path of the gesture's file while one is open (it is on disk from the `began`
    /// sample on), else nil.
    public var currentGesturePath: String? { current?.path }

    /// Samples in the gesture's file so far (0 when none is open).
    public var currentSampleCount: Int { current?.sampleCount ?? 0 }

    /// Records one callback of the pan recognizer.
    ///
    /// - Parameters:
    ///   - state: the recognizer's state.
    ///   - translation: `translation(in:)`, points since the touch went down.
    ///   - velocity: `velocity(in:)`, points per second.
    ///   - location: `location(in:)`, if wanted.
    ///   - touches: `numberOfTouches`, if wanted.
    ///   - timestamp: seconds on a monotonic clock; the file's time 0 is the `began` callback's.
    /// - Returns: the finished gesture when `state` ended it, else `nil`.
    /// - Throws: ``CaptureError`` if a file cannot be created or written, or a value is not
    ///   finite or goes back in time; the gesture's file keeps every sample before it.
    @discardableResult
    public func record(
        state: State, translation: PanVector, velocity: PanVector, location: PanVector? = nil, touches: Int? = nil,
        timestamp: Double
    ) throws(CaptureError) -> RecordedGesture? {
        func sample(_ phase: GesturePhase) -> PanSample {
            PanSample(
                time: timestamp - beganTimestamp, phase: phase, translation: translation, velocity: velocity, location: location, touches: touches)
        }
        switch state {
        case .possible:
            return nil
        case .failed:
            try interrupt()
            return nil
        case .began:
            // A began without an end before it: the previous gesture is kept as it stands.
            try interrupt()
            beganTimestamp = timestamp
            let file = try open()
            try guarded(file) { () throws(PanTraceError) in try file.append(sample(.began)) }
            return nil
        case .changed:
            guard let file = current else { return nil }
            try guarded(file) { () throws(PanTraceError) in try file.append(sample(.changed)) }
            return nil
        case .ended, .cancelled:
            guard let file = current else { return nil }
            current = nil
            let last = sample(state == .ended ? .ended : .cancelled)
            do {
                try file.end(with: last, metadata: nil)
            } catch {
                try? file.interrupt()  // Cleanup after the error being reported; nothing more to say.
                throw CaptureError(.recording(error))
            }
            let gesture = RecordedGesture(
                path: file.path, id: file.writer.metadata.id, sampleCount: file.sampleCount, duration: file.duration,
                endPhase: last.phase, hasReleaseVelocity: true)
            gestures.append(gesture)
            return gesture
        }
    }

    /// Closes the gesture in progress, if any, without an end mark (its samples so far are
    /// written in complete chunks); call it when the app goes to the background.
    public func interrupt() throws(CaptureError) {
        guard let file = current else { return }
        current = nil
        do {
            try file.interrupt()
        } catch {
            throw CaptureError(.recording(error))
        }
    }

    private func open() throws(CaptureError) -> GestureFile {
        let file = try destination.createNextFile(number: &nextNumber, metadata: metadata, grid: grid, configuration: writerConfiguration)
        current = file
        return file
    }

    private func guarded(_ file: GestureFile, _ body: () throws(PanTraceError) -> Void) throws(CaptureError) {
        do {
            try body()
        } catch {
            current = nil
            try? file.interrupt()  // Keep what was written before the bad value; the error says why.
            throw CaptureError(.recording(error))
        }
    }
}
