/// One sample as a JSON object in JSONL (docs/FORMAT.md §6): short keys, optional fields left out.
struct SampleRecord: Codable {
    var t: Double
    var phase: GesturePhase
    var tx: Double
    var ty: Double
    var vx: Double
    var vy: Double
    var x: Double?
    var y: Double?
    var touches: Int?

    init(_ s: PanSample) {
        t = s.time
        phase = s.phase
        tx = s.translation.x
        ty = s.translation.y
        vx = s.velocity.x
        vy = s.velocity.y
        x = s.location?.x
        y = s.location?.y
        touches = s.touches
    }

    func sample() throws(PanTraceError) -> PanSample {
        var location: PanVector?
        switch (x, y) {
        case (let x?, let y?): location = PanVector(x: x, y: y)
        case (nil, nil): location = nil
        default: throw PanTraceError(.malformedLine("a location needs both x and y"))
        }
        return PanSample(
            time: t, phase: phase, translation: PanVector(x: tx, y: ty), velocity: PanVector(x: vx, y: vy), location: location, touches: touches)
    }
}

/// The first line of a JSONL trace: format version, grid and metadata.
struct JSONLHeader: Codable {
    var pantrace: Int
    var grid: GridRecord
    var metadata: TraceMetadata
}

/// The grid as JSON (`time_tick_ns`, `position_per_pt`, `velocity_per_pt_s`).
struct GridRecord: Codable {
    var time_tick_ns: Int
    var position_per_pt: Int
    var velocity_per_pt_s: Int

    init(_ grid: SampleGrid) {
        time_tick_ns = grid.timeTickNanoseconds
        position_per_pt = grid.positionTicksPerPoint
        velocity_per_pt_s = grid.velocityTicksPerPointPerSecond
    }

    func grid() throws(PanTraceError) -> SampleGrid {
        let grid = SampleGrid(
            timeTickNanoseconds: time_tick_ns, positionTicksPerPoint: position_per_pt, velocityTicksPerPointPerSecond: velocity_per_pt_s)
        guard grid.isValid else { throw PanTraceError(.badHeader("grid scales must be between 1 and \(SampleGrid.maximumScale)")) }
        return grid
    }
}
