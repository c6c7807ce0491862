internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

extension ReplayCommand {
    /// `replay FILE --preset floatingpanel --set detents=80,400,600 --set start=2`: the gesture
    /// as a drag of a sheet, through one library's rule (docs/MODEL.md §9).
    func replaySheet(_ preset: String) async throws {
        var detents: String?
        var start: String?
        var settings: [String] = []
        for text in assignments {
            let key = try ReplayParameters.assignment(parsing: text).key
            switch key {
            case "detents": detents = text.split(separator: "=", maxSplits: 1).last.map(String.init)
            case "start": start = text.split(separator: "=", maxSplits: 1).last.map(String.init)
            default: settings.append(text)
            }
        }
        guard let detents else {
            throw CLIFailure("preset '\(preset)' is a sheet library: give the sheet with --set detents=80,400,600 (and --set start=N)")
        }
        let setup = try SheetReplay.Setup(
            parsingDetents: detents, start: start, presets: preset, assignments: settings, screen: screen.map(Size.init))
        let contents = try TraceFiles.read(file, reader: read.reader)
        for warning in contents.warnings { StandardError.line("warning: \(warning)") }
        let replay = try SheetReplay(setup)
        let gesture = try replay.replay(contents.trace)
        guard let verdict = gesture.verdicts.first else { preconditionFailure("one library that can drive the sheet gives one verdict") }
        let motion = try replay.motion(of: contents.trace, gesture, verdict)
        let summary = SheetReplaySummary(setup: setup, gesture: gesture, verdict: verdict, motion: motion)
        let format = Self.resolved(format, isTerminal: isatty(STDOUT_FILENO) == 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if format == .jsonl || realtime {
            let clock = ContinuousClock()
            let started = clock.now
            for frame in motion.frames(rate: Double(fps)) {
                if realtime { try await clock.sleep(until: started + .seconds(frame.t / (speed ?? 1))) }
                if format == .jsonl { try StandardOutput.write(Array(try encoder.encode(SheetFrameLine(frame: frame))) + [0x0A]) }
            }
        }
        if format == .text {
            print(summary.text())
        } else {
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        }
    }
}

/// The summary of one sheet replay: the `type: summary` line of docs/DETENTS.md.
struct SheetReplaySummary: Encodable {
    let setup: SheetReplay.Setup
    let gesture: SheetReplay.Gesture
    let verdict: SheetReplay.Verdict
    let motion: SheetMotion

    enum CodingKeys: String, CodingKey {
        case type, preset, detents, start, detent, reason, velocity, estimator, margin
        case releasePosition = "release_position"
        case settle = "settle_s"
        case settleMotion = "settle_motion"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("summary", forKey: .type)
        try c.encode(verdict.preset.rawValue, forKey: .preset)
        try c.encode(setup.detents, forKey: .detents)
        try c.encode(gesture.start, forKey: .start)
        try c.encode(verdict.decision.outcome.target, forKey: .detent)
        try c.encode(verdict.decision.reason, forKey: .reason)
        try c.encode(verdict.velocity.isFinite ? verdict.velocity : nil, forKey: .velocity)  // vaul: a zero-length press is ∞
        try c.encode(verdict.estimator?.rawValue ?? DetentVelocityGate.pressMean.rawValue, forKey: .estimator)
        try c.encode(verdict.margin?.velocityChange, forKey: .margin)
        try c.encode(gesture.releasePosition, forKey: .releasePosition)
        try c.encode(motion.settle.duration, forKey: .settle)
        try c.encode(motion.settle.summary, forKey: .settleMotion)
    }

    func text() -> String {
        let outcome: String
        switch verdict.decision.outcome {
        case .detent(let index): outcome = "detent \(index) (\(DetentAtlas.points(setup.detents[index])) pt)"
        case .dismissed: outcome = "dismissed"
        }
        var lines = [
            "\(gesture.id): \(verdict.preset.rawValue) on detents \(setup.detents.map(DetentAtlas.points).joined(separator: ", ")) pt from detent \(gesture.start)",
            "released at \(DetentAtlas.points(gesture.releasePosition)) pt, velocity read \(DetentAtlas.points(verdict.velocity)) pt/s (\(verdict.estimator?.rawValue ?? "press mean"))",
            "settles: \(outcome)",
            "why: \(verdict.decision.reason)",
            "moves: \(motion.settle.summary), at rest after \(DecimalText.fixed(motion.settle.duration, digits: 3)) s"
        ]
        if let margin = verdict.margin {
            let way = margin.velocityChange < 0 ? "slower downward (or faster upward)" : "faster downward (or slower upward)"
            lines.append("margin: \(DetentAtlas.points(abs(margin.velocityChange))) pt/s \(way) would give \(margin.outcome)")
        } else {
            lines.append("margin: no velocity within ±\(Int(DetentPreset.marginSearch)) pt/s changes it")
        }
        return lines.joined(separator: "\n")
    }
}

/// One `type: frame` line of a sheet replay (docs/DETENTS.md).
struct SheetFrameLine: Encodable {
    let frame: SheetMotion.Frame

    enum CodingKeys: String, CodingKey { case type, t, phase, top }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("frame", forKey: .type)
        try c.encode(frame.t, forKey: .t)
        try c.encode(frame.phase.rawValue, forKey: .phase)
        try c.encode(frame.top, forKey: .top)
    }
}
