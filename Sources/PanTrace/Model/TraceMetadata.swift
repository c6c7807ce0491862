/// What is known about a recorded gesture (docs/FORMAT.md §2.1).
///
/// Stored as a JSON object in the file header. Keys PanTrace does not know are kept in
/// ``extra`` and written back unchanged, so newer writers' metadata survives older tools.
public struct TraceMetadata: Hashable, Sendable {
    /// A stable identifier, unique within a recordings folder.
    public var id: String
    /// Everything but the identifier, in one immutable box: the gestures of a corpus share
    /// their header's (docs/FORMAT.md §11), and a copy of the metadata (every trace a reader
    /// hands over, every admitted trace of a tune) retains the box once instead of each of
    /// its strings, tags and extra keys. A change makes a new box.
    private var fields: Fields

    /// When the recording was made, as an ISO 8601 string (kept verbatim).
    public var created: String {
        get { fields.values.created }
        set { change { $0.created = newValue } }
    }
    /// Where the samples came from: `browser`, `ios`, `import:<format>` or `synthetic`.
    public var source: String {
        get { fields.values.source }
        set { change { $0.source = newValue } }
    }
    /// The screen the gesture was made on.
    public var screen: ScreenGeometry {
        get { fields.values.screen }
        set { change { $0.screen = newValue } }
    }
    /// The edge the gesture started from, if it was an edge swipe.
    public var edge: ScreenEdge? {
        get { fields.values.edge }
        set { change { $0.edge = newValue } }
    }
    /// What the person meant.
    public var intent: Intent {
        get { fields.values.intent }
        set { change { $0.intent = newValue } }
    }
    /// The sheet the gesture dragged, and the detent the person meant when ``intent`` is
    /// ``Intent/detent``.
    public var sheet: SheetLabel? {
        get { fields.values.sheet }
        set { change { $0.sheet = newValue } }
    }
    /// Free-form labels (scenario names, device names).
    public var tags: [String] {
        get { fields.values.tags }
        set { change { $0.tags = newValue } }
    }
    /// Free-form notes.
    public var notes: String {
        get { fields.values.notes }
        set { change { $0.notes = newValue } }
    }
    /// How velocity was obtained: ``VelocitySource/recorded`` (the source's own) or an estimator name
    /// (`lsq2`, `impulse`, `flutter`).
    public var velocityOrigin: String {
        get { fields.values.velocityOrigin }
        set { change { $0.velocityOrigin = newValue } }
    }

    /// Keys this version does not know, kept for the round trip.
    public var extra: [String: JSONValue] {
        get { fields.values.extra }
        set { change { $0.extra = newValue } }
    }

    /// Creates metadata; everything but the identifier has a default.
    public init(
        id: String, created: String = "1970-01-01T00:00:00Z", source: String = "synthetic",
        screen: ScreenGeometry = .phone, edge: ScreenEdge? = nil, intent: Intent = .unknown, sheet: SheetLabel? = nil,
        tags: [String] = [], notes: String = "", velocityOrigin: String = VelocitySource.recorded.rawValue,
        extra: [String: JSONValue] = [:]
    ) {
        self.id = id
        fields = Fields(
            Values(
                created: created, source: source, screen: screen, edge: edge, intent: intent, sheet: sheet, tags: tags, notes: notes,
                velocityOrigin: velocityOrigin, extra: extra))
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && (lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(fields.values)
    }

    /// Metadata with `id` and the other fields `values`.
    init(id: String, values: Values) {
        self.id = id
        fields = Fields(values)
    }

    private mutating func change(_ body: (inout Values) -> Void) {
        var values = fields.values
        body(&values)
        fields = Fields(values)
    }

    /// The fields besides the identifier, as a decoder builds them before the metadata
    /// (one box, not one for each field it sets).
    struct Values: Hashable, Sendable {
        var created: String
        var source: String
        var screen: ScreenGeometry
        var edge: ScreenEdge?
        var intent: Intent
        var sheet: SheetLabel?
        var tags: [String]
        var notes: String
        var velocityOrigin: String
        var extra: [String: JSONValue]
    }

    private final class Fields: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
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
        // Decoded in this order, so the first problem named is the same as ever.
        let id = try c.decode(String.self, forKey: Key("id"))
        let created = try c.decodeIfPresent(String.self, forKey: Key("created")) ?? "1970-01-01T00:00:00Z"
        let source = try c.decodeIfPresent(String.self, forKey: Key("source")) ?? "unknown"
        let screen = try c.decodeIfPresent(ScreenGeometry.self, forKey: Key("screen")) ?? .phone
        let edge = try c.decodeIfPresent(ScreenEdge.self, forKey: Key("edge"))
        let intent = try c.decodeIfPresent(Intent.self, forKey: Key("intent")) ?? .unknown
        let sheet = try c.decodeIfPresent(SheetLabel.self, forKey: Key("sheet"))
        let tags = try c.decodeIfPresent([String].self, forKey: Key("tags")) ?? []
        let notes = try c.decodeIfPresent(String.self, forKey: Key("notes")) ?? ""
        let velocityOrigin = try c.decodeIfPresent(String.self, forKey: Key("velocity")) ?? VelocitySource.recorded.rawValue
        var extra: [String: JSONValue] = [:]
        for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !Self.knownKeys.contains(key.stringValue) {
            extra[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
        }
        self.init(
            id: id, created: created, source: source, screen: screen, edge: edge, intent: intent, sheet: sheet, tags: tags,
            notes: notes, velocityOrigin: velocityOrigin, extra: extra)
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
