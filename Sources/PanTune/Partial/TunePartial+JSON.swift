internal import PanReplay
package import Foundation
internal import PanTrace
internal import TransitionEngine

/// The partial file: JSON (docs/TUNE.md, "Tuning in shards"). Every double of a release state
/// is written as the 16 hex digits of its bits, so it is read back to the bit.
extension TunePartial {
    /// The largest count a partial may carry (2⁴⁰: more gestures than any corpus, and room to
    /// add millions of partials' counts).
    static let maximumCount = 1 << 40

    private struct Axis: Codable {
        var key: String
        var values: [PresetValue]
    }

    private struct Screen: Codable {
        var width: Double
        var height: Double
    }

    private struct Misfit: Codable {
        var file: String
        var verdict: String
        var reason: String
    }

    private struct GestureRecord: Codable {
        var file: String
        var id: String
        var intent: String
        var tags: [String]
        var source: String
        var foldHash: String
        var releases: [String]

        enum CodingKeys: String, CodingKey {
            case file, id, intent, tags, source, releases
            case foldHash = "fold_hash"
        }
    }

    private struct Document: Codable {
        var format: String
        var version: Int
        var preset: String
        var grid: [Axis]
        var fps: Double
        var screen: Screen?
        var releaseSets: [String]
        var unknownIntent: Int
        var notFitting: [Misfit]
        var unreplayable: [TraceCorpus.Failure]
        var unreadable: [TraceCorpus.Failure]
        var gestures: [GestureRecord]

        enum CodingKeys: String, CodingKey {
            case format, version, preset, grid, fps, screen, unreplayable, unreadable, gestures
            case releaseSets = "release_sets"
            case unknownIntent = "unknown_intent"
            case notFitting = "not_fitting"
        }
    }

    /// The partial as JSON (keys sorted, one gesture per line would be longer; it is compact).
    package func json() throws -> Data {
        let document = Document(
            format: Self.format, version: Self.version, preset: preset, grid: axes.map { Axis(key: $0.key, values: $0.values) },
            fps: frameRate, screen: screen.map { Screen(width: $0.width, height: $0.height) }, releaseSets: releaseKeys,
            unknownIntent: unknownIntent,
            notFitting: notFitting.map { Misfit(file: $0.file, verdict: $0.verdict.rawValue, reason: $0.reason) },
            unreplayable: unreplayable, unreadable: unreadable,
            gestures: gestures.map { gesture in
                GestureRecord(
                    file: gesture.trace.file, id: gesture.trace.id, intent: gesture.trace.intent.rawValue, tags: gesture.trace.tags,
                    source: gesture.trace.source, foldHash: Self.hex(gesture.trace.foldHash), releases: gesture.releases.map(Self.text))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(document)
        data.append(0x0A)
        return data
    }

    /// Reads a partial file's bytes.
    /// - Throws: ``ReplayError`` naming `file` and the field that is missing, of the wrong type
    ///   or out of range (a truncated file names where the JSON stops).
    package init(json data: Data, file: String) throws {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error, file: file)
        }
        func bad(_ field: String, _ reason: String) -> ReplayError { ReplayError.badPartial(file: file, field: field, reason: reason) }
        guard document.format == Self.format else { throw bad("format", "is \"\(document.format)\", not \"\(Self.format)\"") }
        guard document.version == Self.version else { throw bad("version", "is \(document.version); this build reads \(Self.version)") }
        guard document.fps.isFinite && document.fps > 0 else { throw bad("fps", "must be a positive number") }
        if let screen = document.screen, !(screen.width > 0 && screen.height > 0 && screen.width.isFinite && screen.height.isFinite) {
            throw bad("screen", "width and height must be positive numbers")
        }
        guard document.unknownIntent >= 0 else { throw bad("unknown_intent", "is negative") }
        // More than any corpus holds, and small enough that partials' counts add without overflow.
        guard document.unknownIntent <= Self.maximumCount else { throw bad("unknown_intent", "is more than \(Self.maximumCount)") }
        for (index, axis) in document.grid.enumerated() where axis.values.isEmpty {
            throw bad("grid[\(index)].values", "is empty")
        }
        var misfits: [TuningResult.Misfit] = []
        for (index, misfit) in document.notFitting.enumerated() {
            guard let verdict = GestureFit.Verdict(rawValue: misfit.verdict) else {
                throw bad("not_fitting[\(index)].verdict", "\"\(misfit.verdict)\" is not a verdict")
            }
            misfits.append(TuningResult.Misfit(file: misfit.file, verdict: verdict, reason: misfit.reason))
        }
        var gestures: [Gesture] = []
        gestures.reserveCapacity(document.gestures.count)
        for (index, record) in document.gestures.enumerated() {
            let field = "gestures[\(index)]"
            guard let intent = Intent(rawValue: record.intent), intent.outcome != nil else {
                throw bad("\(field).intent", "\"\(record.intent)\" is not finish or cancel")
            }
            guard record.foldHash.utf8.count == 16, let hash = UInt64(record.foldHash, radix: 16) else {
                throw bad("\(field).fold_hash", "must be 16 hex digits")
            }
            guard record.releases.count == document.releaseSets.count else {
                throw bad("\(field).releases", "has \(record.releases.count) states for \(document.releaseSets.count) release sets")
            }
            var releases: [ReleaseState] = []
            for (set, text) in record.releases.enumerated() {
                guard let state = Self.releaseState(text) else {
                    throw bad("\(field).releases[\(set)]", "is not 10 hex finite doubles (distance positive), a phase and 0 or 1")
                }
                releases.append(state)
            }
            let trace = TunedTrace(file: record.file, id: record.id, intent: intent, tags: record.tags, source: record.source, foldHash: hash)
            gestures.append(Gesture(trace: trace, releases: releases))
        }
        self.init(
            preset: document.preset, axes: document.grid.map { GridAxis(key: $0.key, values: $0.values) }, frameRate: document.fps,
            screen: document.screen.map { Size(width: $0.width, height: $0.height) }, releaseKeys: document.releaseSets,
            gestures: gestures, unknownIntent: document.unknownIntent, notFitting: misfits, unreplayable: document.unreplayable,
            unreadable: document.unreadable)
    }

