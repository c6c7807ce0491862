internal import Foundation

/// The header's metadata as tagged binary fields (docs/FORMAT.md §3.2).
///
/// A recording is typically 30–120 samples at 4–6 bytes each, so the ~230 bytes of a JSON
/// header would be half the file. Fields are `varint tag, value`; a number is stored as
/// thousandths in a zigzag varint when that is exact, else as the raw IEEE double; keys this
/// version does not know travel as one JSON object (tag 10) so they still round-trip.
///
/// Version 2 spends fewer bytes on what nearly every file says: a field equal to its default
/// is left out, a canonical `created` time is a varint of seconds (tag 11), a known `source`
/// is one byte (tag 12), and a whole number is stored as itself rather than in thousandths.
enum MetadataCoding {
    enum Tag: UInt64 {
        case end = 0, id, created, source, screen, edge, intent, tags, notes, velocity, extra
        /// Version 2: `created` as seconds since 1970-01-01T00:00:00Z, for a canonical string.
        case createdSeconds
        /// Version 2: `source` as an index into ``knownSources``.
        case sourceCode
        /// Version 3: tags, each an index into ``knownTags`` or a string.
        case tagCodes
        /// Version 4: the sheet a gesture dragged and the detent the person meant.
        case sheet
    }

    /// The sources a version 2 header stores as one byte (tag 12), by index.
    static let knownSources = ["browser", "ios", "synthetic", "import:csv", "import:jsonl", "import:getevent", "import:pantrace"]
    /// The tags a version 3 header stores as one byte (tag 13, codes 1…): PanTrace's own
    /// vocabulary, the kinds and scenarios `pantrace synth` labels its gestures with.
    static let knownTags = [
        "edge-back", "swipe-down", "slow-complete", "slow-abort", "quick-flick", "flick-back", "hesitate-go", "overshoot-return"
    ]
    static let defaultCreated = "1970-01-01T00:00:00Z"
    static let defaultSource = "unknown"
    static let defaultVelocity = VelocitySource.recorded.rawValue

    static let maximumStringBytes = 1 << 16
    static let maximumTags = 1024
    /// The deepest an unknown key's value may nest: a JSON Lines header holds it two levels
    /// down (`metadata`, then the key), and every decoder stops at ``JSONValue/maximumDepth``.
    static let maximumExtraDepth = JSONValue.maximumDepth - 2

