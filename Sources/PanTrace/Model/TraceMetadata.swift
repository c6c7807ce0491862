/// What is known about a recorded gesture (docs/FORMAT.md §2.1).
///
/// Stored as a JSON object in the file header. Keys PanTrace does not know are kept in
/// ``extra`` and written back unchanged, so newer writers' metadata survives older tools.
public struct TraceMetadata: Hashable, Sendable {
    /// A stable identifier, unique within a recordings folder.
    public var id: String
    /// When the recording was made, as an ISO 8601 string (kept verbatim).
    public var created: String
    /// Where the samples came from: `browser`, `ios`, `import:<format>` or `synthetic`.
    public var source: String
    /// The screen the gesture was made on.
    public var screen: ScreenGeometry
    /// The edge the gesture started from, if it was an edge swipe.
    public var edge: ScreenEdge?
    /// What the person meant.
    public var intent: Intent
    /// The sheet the gesture dragged, and the detent the person meant when ``intent`` is
    /// ``Intent/detent``.
    public var sheet: SheetLabel?
    /// Free-form labels (scenario names, device names).
    public var tags: [String]
    /// Free-form notes.
    public var notes: String
    /// How velocity was obtained: ``VelocitySource/recorded`` (the source's own) or an estimator name
    /// (`lsq2`, `impulse`, `flutter`).
    public var velocityOrigin: String

    /// Keys this version does not know, kept for the round trip.
    public var extra: [String: JSONValue]

    /// Creates metadata; everything but the identifier has a default.
    public init(
        id: String, created: String = "1970-01-01T00:00:00Z", source: String = "synthetic",
        screen: ScreenGeometry = .phone, edge: ScreenEdge? = nil, intent: Intent = .unknown, sheet: SheetLabel? = nil,
        tags: [String] = [], notes: String = "", velocityOrigin: String = VelocitySource.recorded.rawValue,
        extra: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.created = created
        self.source = source
        self.screen = screen
        self.edge = edge
        self.intent = intent
        self.sheet = sheet
        self.tags = tags
        self.notes = notes
        self.velocityOrigin = velocityOrigin
        self.extra = extra
    }
}

extension TraceMetadata {
    /// Why the sheet and the intent disagree, or nil: a target detent is the intent
    /// ``Intent/detent`` and nothing else is, and the sheet describes a sheet.
    public var sheetProblem: String? {
        if let problem = sheet?.problem { return problem }
        switch (intent, sheet?.target) {
        case (.detent, nil): return "intent is detent but the metadata has no sheet target"
        case (.detent, _?), (_, nil): return nil
        case (_, let target?): return "the sheet has the target \(target) but the intent is \(intent.rawValue), not detent"
        }
    }
}

extension TraceMetadata: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The keys this version understands; everything else goes to ``extra``.
    static let knownKeys: Set<String> = ["id", "created", "source", "screen", "edge", "intent", "sheet", "tags", "notes", "velocity"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decode(String.self, forKey: Key("id"))
        created = try c.decodeIfPresent(String.self, forKey: Key("created")) ?? "1970-01-01T00:00:00Z"
        source = try c.decodeIfPresent(String.self, forKey: Key("source")) ?? "unknown"
        screen = try c.decodeIfPresent(ScreenGeometry.self, forKey: Key("screen")) ?? .phone
        edge = try c.decodeIfPresent(ScreenEdge.self, forKey: Key("edge"))
        intent = try c.decodeIfPresent(Intent.self, forKey: Key("intent")) ?? .unknown
        sheet = try c.decodeIfPresent(SheetLabel.self, forKey: Key("sheet"))
        tags = try c.decodeIfPresent([String].self, forKey: Key("tags")) ?? []
        notes = try c.decodeIfPresent(String.self, forKey: Key("notes")) ?? ""
        velocityOrigin = try c.decodeIfPresent(String.self, forKey: Key("velocity")) ?? VelocitySource.recorded.rawValue
        var extra: [String: JSONValue] = [:]
        for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !Self.knownKeys.contains(key.stringValue) {
            extra[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
        }
        self.extra = extra
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: Key("id"))
        try c.encode(created, forKey: Key("created"))
        try c.encode(source, forKey: Key("source"))
        try c.encode(screen, forKey: Key("screen"))
        try c.encodeIfPresent(edge, forKey: Key("edge"))
        try c.encode(intent, forKey: Key("intent"))
        try c.encodeIfPresent(sheet, forKey: Key("sheet"))
        // Empty tags and notes are left out: the header is paid once per file.
        if !tags.isEmpty { try c.encode(tags, forKey: Key("tags")) }
        if !notes.isEmpty { try c.encode(notes, forKey: Key("notes")) }
        try c.encode(velocityOrigin, forKey: Key("velocity"))
        for (key, value) in extra where !Self.knownKeys.contains(key) {
            try c.encode(value, forKey: Key(key))
        }
    }
}
