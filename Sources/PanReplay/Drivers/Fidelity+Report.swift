internal import PanTrace
internal import TransitionEngine

extension Fidelity {
    /// The report as `pantrace emit --json` writes it (docs/EMIT.md, "The fidelity report").
    package struct Report: Encodable, Sendable {
        struct Velocity: Encodable, Sendable {
            var estimator: String
            var original: [Double]?
            var delivered: [Double]?
            var error: Double
            var envelope: Double?
            var modelledError: Double?

            enum CodingKeys: String, CodingKey {
                case estimator, original, delivered, error, envelope
                case modelledError = "modelled_error"
            }
        }

        struct DecisionRow: Encodable, Sendable {
            var preset: String
            var estimator: String
            var original: String
            var delivered: String?
            var same: Bool
            var driven: Bool
            var fragile: Bool
            var margin: Double
            var marginUnit: String

            enum CodingKeys: String, CodingKey {
                case preset, estimator, original, delivered, same, driven, fragile, margin
                case marginUnit = "margin_unit"
            }
        }

        var trace: String
        var target: String
        var source: String
        var carriesPath: Bool
        var limitations: String
        var velocities: [Velocity]
        var decisions: [DecisionRow]
        var keepsDecision: Bool
        var notes: [String]
        var suggestions: [String]

        enum CodingKeys: String, CodingKey {
            case trace, target, source, velocities, decisions, notes, suggestions, limitations
            case carriesPath = "carries_path"
            case keepsDecision = "keeps_decision"
        }
    }

    /// The report, `source` saying whether the delivered events were modelled or measured.
    package func report(source: String) -> Report {
        func pair(_ vector: PanVector?) -> [Double]? { vector.map { [Self.rounded($0.x), Self.rounded($0.y)] } }
        return Report(
            trace: trace, target: target.rawValue, source: source, carriesPath: target.carriesPath, limitations: target.limitations,
            velocities: velocities.map {
                .init(
                    estimator: $0.estimator.rawValue, original: pair($0.original), delivered: pair($0.delivered), error: Self.rounded($0.error),
                    envelope: $0.envelope.map(Self.rounded), modelledError: $0.modelledError.map(Self.rounded))
            },
            decisions: decisions.map {
                .init(
                    preset: $0.preset, estimator: $0.estimator.rawValue, original: $0.original.rawValue, delivered: $0.delivered?.rawValue,
                    same: $0.isSame, driven: $0.isDriven, fragile: $0.isFragile, margin: Self.rounded($0.margin), marginUnit: $0.marginUnit)
            },
            keepsDecision: keepsDecision, notes: notes, suggestions: suggestions)
    }

    /// One line for the total of a run over many recordings: how many keep every decision
    /// they drive, and for those that do not, which decisions changed (or that they drive none).
    package static func totalLine(_ reports: [Report], target: DriverTarget) -> String {
        let kept = reports.filter(\.keepsDecision)
        let lost = reports.filter { !$0.keepsDecision }
        var line = "total: \(kept.count) of \(reports.count) recordings keep every decision they drive under \(target.rawValue)"
        guard !lost.isEmpty else { return line + "." }
        let shown = lost.prefix(10).map { report -> String in
            let changed = report.decisions.filter { $0.driven && !$0.same && !$0.fragile }.map {
                "\($0.preset) with \($0.estimator): \($0.original) → \($0.delivered ?? "no pan")"
            }
            let why = changed.isEmpty ? "it drives none of the presets" : changed.prefix(3).joined(separator: "; ") + (changed.count > 3 ? "; …" : "")
            return "\(report.trace) (\(why))"
        }
        line += "; \(lost.count == 1 ? "this one does" : "these \(lost.count) do") not, because: " + shown.joined(separator: ", ")
        if lost.count > shown.count { line += ", and \(lost.count - shown.count) more (their reports above)" }
        return line + "."
    }

    static func rounded(_ value: Double) -> Double {
        value.isFinite ? (value * 1000).rounded() / 1000 : 0
    }

    /// A few lines for people: each estimator's release velocity as recorded and as the driver
    /// delivers it, with how far apart they are (a difference, not an uncertainty); an
    /// estimator that reads no velocity from the delivered events, and why; the decisions kept,
    /// naming the presets; those that changed; and what would carry them.
    package var textLines: [String] {
        var lines = ["\(trace) → \(target.rawValue):"]
        let speeds = velocities.map { reading in
            "\(reading.estimator.rawValue) \(DriverScript.number(reading.originalSpeed, decimals: 0)) → "
                + "\(DriverScript.number(reading.deliveredSpeed, decimals: 0)) pt/s (off by \(DriverScript.number(reading.error, decimals: 1))"
                + (reading.envelope.map { "; timing noise alone: up to \(DriverScript.number($0, decimals: 1))" } ?? "") + ")"
        }
        lines.append("  release velocity, recorded → delivered: " + speeds.joined(separator: ", "))
        for reading in velocities where reading.originalSpeed > 0 && reading.delivered.map({ $0 == .zero }) ?? true {
            // Flutter's estimator reads none from fewer than three events within its window.
            let why = reading.estimator == .flutter ? " (Flutter's estimator needs three within its window)" : ""
            lines.append(
                "  note: \(reading.estimator.rawValue) reads no release velocity from the delivered events (0 pt/s): at the driver's event rate "
                    + "the drag's last moments give it too few events\(why)")
        }
        let driven = decisions.filter(\.isDriven)
        let kept = driven.filter(\.isSame).count
        if driven.isEmpty {
            lines.append("  decisions: the gesture drives none of the presets asked for (it moves across their axes)")
        } else {
            let presets = Array(Set(driven.map(\.preset))).sorted()
            let estimators = Array(Set(driven.map(\.estimator.rawValue))).sorted()
            lines.append(
                "  decisions: \(kept) of \(driven.count) the same (preset\(presets.count == 1 ? "" : "s") \(presets.joined(separator: ", ")) "
                    + "× estimator\(estimators.count == 1 ? "" : "s") \(estimators.joined(separator: ", ")))")
        }
        let fragile = driven.filter(\.isFragile).count
        if fragile > 0 { lines.append("  \(fragile) of them too close to call with this much timing noise (not counted)") }
        for row in driven where !row.isSame && !row.isFragile {
            lines.append(
                "  changed: \(row.preset) with \(row.estimator.rawValue): \(row.original.rawValue) → \(row.delivered?.rawValue ?? "no pan") (margin \(DriverScript.number(row.margin, decimals: 3)) \(row.marginUnit))"
            )
        }
        for note in notes { lines.append("  note: \(note)") }
        for suggestion in suggestions { lines.append("  suggestion: \(suggestion)") }
        return lines
    }
}
