import Testing

@testable import PanTrace

/// Metadata keeps everything but its id in one shared box: it must still behave as a plain
/// value, field by field.
struct TraceMetadataTests {
    static let full = TraceMetadata(
        id: "a", created: "2026-11-30T01:00:00Z", source: "browser", screen: ScreenGeometry(width: 400, height: 800, scale: 2),
        edge: .left, intent: .detent, sheet: SheetLabel(detents: [80, 400], start: 1, target: .detent(0)), tags: ["t"], notes: "n",
        velocityOrigin: "lsq2", extra: ["k": .number(1)])

    /// Each field's own change, as a caller would make it.
    static let changes: [(String, @Sendable (inout TraceMetadata) -> Void)] = [
        ("id", { $0.id = "b" }),
        ("created", { $0.created = "2026-11-30T02:00:00Z" }),
        ("source", { $0.source = "ios" }),
        ("screen", { $0.screen.width = 390 }),
        ("edge", { $0.edge = nil }),
        ("intent", { $0.intent = .finish }),
        ("sheet", { $0.sheet?.start = 0 }),
        ("tags", { $0.tags.append("u") }),
        ("notes", { $0.notes += "!" }),
        ("velocity", { $0.velocityOrigin = "impulse" }),
        ("extra", { $0.extra["k"] = .number(2) })
    ]

    @Test(arguments: changes.indices)
    func aChangedCopyDiffersAndTheOriginalStaysAsItWas(change: Int) {
        let (field, body) = Self.changes[change]
        let original = Self.full
        var copy = original
        #expect(copy == original)
        body(&copy)
        #expect(copy != original, "changing \(field) left the copy equal")
        #expect(original == Self.full, "changing \(field) in a copy changed the original")
        // Equal values hash alike, whichever box they hold: the same change made twice.
        var again = Self.full
        body(&again)
        #expect(again == copy)
        #expect(Set([again, copy]).count == 1)
        #expect(Set([original, copy]).count == 2)
    }

    @Test
    func metadataBuiltFieldByFieldEqualsMetadataBuiltAtOnce() {
        var built = TraceMetadata(id: "a")
        built.created = Self.full.created
        built.source = Self.full.source
        built.screen = Self.full.screen
        built.edge = Self.full.edge
        built.intent = Self.full.intent
        built.sheet = Self.full.sheet
        built.tags = Self.full.tags
        built.notes = Self.full.notes
        built.velocityOrigin = Self.full.velocityOrigin
        built.extra = Self.full.extra
        #expect(built == Self.full)
        #expect(built.hashValue == Self.full.hashValue)
    }
}

/// A header whose id was left out (its file's name) reads as that name from version 3, and is
/// refused before it, where every header stored its id.
struct LeftOutIdentifierTests {
    static func fields(_ metadata: TraceMetadata, name: String) throws -> [UInt8] {
        var writer = ByteWriter()
        try MetadataCoding.encode(metadata, name: name, into: &writer)
        return writer.bytes
    }

    @Test func aLeftOutIdIsTheNameFromVersionThree() throws {
        let metadata = TraceMetadata(id: "swipe-7", source: "ios", tags: ["a"])
        let bytes = try Self.fields(metadata, name: "swipe-7")
        for version in 3...HeaderFormat.version {
            var named = ByteReader(bytes)
            let read = try MetadataCoding.decodeFields(&named, version: version, name: "swipe-7")
            #expect(read.metadata == metadata)
            #expect(!read.storesID)
            var unnamed = ByteReader(bytes)
            #expect(try MetadataCoding.decodeFields(&unnamed, version: version).metadata.id == "")
        }
        // Stored, the id is read as it is whatever the name.
        var stored = ByteReader(try Self.fields(metadata, name: "other"))
        let read = try MetadataCoding.decodeFields(&stored, version: 3, name: "other")
        #expect(read.metadata == metadata)
        #expect(read.storesID)
    }

    @Test func aLeftOutIdIsABadHeaderBeforeVersionThree() throws {
        // Fields version 2 knows: no tags, a source string.
        let bytes = try Self.fields(TraceMetadata(id: "swipe-7", source: "a source of its own"), name: "swipe-7")
        var reader = ByteReader(bytes)
        let error = #expect(throws: PanTraceError.self) { try MetadataCoding.decodeFields(&reader, version: 2, name: "swipe-7") }
        #expect(error?.description.contains("metadata has no id") == true)
    }
}
