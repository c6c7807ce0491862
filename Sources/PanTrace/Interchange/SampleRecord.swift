/// One sample as a JSON object in JSONL (docs/FORMAT.md §6): short keys, optional fields left out.
///
/// Decoding refuses a key the writer never writes (a `tX` typo would otherwise be dropped
/// without a word, and the line would not round-trip).
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case t, phase, tx, ty, vx, vy, x, y, touches
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownKeys.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        t = try c.decode(Double.self, forKey: .t)
        phase = try c.decode(GesturePhase.self, forKey: .phase)
        tx = try c.decode(Double.self, forKey: .tx)
        ty = try c.decode(Double.self, forKey: .ty)
        vx = try c.decode(Double.self, forKey: .vx)
        vy = try c.decode(Double.self, forKey: .vy)
        x = try c.decodeIfPresent(Double.self, forKey: .x)
        y = try c.decodeIfPresent(Double.self, forKey: .y)
        touches = try c.decodeIfPresent(Int.self, forKey: .touches)
    }

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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case pantrace, grid, metadata
    }

    init(pantrace: Int, grid: GridRecord, metadata: TraceMetadata) {
        self.pantrace = pantrace
        self.grid = grid
        self.metadata = metadata
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownKeys.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        pantrace = try c.decode(Int.self, forKey: .pantrace)
        grid = try c.decode(GridRecord.self, forKey: .grid)
        metadata = try c.decode(TraceMetadata.self, forKey: .metadata)
    }
}

/// Refuses keys of a JSON object that its format does not define (metadata's own unknown
/// keys are kept instead, in ``TraceMetadata/extra``).
enum UnknownKeys {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func refuse(in decoder: any Decoder, known: [String]) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let unknown = c.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath + [Key(stringValue: first)],
                debugDescription: "unknown key \"\(first)\" (expected \(known.joined(separator: ", ")))"))
    }
}

/// The grid as JSON (`time_tick_ns`, `position_per_pt`, `velocity_per_pt_s`).
struct GridRecord: Codable {
    var time_tick_ns: Int
    var position_per_pt: Int
    var velocity_per_pt_s: Int

    enum CodingKeys: String, CodingKey, CaseIterable {
        case time_tick_ns, position_per_pt, velocity_per_pt_s
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownKeys.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        time_tick_ns = try c.decode(Int.self, forKey: .time_tick_ns)
        position_per_pt = try c.decode(Int.self, forKey: .position_per_pt)
        velocity_per_pt_s = try c.decode(Int.self, forKey: .velocity_per_pt_s)
    }

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
