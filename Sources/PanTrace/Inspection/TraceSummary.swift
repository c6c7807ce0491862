/// The facts `pantrace inspect` reports about one trace file.
///
/// Encodes to the stable JSON keys of the inspect output: `file`, `samples`, `duration_s`,
/// `rate_hz`, `peak_velocity_pt_s`, `intent`, `source`, `screen`, `chunks`, `bytes`,
/// `bytes_per_sample`, `complete`, plus `id`, `velocity`, `warnings` and, for a sheet drag,
/// `sheet`.
public struct TraceSummary: Codable, Hashable, Sendable {
    public var file: String
    public var id: String
    public var samples: Int
    public var duration_s: Double
    /// The sample rate from the median interval between samples (robust to jitter and gaps).
    public var rate_hz: Double
    /// The peak speed over the gesture, pt/s: by default the largest recorded velocity
    /// magnitude; `pantrace inspect` passes a robust estimate instead (``init(file:contents:peakVelocity:)``).
    public var peak_velocity_pt_s: Double
    public var intent: Intent
    /// The sheet the gesture dragged and the detent meant, when the recording has one.
    public var sheet: SheetLabel?
    public var source: String
    public var velocity: String
    public var screen: ScreenGeometry
    public var chunks: Int
    public var bytes: Int
    public var bytes_per_sample: Double
    public var complete: Bool
    public var warnings: [String]

    /// Summarizes a file that was read; `peakVelocity` replaces the largest recorded
    /// velocity as the peak when given.
    public init(file: String, contents: TraceFile, peakVelocity: Double? = nil) {
        let trace = contents.trace
        self.file = file
        id = trace.metadata.id
        samples = trace.samples.count
        duration_s = trace.duration
        var intervals: [Double] = []
        intervals.reserveCapacity(max(0, trace.samples.count - 1))
        for i in trace.samples.indices.dropFirst() {
            let dt = trace.samples[i].time - trace.samples[i - 1].time
            if dt > 0 { intervals.append(dt) }
        }
        intervals.sort()
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        rate_hz = median > 0 ? (1 / median * 10).rounded() / 10 : 0
        peak_velocity_pt_s = peakVelocity ?? trace.samples.reduce(0) { max($0, $1.velocity.magnitude) }
        intent = trace.metadata.intent
        sheet = trace.metadata.sheet
        source = trace.metadata.source
        velocity = trace.metadata.velocityOrigin
        screen = trace.metadata.screen
        chunks = contents.chunkCount
        bytes = contents.byteCount
        bytes_per_sample = (contents.bytesPerSample * 100).rounded() / 100
        complete = contents.isComplete
        warnings = contents.warnings.map(\.description)
    }
}
