internal import PanTrace

/// The one error type of `PanReplay`: a trace that cannot be replayed, an unknown parameter,
/// or a grid that cannot be swept.
///
/// The cases live in a private code so that new ones can be added without breaking clients
/// ; ``description`` is the one line a user sees.
package struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case unknownParameter(key: String, preset: String, valid: [String])
        case invalidVelocity(value: String)
        case malformedAssignment(text: String, expected: String)
        case noRelease
        case neverBegan
        case emptyGrid(reason: String)
        case zeroStep(key: String)
        case badGridValue(key: String, text: String, reason: String)
        case duplicateAxis(key: String)
        case gridTooLarge(points: Int, limit: Int)
        case noTraces(reason: String)
        case tooLong(what: String, seconds: Double)
        case invalidScreen(reason: String)
        case cannotEmit(reason: String)
        case cannotEmitSheet(reason: String)
        case cannotExport(reason: String)
        case cannotDrive(target: String, reason: String)
        case infeasibleTarget(reason: String)
        case cannotMerge(reason: String)
        case badPartial(file: String, field: String, reason: String)
        case invalidSheet(reason: String)
    }

    private let code: Code
    /// The trace the error concerns (its identifier or file), if any.
    package let trace: String?

    private init(_ code: Code, trace: String? = nil) {
        self.code = code
        self.trace = trace
    }

    /// One line for the user, e.g.
    /// `preset 'zoom': unknown parameter 'treshold'; valid keys: threshold, …, velocity`.
    package var description: String {
        let prefix = trace.map { "\($0): " } ?? ""
        switch code {
        case .unknownParameter(let key, let preset, let valid):
            return "\(prefix)preset '\(preset)': unknown parameter '\(key)'; valid keys: \(valid.joined(separator: ", "))"
        case .invalidVelocity(let value):
            return "\(prefix)velocity = '\(value)' is not one of: \(VelocitySource.allCases.map(\.rawValue).joined(separator: ", "))"
        case .malformedAssignment(let text, let expected):
            return "\(prefix)'\(text)' is not \(expected)"
        case .noRelease:
            return "\(prefix)the gesture has no ended or cancelled sample (an unfinished or cut-off recording?); nothing to decide"
        case .neverBegan:
            return "\(prefix)the gesture ends before it begins; nothing to replay"
        case .emptyGrid(let reason):
            return "\(prefix)empty grid: \(reason)"
        case .zeroStep(let key):
            return "\(prefix)grid axis '\(key)': the step is zero; give a positive step, e.g. \(key)=0.2:0.8:0.05"
        case .badGridValue(let key, let text, let reason):
            return "\(prefix)grid axis '\(key)': '\(text)': \(reason)"
        case .duplicateAxis(let key):
            return "\(prefix)grid axis '\(key)' is given twice; give each key once"
        case .gridTooLarge(let points, let limit):
            return "\(prefix)the grid has \(points) points, more than \(limit); pass --yes to sweep it anyway"
        case .noTraces(let reason):
            return "\(prefix)nothing to tune: \(reason)"
        case .cannotMerge(let reason):
            return "\(prefix)cannot merge: \(reason)"
        case .badPartial(let file, let field, let reason):
            return "\(prefix)\(file): field \(field): \(reason)"
        case .tooLong(let what, let seconds):
            return "\(prefix)\(what) spans \(seconds) s; a replay covers at most \(Int(ValueLimits.replaySpan)) s (docs/REPLAY.md)"
        case .cannotExport(let reason):
            return "\(prefix)cannot export the replay: \(reason)"
        case .cannotEmit(let reason):
            return "\(prefix)cannot emit Swift: \(reason)"
        case .cannotEmitSheet(let reason):
            return "\(prefix)cannot emit: \(reason)"
        case .invalidScreen(let reason):
            return "\(prefix)cannot replay on this screen: \(reason)"
        case .cannotDrive(let target, let reason):
            return "\(prefix)cannot emit for \(target): \(reason)"
        case .infeasibleTarget(let reason):
            return "\(prefix)no gesture reads as that target: \(reason)"
        case .invalidSheet(let reason):
            return "\(prefix)cannot replay on this sheet: \(reason)"
        }
    }

    /// The same error, naming `trace`.
    package func about(_ trace: String) -> ReplayError {
        ReplayError(code, trace: trace)
    }

    /// Whether the grid was refused only for its size (so `--yes` would run it).
    package var isGridTooLarge: Bool {
        if case .gridTooLarge = code { return true }
        return false
    }

    package static func unknownParameter(_ key: String, preset: String, valid: [String]) -> Self {
        Self(.unknownParameter(key: key, preset: preset, valid: valid))
    }

    package static func invalidVelocity(_ value: String) -> Self { Self(.invalidVelocity(value: value)) }

    package static func malformedAssignment(_ text: String, expected: String) -> Self {
        Self(.malformedAssignment(text: text, expected: expected))
    }

    package static let noRelease = Self(.noRelease)
    package static let neverBegan = Self(.neverBegan)

    package static func cannotDrive(_ target: String, _ reason: String) -> Self { Self(.cannotDrive(target: target, reason: reason)) }
    package static func infeasibleTarget(_ reason: String) -> Self { Self(.infeasibleTarget(reason: reason)) }

    package static func emptyGrid(_ reason: String) -> Self { Self(.emptyGrid(reason: reason)) }
    package static func zeroStep(_ key: String) -> Self { Self(.zeroStep(key: key)) }

    package static func badGridValue(_ key: String, _ text: String, _ reason: String) -> Self {
        Self(.badGridValue(key: key, text: text, reason: reason))
    }

    package static func duplicateAxis(_ key: String) -> Self { Self(.duplicateAxis(key: key)) }

    package static func gridTooLarge(points: Int, limit: Int) -> Self { Self(.gridTooLarge(points: points, limit: limit)) }

    package static func noTraces(_ reason: String) -> Self { Self(.noTraces(reason: reason)) }

    package static func tooLong(_ what: String, seconds: Double) -> Self { Self(.tooLong(what: what, seconds: seconds)) }

    package static func invalidScreen(_ reason: String) -> Self { Self(.invalidScreen(reason: reason)) }
    package static func invalidSheet(_ reason: String) -> Self { Self(.invalidSheet(reason: reason)) }
    package static func cannotEmit(_ reason: String) -> Self { Self(.cannotEmit(reason: reason)) }
    package static func cannotEmitSheet(_ reason: String) -> Self { Self(.cannotEmitSheet(reason: reason)) }
    package static func cannotExport(_ reason: String) -> Self { Self(.cannotExport(reason: reason)) }
    package static func cannotMerge(reason: String) -> Self { Self(.cannotMerge(reason: reason)) }
    package static func badPartial(file: String, field: String, reason: String) -> Self {
        Self(.badPartial(file: file, field: field, reason: reason))
    }
}
