/// The lossless grid samples are stored on, declared in every file's header.
///
/// Values are quantized to `round(value × scale)` integers; reading gives back exactly the
/// grid value, so a file converted to JSONL or CSV and back has the same samples.
public struct SampleGrid: Hashable, Sendable, Codable {
    /// Nanoseconds per time tick (1000: one microsecond).
    public var timeTickNanoseconds: Int
    /// Position ticks per point (100: 1/100 pt).
    public var positionTicksPerPoint: Int
    /// Velocity ticks per point per second (100: 1/100 pt/s).
    public var velocityTicksPerPointPerSecond: Int

    /// Creates a grid.
    public init(timeTickNanoseconds: Int = 1000, positionTicksPerPoint: Int = 100, velocityTicksPerPointPerSecond: Int = 100) {
        self.timeTickNanoseconds = timeTickNanoseconds
        self.positionTicksPerPoint = positionTicksPerPoint
        self.velocityTicksPerPointPerSecond = velocityTicksPerPointPerSecond
    }

    /// The default grid: 1 µs, 1/100 pt, 1/100 pt/s.
    public static let standard = SampleGrid()

    /// Largest magnitude of a quantized value: 2^53, so every tick is an exact `Double`.
    static let tickLimit: Double = 9_007_199_254_740_992

    /// Upper bounds a file may declare, so hostile grids cannot make every value overflow.
    static let maximumScale = 1_000_000_000

    var timeTicksPerSecond: Double { 1e9 / Double(timeTickNanoseconds) }

    /// Whether every scale is within 1…1e9.
    var isValid: Bool {
        (1...Self.maximumScale).contains(timeTickNanoseconds)
            && (1...Self.maximumScale).contains(positionTicksPerPoint)
            && (1...Self.maximumScale).contains(velocityTicksPerPointPerSecond)
    }

    /// Time in seconds of a tick count.
    func seconds(_ ticks: Int64) -> Double { Double(ticks) / timeTicksPerSecond }
    func points(_ ticks: Int64) -> Double { Double(ticks) / Double(positionTicksPerPoint) }
    func pointsPerSecond(_ ticks: Int64) -> Double { Double(ticks) / Double(velocityTicksPerPointPerSecond) }

    /// The sample values snapped to this grid, as a reader would return them.
    public func snapped(_ sample: PanSample) -> PanSample {
        func q(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
        let p = Double(positionTicksPerPoint), v = Double(velocityTicksPerPointPerSecond)
        var out = sample
        out.time = q(sample.time, timeTicksPerSecond)
        out.translation = PanVector(x: q(sample.translation.x, p), y: q(sample.translation.y, p))
        out.velocity = PanVector(x: q(sample.velocity.x, v), y: q(sample.velocity.y, v))
        if let location = sample.location { out.location = PanVector(x: q(location.x, p), y: q(location.y, p)) }
        return out
    }
}

extension Trace {
    /// The trace with every value as a `.pantrace` file stores it and gives it back
    /// (``SampleGrid/snapped(_:)``).
    public var snappedToGrid: Trace {
        var copy = self
        copy.samples = samples.map(grid.snapped)
        return copy
    }

    /// The values a `.pantrace` file would round to its grid (a text format may hold finer
    /// ones): how many, and the first, by sample index and field.
    public func offGridValues() -> (count: Int, first: (sample: Int, field: String, value: Double, stored: Double)?) {
        var count = 0
        var first: (sample: Int, field: String, value: Double, stored: Double)?
        for (index, sample) in samples.enumerated() {
            let stored = grid.snapped(sample)
            var pairs: [(String, Double, Double)] = [
                ("t", sample.time, stored.time), ("tx", sample.translation.x, stored.translation.x),
                ("ty", sample.translation.y, stored.translation.y), ("vx", sample.velocity.x, stored.velocity.x),
                ("vy", sample.velocity.y, stored.velocity.y)
            ]
            if let location = sample.location, let kept = stored.location {
                pairs += [("x", location.x, kept.x), ("y", location.y, kept.y)]
            }
            for (field, value, kept) in pairs where value.bitPattern != kept.bitPattern {
                count += 1
                if first == nil { first = (index, field, value, kept) }
            }
        }
        return (count, first)
    }
}
