package import PanReplay
package import PanTrace
package import TransitionEngine
internal import Foundation

/// What a sheet library's sweep found (``DetentTuner/run(_:progress:)``): the best point and
/// the defaults, how their landings split into hits, skips, stucks and wrong ones, per start
/// detent, cross-validated, and the drags the best point still gets wrong.
package struct DetentTuning: Sendable {
    /// One start detent's drags under the best point and the defaults.
    package struct StartScore: Sendable, Hashable {
        /// The start detent's index.
        package var start: Int
        /// The best point's landings.
        package var best: DetentTuner.Landings
        /// The defaults' landings.
        package var defaults: DetentTuner.Landings
    }

    /// A drag the best point does not land where it was meant.
    package struct Miss: Sendable, Hashable {
        /// Its file.
        package var file: String
        /// The detent it began at.
        package var start: Int
        /// What was meant.
        package var meant: DetentOutcome
        /// Where the best point sent it.
        package var landed: DetentOutcome
        /// How that compares.
        package var landing: DetentLanding
        /// The branch of the library's rule, in words.
        package var reason: String
        /// The velocity the rule read, points per second.
        package var velocity: Double
    }

    package var library: DetentPresetName
    /// The grid's keys, in axis order.
    package var axes: [String]
    package var pointCount: Int
    package var choice: TieRule.Choice
    /// The best point's values, in axis order.
    package var bestValues: [PresetValue]
    package var best: DetentTuner.Landings
    package var defaults: DetentTuner.Landings
    package var byStart: [StartScore]
    /// Nil with fewer than two drags.
    package var crossValidation: TuningFindings.CrossValidation?
    package var misses: [Miss]
    package var unlabelled: Int
    package var notDriven: [TraceCorpus.Failure]
    package var unreplayable: [TraceCorpus.Failure]

    /// Whether some gestures were left out for a reason other than having no detent label
    /// (the command's exit status 3).
    package var hasSkipped: Bool { !unreplayable.isEmpty }

    /// `hit 84.0 % · skip 6.0 % · stuck 8.3 % · wrong 1.7 %`.
    static func rates(_ landings: DetentTuner.Landings) -> String {
        DetentLanding.allCases.map { "\($0.rawValue) \(percent(landings[$0], of: landings.total))" }.joined(separator: " · ")
    }

    static func percent(_ count: Int, of total: Int) -> String {
        total == 0 ? "–" : DecimalText.fixed(100 * Double(count) / Double(total), digits: 1) + " %"
    }

    static func interval(_ count: Int, of total: Int) -> String {
        let interval = BinomialInterval(correct: count, trials: total)
        return DecimalText.fixed(100 * interval.low, digits: 1) + "–" + DecimalText.fixed(100 * interval.high, digits: 1) + " %"
    }

    /// The report `pantrace tune --preset <sheet library>` prints; `listingAll` lists every
    /// miss, else the first ``shownMisses``.
    package func text(listingAll: Bool = false) -> String {
        let n = best.total
        var lines: [String] = []
        lines.append(
            "tune: \(library.rawValue), \(pointCount) point\(pointCount == 1 ? "" : "s"), \(n) gesture\(n == 1 ? "" : "s") labelled with a detent")
        var left = ["\(unlabelled) without a detent label"]
        if !notDriven.isEmpty { left.append("\(notDriven.count) on a sheet \(library.rawValue) cannot drive") }
        if !unreplayable.isEmpty { left.append("\(unreplayable.count) that cannot be replayed") }
        lines.append("left out: " + left.joined(separator: ", "))
        let values = zip(axes, bestValues).map { "\($0)=\($1)" }.joined(separator: ", ")
        let equal = choice.equal.count
        lines.append("best: \(values) (decided by \(choice.decidedBy.rawValue); \(equal) point\(equal == 1 ? "" : "s") as good)")
        lines.append(
            "  best      \(Self.rates(best))  (\(best[.hit])/\(n); hit 95 % interval \(Self.interval(best[.hit], of: n)))")
        lines.append(
            "  defaults  \(Self.rates(defaults))  (\(defaults[.hit])/\(n); hit 95 % interval \(Self.interval(defaults[.hit], of: n)))")
        if let cv = crossValidation {
            lines.append(
                "  cross-validated hit \(Self.percent(cv.correct, of: cv.traces)) (\(cv.correct)/\(cv.traces), 95 % \(Self.interval(cv.correct, of: cv.traces)); "
                    + "\(cv.folds.count) folds, seed \(cv.seed)); defaults \(Self.percent(Int((cv.defaultsAccuracy * Double(cv.traces)).rounded()), of: cv.traces))"
            )
        } else {
            lines.append("  cross-validated: needs two gestures or more")
        }
        lines.append("by start detent (best | defaults):")
        for score in byStart {
            let count = score.best.total
            lines.append(
                "  start \(score.start), \(count) gesture\(count == 1 ? "" : "s"): \(Self.rates(score.best)) | \(Self.rates(score.defaults))"
                    + " (hit 95 % \(Self.interval(score.best[.hit], of: count)))")
        }
        if misses.isEmpty {
            lines.append("every gesture lands where it was meant at the best point")
        } else {
            lines.append("missed at the best point (\(misses.count)):")
            for miss in listingAll ? misses[...] : misses.prefix(Self.shownMisses) {
                lines.append(
                    "  \(miss.file): meant \(miss.meant) from detent \(miss.start), landed \(miss.landed) (\(miss.landing.rawValue)) "
                        + "at \(DecimalText.fixed(miss.velocity, digits: 0)) pt/s: \(miss.reason)")
            }
            if !listingAll && misses.count > Self.shownMisses {
                lines.append("  … \(misses.count - Self.shownMisses) more (--all lists them)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Misses the text lists without `--all`.
    package static let shownMisses = 10
}

extension DetentTuning {
    /// The `--json` report (docs/DETENTS.md, "Tuning"): one object.
    package var json: JSONValue {
        func rates(_ landings: DetentTuner.Landings) -> JSONValue {
            var object: [String: JSONValue] = ["gestures": .number(Double(landings.total))]
            let total = Double(max(landings.total, 1))
            for landing in DetentLanding.allCases {
                object[landing.rawValue] = .number(Double(landings[landing]))
                object[landing.rawValue + "_rate"] = .number(Double(landings[landing]) / total)
            }
            let interval = BinomialInterval(correct: landings[.hit], trials: landings.total)
            object["hit_interval"] = .object(["level": .number(interval.level), "low": .number(interval.low), "high": .number(interval.high)])
            return .object(object)
        }
        func failures(_ list: [TraceCorpus.Failure]) -> JSONValue {
            .array(list.map { .object(["file": .string($0.file), "reason": .string($0.reason)]) })
        }
        var object: [String: JSONValue] = [
            "type": .string("detent_tune"),
            "preset": .string(library.rawValue),
            "points": .number(Double(pointCount)),
            "values": .object(Dictionary(uniqueKeysWithValues: zip(axes, bestValues.map(\.jsonValue)))),
            "best": rates(best),
            "defaults": rates(defaults),
            "choice": .object(["decided_by": .string(choice.decidedBy.rawValue), "equal_points": .number(Double(choice.equal.count))]),
            "by_start": .array(
                byStart.map { .object(["start": .number(Double($0.start)), "best": rates($0.best), "defaults": rates($0.defaults)]) }),
            "misses": .array(
                misses.map { miss in
                    .object([
                        "file": .string(miss.file), "start": .number(Double(miss.start)), "meant": miss.meant.jsonValue,
                        "landed": miss.landed.jsonValue, "landing": .string(miss.landing.rawValue), "reason": .string(miss.reason),
                        "velocity": miss.velocity.isFinite ? .number(miss.velocity) : .null
                    ])
                }),
            "unlabelled": .number(Double(unlabelled)),
            "not_driven": failures(notDriven),
            "unreplayable": failures(unreplayable)
        ]
        if let cv = crossValidation {
            object["cross_validation"] = .object([
                "folds": .number(Double(cv.folds.count)), "seed": .number(Double(cv.seed)), "hit": .number(Double(cv.correct)),
                "gestures": .number(Double(cv.traces)), "hit_rate": .number(cv.accuracy), "defaults_hit_rate": .number(cv.defaultsAccuracy)
            ])
        }
        return .object(object)
    }
}

extension DetentOutcome {
    /// ``target``'s spelling as a JSON value.
    var jsonValue: JSONValue {
        switch target {
        case .detent(let index): .number(Double(index))
        case .dismissed: .string("dismissed")
        }
    }
}

extension PresetValue {
    /// A number or a name.
    var jsonValue: JSONValue {
        switch self {
        case .number(let value): .number(value)
        case .choice(let name): .string(name)
        }
    }
}
