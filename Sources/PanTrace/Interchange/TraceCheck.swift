/// The one check a trace passes where it enters from a text file and before a text writer
/// writes it: what the binary writer accepts and its reader reads back (docs/FORMAT.md §5).
///
/// The JSON Lines and CSV readers check every sample and the metadata here, so they accept
/// exactly what the writers write: a time within ±``ValueLimits/timeMagnitude`` s that does
/// not go backwards, values that are finite and stored exactly on the file's grid, touch
/// counts 0…1000, and metadata within the header's limits (``MetadataCoding/check(_:)``).
/// Whatever passes converts to `.pantrace` and back to the same samples; nothing that fails
/// reaches a replay, where a time of 10³⁰⁸ s would overflow a nanosecond count.
enum TraceCheck {
    /// A touch count a sample may carry, as the binary format stores it.
    static let touches = 0...1000

    /// Checks one sample that follows a sample at time `previous` (`-infinity` for the first).
    /// - Throws: ``PanTraceError`` naming the field as JSON Lines and CSV spell it (`t`, `tx`, …).
    static func sample(_ s: PanSample, after previous: Double, grid: SampleGrid) throws(PanTraceError) {
        guard ValueLimits.isValidTime(s.time) else {
            throw PanTraceError(
                .invalidSample("time \(s.time) s is outside ±\(Int64(ValueLimits.timeMagnitude)) s"), field: "t")
        }
        guard s.time >= previous else {
            throw PanTraceError(.invalidSample("time \(s.time) s goes backwards (previous sample at \(previous) s)"), field: "t")
        }
        let position = Double(grid.positionTicksPerPoint), velocity = Double(grid.velocityTicksPerPointPerSecond)
        try onGrid(s.time, grid.timeTicksPerSecond, "t")
        try onGrid(s.translation.x, position, "tx")
        try onGrid(s.translation.y, position, "ty")
        try onGrid(s.velocity.x, velocity, "vx")
        try onGrid(s.velocity.y, velocity, "vy")
        if let location = s.location {
            try onGrid(location.x, position, "x")
            try onGrid(location.y, position, "y")
        }
        if let count = s.touches, !touches.contains(count) {
            throw PanTraceError(.invalidSample("touches \(count) is outside \(touches.lowerBound)…\(touches.upperBound)"), field: "touches")
        }
    }

    /// Checks the metadata and every sample, as a writer does before writing anything.
    /// - Throws: ``PanTraceError`` naming the sample and the field.
    static func trace(_ trace: Trace) throws(PanTraceError) {
        try MetadataCoding.check(trace.metadata)
        var previous = -Double.infinity
        for (index, s) in trace.samples.enumerated() {
            do {
                try sample(s, after: previous, grid: trace.grid)
            } catch {
                var located = error
                located.sample = index
                throw located
            }
            previous = s.time
        }
    }

    /// Refuses a value that is not finite or that the grid cannot store and give back: the
    /// writer's rounding (``QuantizedColumns/ticks(_:_:)``) must succeed, and from 2⁵¹ ticks
    /// on the reader's exactness test (``ChunkPayload/checkTick(_:scale:field:sample:)``) must pass.
    private static func onGrid(_ value: Double, _ scale: Double, _ field: String) throws(PanTraceError) {
        guard value.isFinite else {
            throw PanTraceError(.invalidSample("\(field) is \(value); only finite numbers can be stored"), field: field)
        }
        var ok = true
        let ticks = QuantizedColumns.ticks(value * scale, &ok)
        if ok, ticks.magnitude >= ChunkPayload.exactTickBound {
            ok = QuantizedColumns.ticks(Double(ticks) / scale * scale, &ok) == ticks && ok
        }
        guard ok else {
            throw PanTraceError(
                .invalidSample("\(field) \(value) is beyond what the file's grid (steps of 1/\(Int(scale))) stores exactly"), field: field)
        }
    }
}
