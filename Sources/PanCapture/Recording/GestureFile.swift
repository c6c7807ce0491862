internal import PanTrace

/// One gesture's `.pantrace` file while it is being written: the part shared by
/// ``GestureRecording`` and ``TraceRecorder``.
///
/// Holds back the newest sample by one so that a later sample with the same timestamp can
/// replace it, as Android's tracker replaces a same-time sample
/// (`AccumulatingVelocityTrackerStrategy::addMovement`); the release sample never replaces
/// anything. Everything else goes straight to a ``TraceWriter``.
final class GestureFile {
    let path: String
    let writer: TraceWriter
    private var held: PanSample?
    private var firstTime: Double?
    private var lastTime = 0.0

    init(path: String, metadata: TraceMetadata, grid: SampleGrid, configuration: TraceWriter.Configuration) throws(PanTraceError) {
        self.path = path
        self.writer = try TraceWriter(creatingFileAt: path, metadata: metadata, grid: grid, configuration: configuration)
    }

    /// A gesture written into a corpus file as it happens, shown as `path`
    /// (`corpus.pantraces#name`).
    init(path: String, writer: TraceWriter) {
        self.path = path
        self.writer = writer
    }

    var sampleCount: Int { writer.sampleCount + (held == nil ? 0 : 1) }
    var duration: Double { firstTime.map { lastTime - $0 } ?? 0 }

    /// Adds a `began` or `changed` sample.
    func append(_ sample: PanSample) throws(PanTraceError) {
        if let previous = held {
            if previous.time == sample.time {
                var replacement = sample
                replacement.phase = previous.phase
                held = replacement
                return
            }
            if sample.time < previous.time {
                // Out of order: let the writer take the held sample and refuse this one, with its words.
                held = nil
                try writer.append(previous)
                try writer.append(sample)
            }
            try writer.append(previous)
        }
        held = sample
        note(sample)
        // The held sample is not on disk yet: seal by its time, not the last appended one's.
        try writer.sealIfStale(at: sample.time)
    }

    /// Adds the `ended` or `cancelled` sample, records the metadata change if any, and
    /// writes the end mark.
    func end(with sample: PanSample, metadata: TraceMetadata?) throws(PanTraceError) {
        try releaseHeld()
        try writer.append(sample)
        note(sample)
        if let metadata { try writer.updateMetadata(metadata) }
        try writer.finish()
    }

    /// Writes every sample accepted so far in complete chunks and stops, leaving the file
    /// without its end mark (as a crash would, minus the lost tail).
    func interrupt() throws(PanTraceError) {
        try releaseHeld()
        try writer.flush()
    }

    private func releaseHeld() throws(PanTraceError) {
        if let previous = held {
            held = nil
            try writer.append(previous)
        }
    }

    private func note(_ sample: PanSample) {
        if firstTime == nil { firstTime = sample.time }
        lastTime = sample.time
    }
}
