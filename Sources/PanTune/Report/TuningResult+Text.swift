internal import Foundation
internal import TransitionEngine
internal import PanTrace

extension TuningResult {
    /// Rows of the table shown when the grid is larger than this; the rest go to `--csv`.
    package static let maximumTableRows = 40

    /// Misjudged traces listed in the text report unless every one is asked for.
    package static let maximumListedMisjudged = 10

    /// The human-readable report: the table (every point, or the best rows of a large grid),
    /// the best point, the defaults, the improvement, the notes on how far to trust them, the
    /// breakdown by tag and source, and the traces still misjudged (the first
    /// ``maximumListedMisjudged``, or all with `listingAll`).
    package func text(listingAll: Bool = false) -> String {
        var lines: [String] = []
        let keys = grid.axes.map(\.key)
        var excluded = ["\(unknownIntentCount) unknown intent", "\(unreadable.count) unreadable"]
        excluded += fitExclusions
        if !unreplayable.isEmpty { excluded.append("\(unreplayable.count) without a release") }
        lines.append(
            "tune \(preset): \(traceCount) traces (\(finishCount) finish, \(cancelCount) cancel); excluded: \(excluded.joined(separator: ", "))")
        for misfit in notFitting.prefix(Self.maximumListedMisfits) {
            lines.append("  not driving \(preset): \(misfit.file): \(misfit.reason)")
        }
        if notFitting.count > Self.maximumListedMisfits {
            lines.append("  … and \(notFitting.count - Self.maximumListedMisfits) more not driving \(preset) (--json lists them all)")
        }
        for note in unreachable { lines.append("warning: \(note)") }
        lines.append("grid: " + grid.axes.map { "\($0.key) (\($0.values.count) values)" }.joined(separator: " × ") + " = \(grid.pointCount) points")
        lines.append("")

        var rows = Array(scores.indices)
        var note: String?
        if rows.count > Self.maximumTableRows {
            rows.sort { scores[$0].ranks(above: scores[$1]) || (!scores[$1].ranks(above: scores[$0]) && $0 < $1) }
            rows = Array(rows.prefix(Self.maximumTableRows))
            note = "(the \(Self.maximumTableRows) best of \(grid.pointCount) points; --csv writes them all)"
        }
        let header = keys + ["accuracy", "correct", "false fin", "false can", "flip", "mean margin", "min margin", "mean disc pt/s", "mean T s"]
        var table = [header]
        for row in rows {
            let score = scores[row]
            table.append(grid.values(ofPoint: row).map(Self.text) + Self.columns(score))
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for (number, row) in table.enumerated() {
            let marker = number > 0 && rows[number - 1] == bestPoint ? " ← best" : ""
            let line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()) + marker)
        }
        if let note { lines.append(note) }
        lines.append("")

