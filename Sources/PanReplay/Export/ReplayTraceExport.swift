internal import Foundation
package import PanTrace
internal import TransitionEngine

/// A Perfetto trace (the Chrome Trace Event Format's JSON object form) of a recording and its
/// replay: `pantrace convert IN OUT.trace.json --preset NAME` (docs/REPLAY.md, "Perfetto").
///
/// The recording's own events (``ChromeTraceExporter``: translation and velocity counters and
/// phase instants on thread 1) are kept as they are; the replay adds, on thread 2, a counter
/// event per display frame with the model's and the rendered progress, an instant event at
/// the release whose args carry the decision, its reason, margin and rule, and a complete
/// event (`ph: "X"`) spanning the completion. Timestamps are microseconds on the recording's
/// clock, so the two threads line up.
package enum ReplayTraceExport {
    /// One trace event: the fields the format defines that these events use.
    struct Event: Codable {
        var name: String
        var ph: String
        var ts: Double
        var pid: Int
        var tid: Int
        var s: String?
        var dur: Double?
        var cat: String?
        var args: [String: JSONValue]?
    }

    struct Document: Codable {
        var traceEvents: [Event]
        var displayTimeUnit: String
        var otherData: JSONValue?
    }

    /// The thread the replay's events are on.
    static let replayThread = 2

    /// The trace event JSON of `trace` with the tracks of `replayer` (a fresh replayer of the
    /// same trace).
    ///
    /// - Throws: ``PanTraceError`` when the recording cannot be exported (a value that is not
    ///   finite); ``ReplayError`` when the events cannot be encoded.
    package static func encode(_ trace: Trace, replayer: Replayer) throws -> [UInt8] {
        let base = try ChromeTraceExporter.encode(trace)
        var document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(base))
        } catch {
            throw ReplayError.cannotExport("the recording's trace events could not be read back: \(error)")
        }
        document.traceEvents += events(replayer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(document))
        } catch {
            throw ReplayError.cannotExport("cannot encode the replay's trace events: \(error)")
        }
    }

    /// Microseconds, rounded as the recording's events are.
    static func microseconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() }

    /// The replay's events, in time order after the thread's name.
    static func events(_ replayer: Replayer) -> [Event] {
        var replayer = replayer
        let summary = replayer.summary
        let tid = replayThread
        var events = [
            Event(
                name: "thread_name", ph: "M", ts: 0, pid: 1, tid: tid,
                args: ["name": .string("replay \(summary.preset) (\(summary.rule) + \(summary.completionModel))")])
        ]
        events.reserveCapacity(summary.frames + 4)
        while let frame = replayer.nextFrame() {
            events.append(
                Event(
                    name: "progress", ph: "C", ts: microseconds(frame.time), pid: 1, tid: tid,
                    args: ["model": .number(frame.progress), "rendered": .number(frame.renderedProgress)]))
        }
        var release: [String: JSONValue] = [
            "decision": .string(summary.decision.rawValue), "reason": .string(summary.reason), "rule": .string(summary.rule),
            "margin": .number(summary.margin), "margin_unit": .string(summary.marginUnit),
            "progress_at_release": .number(summary.progressAtRelease), "velocity_pt_s": .number(summary.releaseVelocity),
            "flip_prone": .bool(summary.isFlipProne), "intent": .string(summary.intent.rawValue)
        ]
        if let correct = summary.isCorrect { release["correct"] = .bool(correct) }
        let at = microseconds(summary.releaseTime)
        // The release instant sorts before the first completion frame at the same time.
        let firstCompletion = events.firstIndex { $0.ph == "C" && $0.ts >= at } ?? events.count
        events.insert(
            Event(name: "release: \(summary.decision.rawValue)", ph: "i", ts: at, pid: 1, tid: tid, s: "t", cat: "replay", args: release),
            at: firstCompletion)
        events.insert(
            Event(
                name: "completion \(summary.completionModel) → \(summary.decision.rawValue)", ph: "X", ts: at, pid: 1, tid: tid,
                dur: max(0, microseconds(summary.releaseTime + summary.completionTime) - at), cat: "replay",
                args: [
                    "completion_s": .number(summary.completionTime), "settle_s": .number(summary.settleTime),
                    "overshoot_pt": .number(summary.overshootPoints), "discontinuity_pt_s": .number(summary.discontinuity)
                ]),
            at: firstCompletion + 1)
        return events
    }
}