    /// Writes the fields of `m` in the newest version. `name` is the file's name without
    /// `.pantrace` when known: an id equal to it is left out (version 3 reads it back from
    /// the name).
    static func encode(_ m: TraceMetadata, name: String? = nil, into w: inout ByteWriter) throws(PanTraceError) {
        func string(_ tag: Tag, _ value: String) {
            w.varint(tag.rawValue)
            text(value)
        }
        func text(_ value: String) {
            w.varint(UInt64(value.utf8.count))
            w.raw(value.utf8)
        }
        try check(m)
        if m.id != name { string(.id, m.id) }
        if let seconds = CanonicalTime.seconds(m.created) {
            if m.created != defaultCreated {
                w.varint(Tag.createdSeconds.rawValue)
                w.varint(UInt64(seconds))
            }
        } else {
            string(.created, m.created)
        }
        if let code = knownSources.firstIndex(of: m.source) {
            w.varint(Tag.sourceCode.rawValue)
            w.byte(UInt8(code))
        } else if m.source != defaultSource {
            string(.source, m.source)
        }
        if m.screen != .phone {
            w.varint(Tag.screen.rawValue)
            number(m.screen.width, into: &w)
            number(m.screen.height, into: &w)
            number(m.screen.scale, into: &w)
        }
        if let edge = m.edge, let code = ScreenEdge.allCases.firstIndex(of: edge) {
            w.varint(Tag.edge.rawValue)
            w.byte(UInt8(code))
        }
        if m.intent != .unknown, let code = Intent.allCases.firstIndex(of: m.intent) {
            w.varint(Tag.intent.rawValue)
            w.byte(UInt8(code))
        }
        if let sheet = m.sheet {
            w.varint(Tag.sheet.rawValue)
            w.varint(UInt64(sheet.detents.count))
            for detent in sheet.detents { number(detent, into: &w) }
            w.varint(UInt64(sheet.start))
            switch sheet.target {
            case nil: w.varint(0)
            case .dismissed: w.varint(1)
            case .detent(let index): w.varint(UInt64(index) + 2)
            }
        }
        if !m.tags.isEmpty {
            let codes = m.tags.map { knownTags.firstIndex(of: $0) }
            if codes.contains(where: { $0 != nil }) {
                w.varint(Tag.tagCodes.rawValue)
                w.varint(UInt64(m.tags.count))
                for (tag, code) in zip(m.tags, codes) {
                    if let code {
                        w.varint(UInt64(code + 1))
                    } else {
                        w.varint(0)
                        text(tag)
                    }
                }
            } else {
                w.varint(Tag.tags.rawValue)
                w.varint(UInt64(m.tags.count))
                for tag in m.tags { text(tag) }
            }
        }
        if !m.notes.isEmpty { string(.notes, m.notes) }
        if m.velocityOrigin != defaultVelocity { string(.velocity, m.velocityOrigin) }
        if !m.extra.isEmpty, let json = encodedExtra(m.extra) {  // check(m) made sure it encodes
            string(.extra, String(decoding: json, as: UTF8.self))
        }
        w.varint(Tag.end.rawValue)
    }

    /// Refuses metadata a header cannot hold (docs/FORMAT.md §2.1, §5): a string over
    /// ``maximumStringBytes`` bytes, more than ``maximumTags`` tags, a screen out of range,
    /// unknown keys whose JSON is over ``maximumStringBytes`` bytes or nested deeper than
    /// ``maximumExtraDepth``. The binary writer and every text reader and writer check
    /// with this one function, so whatever one accepts the others do. The error names the key.
    static func check(_ m: TraceMetadata) throws(PanTraceError) {
        func check(_ value: String, _ key: String) throws(PanTraceError) {
            guard value.utf8.count <= maximumStringBytes else {
                throw PanTraceError(
                    .invalidValue("\(key) is \(value.utf8.count) bytes; a metadata string is at most \(maximumStringBytes) bytes"), field: key)
            }
        }
        try check(m.id, "id")
        try check(m.created, "created")
        try check(m.source, "source")
        try check(m.notes, "notes")
        try check(m.velocityOrigin, "velocity")
        guard m.tags.count <= maximumTags else {
            throw PanTraceError(.invalidValue("\(m.tags.count) tags; at most \(maximumTags)"), field: "tags")
        }
        for tag in m.tags { try check(tag, "tags") }
        if let problem = m.screen.problem { throw PanTraceError(.invalidValue(problem), field: "screen") }
        if let problem = m.sheetProblem { throw PanTraceError(.invalidValue(problem), field: m.sheet?.problem == nil ? "intent" : "sheet") }
        guard !m.extra.isEmpty else { return }
        for (key, value) in m.extra.sorted(by: { $0.key < $1.key }) where value.depth > maximumExtraDepth {
            throw PanTraceError(.invalidValue("\(key) is nested deeper than \(maximumExtraDepth) levels"), field: key)
        }
        guard let json = encodedExtra(m.extra), json.count <= maximumStringBytes else {
            let keys = m.extra.keys.sorted()
            throw PanTraceError(
                .invalidValue(
                    "the keys this version does not know (\(keys.joined(separator: ", "))) take more than \(maximumStringBytes) bytes of JSON"),
                field: keys.first)
        }
    }

