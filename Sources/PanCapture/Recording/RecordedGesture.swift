public import PanTrace

/// What was written for one recognised gesture.
public struct RecordedGesture: Hashable, Sendable {
    /// The `.pantrace` file.
    public var path: String
    /// The trace's identifier (the file name without its extension).
    public var id: String
    /// Samples written.
    public var sampleCount: Int
    /// Seconds from the first to the last sample written.
    public var duration: Double
    /// How the gesture ended: `ended`, `cancelled`, or `nil` when the input stopped first
    /// (the file then has every sample in complete chunks but no end mark).
    public var endPhase: GesturePhase?
    /// Whether the release sample carries an estimated velocity; false where the platform
    /// reports none (recorded as zero, metadata `releaseVelocity: "none"`).
    public var hasReleaseVelocity: Bool

    /// Whether the file was finished with its end mark.
    public var isComplete: Bool { endPhase != nil }

    /// Creates a record.
    public init(path: String, id: String, sampleCount: Int, duration: Double, endPhase: GesturePhase?, hasReleaseVelocity: Bool) {
        self.path = path
        self.id = id
        self.sampleCount = sampleCount
        self.duration = duration
        self.endPhase = endPhase
        self.hasReleaseVelocity = hasReleaseVelocity
    }
}
