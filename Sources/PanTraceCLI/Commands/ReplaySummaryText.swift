internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// A replay summary for people (`pantrace replay --format text`, the default on a terminal):
/// the decision, why, by how much, the completion and the velocity jump, with numbers rounded
/// for reading. `--format summary` has every field, exact.
struct ReplaySummaryText {
    let summary: ReplaySummary

    init(_ summary: ReplaySummary) { self.summary = summary }

    var text: String {
        let s = summary
        var verdict = s.decision.rawValue
        if let correct = s.isCorrect { verdict += correct ? " (meant \(s.intent.rawValue): as meant)" : " (meant \(s.intent.rawValue): misjudged)" }
        let marginDigits = s.marginUnit == "progress" ? 3 : 1
        var completion = "\(Self.fixed(s.completionTime, 3)) s (\(s.completionModel)), settled after \(Self.fixed(s.settleTime, 3)) s"
        completion += s.overshoot > 0 ? ", overshoot \(Self.fixed(s.overshootPoints, 1)) pt" : ", no overshoot"
        if s.isFrameRateDependent { completion += ", depends on the frame rate" }
        var rows: [(String, String)] = [
            ("decision", verdict),
            ("reason", s.reason),
            ("margin", "\(Self.fixed(s.margin, marginDigits)) \(s.marginUnit)\(s.isFlipProne ? " (flip-prone: ±10 % velocity changes it)" : "")"),
            (
                "release",
                "at \(Self.fixed(s.releaseTime, 3)) s, progress \(Self.fixed(s.progressAtRelease, 3)), \(Self.fixed(s.releaseVelocity, 1)) pt/s along the drag"
            ),
            ("completion", completion),
            ("discontinuity", "\(Self.fixed(s.discontinuity, 1)) pt/s between the finger and the drawn motion at release")
        ]
        if let fit = s.fit, fit != .fits, let note = s.fitNote { rows.append(("fit", note)) }
        if let pacing = s.pacing {
            rows.append(("pacing", "\(pacing.frames) frames at \(Self.fixed(pacing.speed, 2))×, mean error \(Self.fixed(pacing.meanError, 2)) ms"))
        }
        let width = rows.map(\.0.count).max() ?? 0
        var lines = [
            "\(s.trace) under \(s.preset): \(s.rule) + \(s.completionModel), velocity \(s.velocity.rawValue), \(Self.number(s.frameRate)) Hz"
        ]
        lines += rows.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
        lines.append("(every frame: --format jsonl; every field, exact: --format summary)")
        return lines.joined(separator: "\n")
    }

    /// `value` to `digits` decimals; a value that rounds to zero prints as 0, never "-0.0".
    static func fixed(_ value: Double, _ digits: Int) -> String { DecimalText.fixed(value, digits: digits, negativeZero: false) }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
