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