    private static func describe(_ error: DecodingError, file: String) -> ReplayError {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .badPartial(file: file, field: path(context.codingPath + [key]), reason: "is missing")
        case .typeMismatch(let type, let context):
            return .badPartial(file: file, field: path(context.codingPath), reason: "is not of type \(type)")
        case .valueNotFound(let type, let context):
            return .badPartial(file: file, field: path(context.codingPath), reason: "is null, expected \(type)")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .badPartial(file: file, field: "(top level)", reason: "not valid JSON (truncated or damaged)")
            }
            return .badPartial(file: file, field: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .badPartial(file: file, field: "(top level)", reason: "cannot be read")
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `progress startProgress vx vy axisVelocity crossVelocity distance gain time lastMoveTime`
    /// as hex bits, then the phase and `hasChanged` as 0 or 1, separated by spaces.
    private static func text(_ state: ReleaseState) -> String {
        let doubles = [
            state.progress, state.startProgress, state.velocity.x, state.velocity.y, state.axisVelocity, state.crossVelocity,
            state.distance, state.gain, state.time, state.lastMoveTime
        ]
        return (doubles.map { hex($0.bitPattern) } + [state.phase.rawValue, state.hasChanged ? "1" : "0"]).joined(separator: " ")
    }

    private static func releaseState(_ text: String) -> ReleaseState? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 12 else { return nil }
        var doubles: [Double] = []
        for part in parts.prefix(10) {
            guard part.utf8.count == 16, let bits = UInt64(part, radix: 16) else { return nil }
            doubles.append(Double(bitPattern: bits))
        }
        guard let phase = GesturePhase(rawValue: String(parts[10])), parts[11] == "0" || parts[11] == "1" else { return nil }
        // Every number a replay gives is finite: a NaN or an infinity here was not written by `tune`.
        guard doubles[6] > 0, doubles.allSatisfy(\.isFinite) else { return nil }
        return ReleaseState(
            progress: doubles[0], velocity: Vector2(x: doubles[2], y: doubles[3]), axisVelocity: doubles[4], crossVelocity: doubles[5],
            distance: doubles[6], gain: doubles[7], phase: phase, time: doubles[8], lastMoveTime: doubles[9], startProgress: doubles[1],
            hasChanged: parts[11] == "1")
    }
}
