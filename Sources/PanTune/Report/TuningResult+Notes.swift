internal import TransitionEngine

extension TuningResult {
    /// The visible notes about how far to trust the best point (docs/TUNE.md), one sentence
    /// each, in the order the text report prints them: equal points, axes without effect, a
    /// best point on an edge, the accuracy's interval, the cross-validated accuracy, and
    /// anything left out. Empty for a result without ``findings``.
    package var notes: [String] {
        guard let findings else { return [] }
        var notes: [String] = []
        let keys = grid.axes.map(\.key)
        let chosen = zip(keys, bestValues).map { "\($0)=\(Self.text($1))" }.joined(separator: " ")
        let equal = findings.choice.equal
        if equal.count > 1 {
            let ranges = zip(grid.axes, equal.axes).map { axis, share in "\(axis.key) \(Self.describe(share, on: axis))" }
            notes.append(
                "\(equal.count) points are equally good (\(best.correct)/\(best.traces) correct)\(equal.isBox ? "" : ", not a box in the grid"): "
                    + ranges.joined(separator: ", ") + "; the tie rule chose \(chosen) by \(Self.phrase(findings.choice.decidedBy))")
        }
        if !findings.noEffectAxes.isEmpty {
            let list = findings.noEffectAxes.joined(separator: ", ")
            notes.append(
                "\(list) \(findings.noEffectAxes.count == 1 ? "changes" : "change") no decision on this grid: every value decides every trace alike")
        }
        for edge in findings.edges {
            notes.append(
                edge.isAtLimit
                    ? "the best \(edge.key)=\(Self.text(edge.value)) is at the \(edge.side) end of the grid and of the parameter's allowed range"
                    : "the best \(edge.key)=\(Self.text(edge.value)) is on the \(edge.side) edge of the grid: a wider grid may do better")
        }
        let ci = findings.accuracyInterval, dci = findings.defaultsInterval
        var interval =
            "accuracy \(Self.percent(best.accuracy)) (\(best.correct)/\(best.traces)), 95% interval \(Self.percent(ci.low))–\(Self.percent(ci.high)) "
            + "(exact binomial); defaults \(Self.percent(defaults.accuracy)), \(Self.percent(dci.low))–\(Self.percent(dci.high))"
        if ci.low <= dci.high && best.correct > defaults.correct { interval += "; the intervals overlap" }
        notes.append(interval)
        if let cross = findings.crossValidation {
            let gain = (cross.accuracy - cross.defaultsAccuracy) * 100
            notes.append(
                "cross-validated (\(cross.folds.count) folds, seed \(cross.seed)): tuned on the other folds, "
                    + "\(Self.percent(cross.accuracy)) (\(cross.correct)/\(cross.traces)) on held-out traces vs the defaults' "
                    + "\(Self.percent(cross.defaultsAccuracy)) (\(gain >= 0 ? "+" : "")\(Self.fixed(gain, 1)) points); "
                    + "the best point's \(Self.percent(best.accuracy)) was chosen on the traces it is scored on")
        }
        if let note = findings.detailNote { notes.append(note) }
        if findings.groupsLeftOut > 0 {
            notes.append("\(findings.groupsLeftOut) more tags or sources not broken down (the \(TraceSubsets.maximumGroups) largest are)")
        }
        return notes
    }

    /// An axis's share of a set of points: `0.3…0.45 (4 of 13 values)`, `any (0.1…3)`, `0.5`,
    /// or the names.
    static func describe(_ share: EqualPoints.Axis, on axis: GridAxis) -> String {
        let taken = axis.values.indices.filter { share.takes[$0] }.map { axis.values[$0] }
        let isNamed = axis.values.contains { $0.number == nil }
        if taken.count == 1 { return text(taken[0]) }
        if isNamed {
            return (share.isWhole ? "any of " : "") + taken.map(text).joined(separator: ", ")
        }
        let numbers = taken.compactMap(\.number)
        let span = "\(text(.number(numbers.min()!)))…\(text(.number(numbers.max()!)))"
        if share.isWhole { return "any (\(span))" }
        return "\(span) (\(taken.count) of \(axis.values.count) values)"
    }

    static func phrase(_ step: TieRule.Step) -> String {
        switch step {
        case .accuracy: "accuracy"
        case .minimumMargin: "the largest minimum margin"
        case .middle: "the middle of the equal range"
        case .defaults: "the nearest to the defaults' values"
        case .gridOrder: "grid order (nothing else separates them)"
        }
    }
}

extension TuningResult {
    /// The comment lines that head an emitted snippet: what was tuned on, the chosen values,
    /// and how far to trust them.
    package func provenance(command: String, paths: [String]) -> [String] {
        let keys = grid.axes.map(\.key)
        var lines = [
            "Command: \(command)",
            "Tuned on: \(paths.joined(separator: ", ")) (\(traceCount) labelled traces: \(finishCount) finish, \(cancelCount) cancel)",
            "Chosen: \(zip(keys, bestValues).map { "\($0)=\(Self.text($1))" }.joined(separator: " ")) (every other parameter at the preset's default)"
        ]
        var trust = "Accuracy \(Self.percent(best.accuracy)) (\(best.correct)/\(best.traces))"
        if let findings {
            trust += ", 95% interval \(Self.percent(findings.accuracyInterval.low))–\(Self.percent(findings.accuracyInterval.high)) (exact binomial)"
            if let cross = findings.crossValidation {
                trust += "; cross-validated \(Self.percent(cross.accuracy)) (\(cross.folds.count) folds, seed \(cross.seed))"
            }
        }
        trust += "; the preset's defaults \(Self.percent(defaults.accuracy))."
        lines.append(trust)
        if let equal = findings?.choice.equal, equal.count > 1 {
            lines.append("\(equal.count) grid points are equally good; the tie rule chose this one (docs/TUNE.md).")
        }
        return lines
    }
}
