internal import PanTrace
package import TransitionEngine
internal import Foundation

/// What `pantrace detents` reports: each gesture's detent under each library, and how often
/// each pair of libraries disagrees (docs/DETENTS.md).
package struct DetentAtlas: Sendable {
    /// The libraries, in column order.
    package let presets: [DetentPresetName]
    /// The sheet's detents.
    package let detents: [Double]
    /// The start detent.
    package let start: Int
    /// Whether each gesture starts where its direction makes sense (`--start auto`).
    package let startsByDirection: Bool
    /// Every gesture, with the file it came from.
    package private(set) var rows: [(file: String, gesture: SheetReplay.Gesture)] = []
    /// For each pair (row, column) of libraries, in how many gestures their outcomes differ.
    package private(set) var disagreements: [[Int]]

    /// An empty atlas of `setup`'s libraries.
    package init(setup: SheetReplay.Setup) {
        self.presets = setup.presets.map(\.name)
        self.detents = setup.detents
        self.start = setup.start
        self.startsByDirection = setup.startsByDirection
        self.disagreements = Array(repeating: Array(repeating: 0, count: presets.count), count: presets.count)
    }

    /// Adds one gesture.
    package mutating func add(_ gesture: SheetReplay.Gesture, file: String) {
        rows.append((file, gesture))
        let outcomes = presets.map { name in gesture.verdicts.first { $0.preset == name }?.decision.outcome }
        for i in presets.indices {
            for j in presets.indices where i != j && outcomes[i] != outcomes[j] {
                disagreements[i][j] += 1
            }
        }
    }

    /// The report for people: one row per gesture, then the disagreement matrix.
    package func text() -> String {
        var lines: [String] = []
        let positions = detents.map { Self.points($0) }.joined(separator: ", ")
        lines.append(
            "sheet: detents \(positions) pt (0 = most expanded … \(detents.count - 1)), start \(startsByDirection ? "auto (up from \(detents.count - 1), down from 0)" : "\(start)")"
        )
        lines.append("cell: the detent each library settles at; closed = dismissed")
        lines.append("")
        let fileWidth = min(max(rows.map(\.file.count).max() ?? 7, 7), 48)
        var header = "gesture".padding(toLength: fileWidth, withPad: " ", startingAt: 0) + "  from" + "  " + "release".leftPadded(to: 9)
        for name in presets { header += "  " + name.rawValue }
        lines.append(header)
        for (file, gesture) in rows {
            var line =
                Self.fitted(file, fileWidth) + "  " + "\(gesture.start)".leftPadded(to: 4) + "  "
                + (Self.points(gesture.releasePosition) + " pt").leftPadded(to: 9)
            for name in presets {
                let cell = gesture.verdicts.first { $0.preset == name }.map { Self.cell($0.decision.outcome) } ?? "-"
                line += "  " + cell.leftPadded(to: name.rawValue.count)
            }
            lines.append(line)
        }
        lines.append("")
        guard rows.count > 0, presets.count > 1 else {
            lines.append("\(rows.count) gesture\(rows.count == 1 ? "" : "s")")
            return lines.joined(separator: "\n")
        }
        lines.append("disagreement: share of the \(rows.count) gesture\(rows.count == 1 ? "" : "s") where the two libraries settle differently")
        let width = presets.map(\.rawValue.count).max() ?? 0
        var matrixHeader = "".padding(toLength: width, withPad: " ", startingAt: 0)
        for name in presets { matrixHeader += "  " + name.rawValue }
        lines.append(matrixHeader)
        for (i, name) in presets.enumerated() {
            var line = name.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            for (j, other) in presets.enumerated() {
                let cell = i == j ? "·" : "\(Int((Double(disagreements[i][j]) * 100 / Double(rows.count)).rounded())) %"
                line += "  " + cell.leftPadded(to: other.rawValue.count)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func cell(_ outcome: DetentOutcome) -> String {
        outcome.index.map(String.init) ?? "closed"
    }

    package static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value))" : "\((value * 10).rounded() / 10)"
    }

    static func fitted(_ text: String, _ width: Int) -> String {
        if text.count <= width { return text.padding(toLength: width, withPad: " ", startingAt: 0) }
        return "…" + text.suffix(width - 1)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// One gesture as a JSON line of `pantrace detents --json` (docs/DETENTS.md).
package struct DetentGestureJSON: Encodable {
    let file: String
    let gesture: SheetReplay.Gesture

    /// The line for `gesture`, read from `file`.
    package init(file: String, gesture: SheetReplay.Gesture) {
        self.file = file
        self.gesture = gesture
    }

    private struct Verdict: Encodable {
        let detent: SheetLabel.Target
        let reason: String
        /// Null when not finite: vaul divides by a press time of zero, as JavaScript does, into ∞.
        let velocity: Double?
        let estimator: String
        let margin: Margin?

        struct Margin: Encodable {
            let velocityChange: Double
            let detent: SheetLabel.Target
            enum CodingKeys: String, CodingKey {
                case velocityChange = "velocity_change", detent
            }
        }

        enum CodingKeys: String, CodingKey {
            case detent, reason, velocity, estimator, margin
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(detent, forKey: .detent)
            try c.encode(reason, forKey: .reason)
            try c.encode(velocity, forKey: .velocity)
            try c.encode(estimator, forKey: .estimator)
            try c.encode(margin, forKey: .margin)
        }
    }

    enum CodingKeys: String, CodingKey {
        case file, id, start, releasePosition = "release_position", presets
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(gesture.id, forKey: .id)
        try c.encode(gesture.start, forKey: .start)
        try c.encode(gesture.releasePosition, forKey: .releasePosition)
        var presets: [String: Verdict] = [:]
        for verdict in gesture.verdicts {
            presets[verdict.preset.rawValue] = Verdict(
                detent: verdict.decision.outcome.target,
                reason: verdict.decision.reason, velocity: verdict.velocity.isFinite ? verdict.velocity : nil,
                estimator: verdict.estimator?.rawValue ?? DetentVelocityGate.pressMean.rawValue,
                margin: verdict.margin.map {
                    Verdict.Margin(velocityChange: $0.velocityChange, detent: $0.outcome.target)
                })
        }
        try c.encode(presets, forKey: .presets)
    }
}
