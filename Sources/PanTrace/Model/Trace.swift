/// One recorded gesture: its samples and what is known about it.
public struct Trace: Hashable, Sendable {
    /// What the gesture is, where it came from and what the person meant.
    public var metadata: TraceMetadata
    /// The samples in time order.
    public var samples: [PanSample]
    /// The grid the samples are stored on.
    public var grid: SampleGrid

    /// Creates a trace.
    public init(metadata: TraceMetadata, samples: [PanSample], grid: SampleGrid = .standard) {
        self.metadata = metadata
        self.samples = samples
        self.grid = grid
    }

    /// Seconds from the first to the last sample; 0 for fewer than two samples.
    public var duration: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return last.time - first.time
    }
}