        func settings(_ values: [PresetValue]) -> String {
            zip(keys, values).map { "\($0)=\(Self.text($1))" }.joined(separator: " ")
        }
        func summary(_ score: PointScore) -> String {
            "accuracy \(Self.percent(score.accuracy)) (\(score.correct)/\(score.traces)), \(score.falseFinishes) false finishes, "
                + "\(score.falseCancels) false cancels, min margin \(Self.fixed(score.minimumMargin, 3)), "
                + "mean discontinuity \(Self.fixed(score.meanDiscontinuity, 1)) pt/s, mean completion \(Self.fixed(score.meanCompletionTime, 3)) s"
        }
        lines.append("best:     \(settings(bestValues)): \(summary(best))")
        lines.append("defaults: \(settings(defaultValues)): \(summary(defaults))")
        let gain = (best.accuracy - defaults.accuracy) * 100
        lines.append(
            "improvement: \(gain >= 0 ? "+" : "")\(Self.fixed(gain, 1)) points of accuracy (\(fixedByBest) fixed, \(brokenByBest) newly wrong)")
        for note in notes { lines.append("note: \(note)") }
        lines += breakdownLines()
        if misjudged.isEmpty {
            lines.append("the best point decides every trace as meant")
        } else {
            lines.append("still misjudged by the best point (\(misjudged.count)):")
            let shown = listingAll ? misjudged.count : Self.maximumListedMisjudged
            for miss in misjudged.prefix(shown) {
                lines.append("  \(miss.file): meant \(miss.intent.rawValue), \(miss.reason)")
            }
            if misjudged.count > shown {
                lines.append("  … and \(misjudged.count - shown) more (--all lists every one; --json has them all)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The breakdown by tag and source as a table, empty when there is none.
    private func breakdownLines() -> [String] {
        guard let findings, !findings.breakdown.isEmpty else { return [] }
        let keys = grid.axes.map(\.key)
        var table = [["group", "traces", "best", "defaults", "own best", "own best point"]]
        for group in findings.breakdown {
            let own = zip(keys, group.ownValues).map { "\($0)=\(Self.text($1))" }.joined(separator: " ")
            func share(_ correct: Int) -> String { "\(Self.percent(Double(correct) / Double(group.traces))) (\(correct))" }
            table.append([
                "\(group.kind) \(group.value)", "\(group.traces)", share(group.bestCorrect), share(group.defaultsCorrect), share(group.ownCorrect),
                own + (group.ownEqualPoints > 1 ? " (1 of \(group.ownEqualPoints) equal)" : "")
            ])
        }
        let widths = table[0].indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = ["by tag and source (accuracy of the best point, the defaults, and each group's own best):"]
        for row in table {
            let line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            lines.append("  " + String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return lines
    }

    /// Traces not driving the preset listed in the text report; `--json` lists them all.
    package static let maximumListedMisfits = 10

    /// The fit exclusions as phrases (`"3 moving along the other axis"` …), empty when every
    /// trace drives the preset.
    package var fitExclusions: [String] {
        var phrases: [String] = []
        if offAxisCount > 0 { phrases.append("\(offAxisCount) moving along the other axis") }
        if noProgressCount > 0 {
            phrases.append("\(noProgressCount) never reaching progress \(TuningResult.text(.number(GestureFit.minimumPeakProgress)))")
        }
        if wrongWayCount > 0 { phrases.append("\(wrongWayCount) dragging the wrong way") }
        return phrases
    }

    /// Every point as CSV: one column per axis, then the score columns, then `equally_best`
    /// (1 for a point with the best point's number of correct decisions). When traces were
    /// left out for not driving the preset, `#` comment lines after the rows say how many and
    /// why; the notes follow as `# note:` lines.
    package func csv() -> String {
        let keys = grid.axes.map(\.key)
        let header =
            keys + [
                "accuracy", "correct", "false_finishes", "false_cancels", "flip_prone", "mean_margin", "min_margin", "mean_discontinuity_pt_s",
                "mean_completion_s", "equally_best"
            ]
        var lines = [header.map(Self.csvField).joined(separator: ",")]
        lines.reserveCapacity(scores.count + 1)
        for (index, score) in scores.enumerated() {
            let fields =
                grid.values(ofPoint: index).map(\.description) + [
                    "\(score.accuracy)", "\(score.correct)", "\(score.falseFinishes)", "\(score.falseCancels)", "\(score.flipProne)",
                    "\(score.meanMargin)", "\(score.minimumMargin)", "\(score.meanDiscontinuity)", "\(score.meanCompletionTime)",
                    score.correct == best.correct ? "1" : "0"
                ]
            lines.append(fields.map(Self.csvField).joined(separator: ","))
        }
        if !notFitting.isEmpty {
            lines.append("# excluded, not driving \(preset): " + fitExclusions.joined(separator: ", "))
            for misfit in notFitting { lines.append("# \(misfit.file): \(misfit.verdict.rawValue): \(misfit.reason)") }
        }
        for note in unreachable { lines.append("# warning: \(note)") }
        for note in notes { lines.append("# note: \(note)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func columns(_ score: PointScore) -> [String] {
        [
            percent(score.accuracy), "\(score.correct)/\(score.traces)", "\(score.falseFinishes)", "\(score.falseCancels)", "\(score.flipProne)",
            fixed(score.meanMargin, 3), fixed(score.minimumMargin, 3), fixed(score.meanDiscontinuity, 1), fixed(score.meanCompletionTime, 3)
        ]
    }

    static func text(_ value: PresetValue) -> String {
        switch value {
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        case .choice(let name): name
        }
    }

    static func percent(_ fraction: Double) -> String { fixed(fraction * 100, 1) + "%" }

    /// `value` to `digits` decimals; a value that rounds to zero prints as 0, never "-0.0".
    static func fixed(_ value: Double, _ digits: Int) -> String { DecimalText.fixed(value, digits: digits, negativeZero: false) }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