    /// The unknown keys as the header stores them: sorted JSON; nil if they cannot be encoded.
    static func encodedExtra(_ extra: [String: JSONValue]) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(extra)
        } catch {
            return nil  // the caller names the problem
        }
    }

    /// Decodes the fields of a version `version` header; an absent field takes its default.
    /// From version 3 the id may be absent: it is then `name` (the file's name without
    /// `.pantrace`), or empty when the bytes came without one.
    static func decode(_ r: inout ByteReader, version: Int, name: String? = nil) throws(PanTraceError) -> TraceMetadata {
        try decodeFields(&r, version: version, name: name).metadata
    }

    /// ``decode(_:version:name:)``, and whether the fields stored the id (when not, it is `name`).
    static func decodeFields(
        _ r: inout ByteReader, version: Int, name: String? = nil
    ) throws(PanTraceError) -> (metadata: TraceMetadata, storesID: Bool) {
        // The fields are set in a plain value and boxed once at the end (TraceMetadata.Values).
        var m = TraceMetadata.Values(
            created: defaultCreated, source: defaultSource, screen: .phone, edge: nil, intent: .unknown, sheet: nil, tags: [], notes: "",
            velocityOrigin: defaultVelocity, extra: [:])
        var id = ""
        var seen: UInt64 = 0  // a bit per tag
        var sawID = false
        func string() throws(PanTraceError) -> String {
            let length = try r.count("string length", limit: maximumStringBytes)
            let bytes = try r.raw(length)
            guard let text = Self.text(bytes) else {
                throw PanTraceError(.badHeader("a metadata string is not valid UTF-8"))
            }
            return text
        }
        while true {
            let raw = try r.varint()
            let newest: Tag = version >= 4 ? .sheet : version == 3 ? .tagCodes : version == 2 ? .sourceCode : .extra
            guard let tag = Tag(rawValue: raw), raw <= newest.rawValue else {
                throw PanTraceError(.badHeader("unknown metadata field \(raw)"))
            }
            if tag == .end { break }
            // created and source have two spellings each; either may appear once.
            let slot =
                switch tag {
                case .createdSeconds: Tag.created.rawValue
                case .sourceCode: Tag.source.rawValue
                case .tagCodes: Tag.tags.rawValue
                default: raw
                }
            guard seen & (1 << slot) == 0 else { throw PanTraceError(.badHeader("metadata field \(raw) appears twice")) }
            seen |= 1 << slot
            switch tag {
            case .end: break
            case .id:
                id = try string()
                sawID = true
            case .created: m.created = try string()
            case .createdSeconds:
                let seconds = try r.count("created time", limit: CanonicalTime.maximumSeconds)
                m.created = CanonicalTime.string(seconds)
            case .source: m.source = try string()
            case .sourceCode:
                let code = Int(try r.byte())
                guard code < knownSources.count else { throw PanTraceError(.badHeader("unknown source code \(code)")) }
                m.source = knownSources[code]
            case .screen:
                m.screen = ScreenGeometry(
                    width: try number(&r, version: version), height: try number(&r, version: version), scale: try number(&r, version: version))
                if let problem = m.screen.problem { throw PanTraceError(.badHeader(problem)) }
            case .edge:
                let code = Int(try r.byte())
                guard code < ScreenEdge.allCases.count else { throw PanTraceError(.badHeader("unknown edge code \(code)")) }
                m.edge = ScreenEdge.allCases[code]
            case .intent:
                let code = Int(try r.byte())
                // The detent intent (code 3) came with the sheet, in version 4.
                guard code < (version >= 4 ? 4 : 3) else { throw PanTraceError(.badHeader("unknown intent code \(code)")) }
                m.intent = Intent.allCases[code]
            case .tags:
                let count = try r.count("tag count", limit: maximumTags)
                for _ in 0..<count { m.tags.append(try string()) }
            case .tagCodes:
                let count = try r.count("tag count", limit: maximumTags)
                for _ in 0..<count {
                    let code = try r.count("tag code", limit: knownTags.count)
                    m.tags.append(code == 0 ? try string() : knownTags[code - 1])
                }
            case .sheet:
                let count = try r.count("detent count", limit: SheetLabel.maximumDetents)
                var detents: [Double] = []
                for _ in 0..<count { detents.append(try number(&r, version: version)) }
                let start = try r.count("start detent", limit: SheetLabel.maximumDetents)
                let target = try r.count("target detent", limit: SheetLabel.maximumDetents + 1)
                m.sheet = SheetLabel(detents: detents, start: start, target: target == 0 ? nil : target == 1 ? .dismissed : .detent(target - 2))
                if let problem = m.sheet?.problem { throw PanTraceError(.badHeader(problem)) }
            case .notes: m.notes = try string()
            case .velocity: m.velocityOrigin = try string()
            case .extra:
                let json = try string()
                // Decoded as a JSONValue (keys in sorted order), so the same bad input always
                // names the same key.
                let value: JSONValue
                do {
                    value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
                } catch {
                    throw PanTraceError(.badHeader("unknown-keys field is not a JSON object: \(DecodingProblem.describe(error))"))
                }
                guard case .object(let extra) = value else { throw PanTraceError(.badHeader("unknown-keys field is not a JSON object")) }
                m.extra = extra
                m.extra = m.extra.filter { !TraceMetadata.knownKeys.contains($0.key) }
                // What is read must write back: JSON re-spelled by the encoder (1e9 as
                // 1000000000) may outgrow the field's limit, and is refused here if it does.
                guard Self.encodedExtra(m.extra).map({ $0.count <= maximumStringBytes }) == true else {
                    throw PanTraceError(.badHeader("unknown metadata keys take more than \(maximumStringBytes) bytes when written back"))
                }
                // As deep as the JSON Lines and CSV readers take it, so that it converts.
                for (key, value) in m.extra.sorted(by: { $0.key < $1.key }) where value.depth > maximumExtraDepth {
                    throw PanTraceError(.badHeader("unknown metadata key \(key) is nested deeper than \(maximumExtraDepth) levels"))
                }
            }
        }
        let metadata = TraceMetadata(id: sawID ? id : name ?? "", values: m)
        if let problem = metadata.sheetProblem { throw PanTraceError(.badHeader(problem)) }
        guard sawID || version >= 3 else { throw PanTraceError(.badHeader("metadata has no id")) }
        return (metadata, sawID)
    }

    /// `bytes` as a string if they are valid UTF-8. ASCII, what nearly every id, tag and name
    /// is, takes a fast path: it is valid UTF-8 as it stands, so it needs no validation.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// Version 2: a whole number as `zigzag << 2`, exact thousandths as `zigzag << 2 | 2`,
    /// anything else as the marker 1 and the raw double.
    static func number(_ value: Double, into w: inout ByteWriter) {
        let scaled = (value * 1000).rounded()
        if value.isFinite, abs(value) < 1e15, value.rounded() == value {
            w.varint(ColumnCoding.zigzag(Int64(value)) << 2)
        } else if value.isFinite, abs(scaled) < 1e15, scaled / 1000 == value {
            w.varint(ColumnCoding.zigzag(Int64(scaled)) << 2 | 2)
        } else {
            w.varint(1)
            var bits = value.bitPattern
            for _ in 0..<8 {
                w.byte(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
    }

    static func number(_ r: inout ByteReader, version: Int) throws(PanTraceError) -> Double {
        let n = try r.varint()
        if version >= 2, n & 1 == 0 {
            let value = Double(ColumnCoding.unzigzag(n >> 2))
            return n & 2 == 0 ? value : value / 1000
        }
        if n & 1 == 0 {
            let z = n >> 1
            return Double(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))) / 1000
        }
        guard n == 1 else { throw PanTraceError(.badHeader("bad number marker \(n)")) }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(try r.byte()) << UInt64(8 * i) }
        return Double(bitPattern: bits)
    }
}
