internal import PanReplay
package import TransitionEngine

/// One axis of a tuning grid: a parameter key and the values to try, in order.
///
/// Parsed from `KEY=FROM:TO:STEP` (inclusive, e.g. `threshold=0.2:0.8:0.05`, 13 values) or
/// `KEY=V1,V2,…` (numbers or names, e.g. `velocity=recorded,lsq2`).
package struct GridAxis: Sendable, Hashable {
    /// The parameter key: one of the preset's catalog keys, or `velocity`.
    package var key: String
    /// The values, in the order given.
    package var values: [PresetValue]

    /// The largest number of values one range may produce.
    package static let maximumValues = 100_000_000

    /// Creates an axis.
    ///
    /// - Precondition: `values` is not empty.
    package init(key: String, values: [PresetValue]) {
        precondition(!values.isEmpty, "a grid axis needs at least one value")
        self.key = key
        self.values = values
    }

    /// Parses `KEY=FROM:TO:STEP` or `KEY=V1,V2,…`.
    ///
    /// Range values are `FROM + i·STEP` for every `i` that stays at or below `TO` (within
    /// 1e-9 of a step, so `0.2:0.8:0.05` includes 0.8), rounded to the most decimals written in
    /// the three numbers, so `0.35` is 0.35 and not 0.35000000000000003.
    ///
    /// - Throws: ``ReplayError`` with the reason: no `=`, an empty list or element, a zero or
    ///   negative step, `FROM` above `TO`, a non-number in a range, or a range too long.
    package init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), !text[..<equals].isEmpty else {
            throw ReplayError.malformedAssignment(text, expected: "KEY=FROM:TO:STEP or KEY=V1,V2,… (e.g. threshold=0.2:0.8:0.05)")
        }
        let key = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        guard !spec.isEmpty else { throw ReplayError.emptyGrid("axis '\(key)' has no values") }
        if spec.contains(":") {
            self.init(key: key, values: try Self.range(key: key, spec: spec, bounds: Self.bounds(key: key, spec: spec)))
        } else {
            let items = spec.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard !items.contains(where: \.isEmpty) else {
                throw ReplayError.badGridValue(key, spec, "empty value in the list")
            }
            self.init(key: key, values: items.map { PresetValue(parsing: $0) })
        }
    }

    /// How many values `text` would give, found without building them (so a grid can be
    /// refused for its size before any memory is spent on it).
    /// - Throws: ``ReplayError`` for the same malformed text ``init(parsing:)`` refuses.
    static func valueCount(parsing text: String) throws -> Int {
        guard let equals = text.firstIndex(of: "="), !text[..<equals].isEmpty else { return try GridAxis(parsing: text).values.count }
        let key = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        guard spec.contains(":") else { return spec.split(separator: ",", omittingEmptySubsequences: false).count }
        return try bounds(key: key, spec: spec).count
    }

    private struct RangeBounds {
        var from: Double, step: Double, count: Int
        var parts: [String]
    }

    private static func bounds(key: String, spec: String) throws -> RangeBounds {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard parts.count == 3 else {
            throw ReplayError.badGridValue(key, spec, "a range is FROM:TO:STEP")
        }
        guard let from = Double(parts[0]), let to = Double(parts[1]), let step = Double(parts[2]),
            from.isFinite, to.isFinite, step.isFinite
        else {
            throw ReplayError.badGridValue(key, spec, "FROM, TO and STEP must be finite numbers")
        }
        guard step != 0 else { throw ReplayError.zeroStep(key) }
        guard step > 0 else { throw ReplayError.badGridValue(key, spec, "the step must be positive") }
        guard from <= to else {
            throw ReplayError.emptyGrid("axis '\(key)': FROM \(parts[0]) is above TO \(parts[1]), so the range has no values")
        }
        let span = (to - from) / step
        guard span < Double(maximumValues) else {
            throw ReplayError.badGridValue(key, spec, "more than \(maximumValues) values on one axis")
        }
        return RangeBounds(from: from, step: step, count: Int((span + 1e-9).rounded(.down)) + 1, parts: parts)
    }

    private static func range(key: String, spec: String, bounds: RangeBounds) throws -> [PresetValue] {
        let (from, step, count) = (bounds.from, bounds.step, bounds.count)
        var decimals: Int? = 0
        for part in bounds.parts {
            guard let written = Self.decimals(part), let most = decimals else {
                decimals = nil
                break
            }
            decimals = max(most, written)
        }
        return (0..<count).map { index in
            let value = from + Double(index) * step
            guard let decimals else { return .number(value) }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return .number((value * scale).rounded() / scale)
        }
    }

    /// Digits after the decimal point as written, or nil for exponent notation or too many.
    private static func decimals(_ text: String) -> Int? {
        guard !text.contains(where: { $0 == "e" || $0 == "E" }) else { return nil }
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        let digits = text.distance(from: dot, to: text.endIndex) - 1
        return digits <= 15 ? digits : nil
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
