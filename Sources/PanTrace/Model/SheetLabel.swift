/// The sheet a gesture dragged and, when labelled, where the person meant it to come to rest
/// (docs/FORMAT.md §2.1, docs/MODEL.md §9.5).
///
/// Detents are the sheet's top edge in points from the top of the screen, most expanded first,
/// as `pantrace detents --detents` takes them. A recording with a ``target`` has the intent
/// ``Intent/detent``, and only such a recording does: ``TraceMetadata``'s checks refuse one
/// without the other.
public struct SheetLabel: Hashable, Sendable {
    /// Where the person meant the sheet to go.
    public enum Target: Hashable, Sendable, CustomStringConvertible {
        /// To rest at the detent with this index.
        case detent(Int)
        /// To close.
        case dismissed

        /// `2` or `dismissed`, as the JSON spells it.
        public var description: String {
            switch self {
            case .detent(let index): String(index)
            case .dismissed: "dismissed"
            }
        }
    }

    /// The detents, top-edge points, strictly increasing.
    public var detents: [Double]
    /// The index of the detent the sheet rested at when the drag began.
    public var start: Int
    /// Where the person meant the sheet to go; nil when nobody said.
    public var target: Target?

    /// The most detents a sheet has (no library in docs/MODEL.md §9 has more).
    public static let maximumDetents = 8

    /// A label. The values are not checked here; see ``problem``.
    public init(detents: [Double], start: Int, target: Target? = nil) {
        self.detents = detents
        self.start = start
        self.target = target
    }

    /// Why these values cannot describe a sheet, or nil when they can: 1 to 8 finite
    /// detents within ±``ValueLimits/coordinateMagnitude``, strictly increasing, and a start
    /// and a target that name one of them.
    public var problem: String? {
        guard (1...Self.maximumDetents).contains(detents.count) else {
            return "sheet has \(detents.count) detents; a sheet has 1 to \(Self.maximumDetents)"
        }
        for (index, value) in detents.enumerated() {
            guard value.isFinite, value.magnitude <= ValueLimits.coordinateMagnitude else {
                return "sheet detent \(index) is \(value), not a finite number of points"
            }
            if index > 0, value <= detents[index - 1] {
                return
                    "sheet detent \(index) (\(value)) is not below detent \(index - 1) (\(detents[index - 1])): detents go from the most expanded down"
            }
        }
        guard detents.indices.contains(start) else { return "sheet start \(start) names no detent (0…\(detents.count - 1))" }
        if case .detent(let index) = target, !detents.indices.contains(index) {
            return "sheet target \(index) names no detent (0…\(detents.count - 1))"
        }
        return nil
    }
}

extension SheetLabel: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case detents, start, target }

    /// Decodes and checks a label: exactly the keys the writer writes, values that describe a
    /// sheet. `target` is a detent index or `"dismissed"`.
    public init(from decoder: any Decoder) throws {
        let any = try decoder.container(keyedBy: AnyKey.self)
        for key in any.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: any, debugDescription: "sheet has an unknown key '\(key.stringValue)' (detents, start, target)")
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        detents = try c.decode([Double].self, forKey: .detents)
        start = try c.decode(Int.self, forKey: .start)
        if c.contains(.target) {
            if let index = try? c.decode(Int.self, forKey: .target) {
                target = .detent(index)
            } else if let word = try? c.decode(String.self, forKey: .target), word == "dismissed" {
                target = .dismissed
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .target, in: c, debugDescription: "sheet target is not a detent index or \"dismissed\"")
            }
        }
        if let problem {
            throw DecodingError.dataCorruptedError(forKey: .detents, in: c, debugDescription: problem)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(detents, forKey: .detents)
        try c.encode(start, forKey: .start)
        try c.encodeIfPresent(target, forKey: .target)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension SheetLabel.Target: Codable {
    /// A detent index, or the string `dismissed`: the one spelling of a target or a settled
    /// detent in every JSON PanTrace reads or writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let index = try? c.decode(Int.self) {
            self = .detent(index)
        } else if let word = try? c.decode(String.self), word == "dismissed" {
            self = .dismissed
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "sheet target is not a detent index or \"dismissed\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .detent(let index): try c.encode(index)
        case .dismissed: try c.encode("dismissed")
        }
    }
}
