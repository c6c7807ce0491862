internal import Foundation

/// Exports a trace in the Chrome trace event format so it opens in Perfetto (the Trace Event Format document of Chromium's catapult project; Perfetto's JSON trace docs).
///
/// Counter events (`ph: "C"`) draw translation and velocity as tracks; instant events mark
/// the phases other than `changed`; metadata events name the process; `otherData` holds the
/// trace's metadata. Timestamps are microseconds since the gesture began.
public enum ChromeTraceExporter {
    struct Event: Encodable {
        var name: String
        var ph: String
        var ts: Double
        var pid = 1
        var tid = 1
        var s: String?
        var args: [String: JSONValue]
    }

    struct Document: Encodable {
        var traceEvents: [Event]
        var displayTimeUnit = "ms"
        var otherData: TraceMetadata
    }

    /// The trace event JSON for `trace`.
    public static func encode(_ trace: Trace) throws(PanTraceError) -> [UInt8] {
        var events: [Event] = [
            Event(name: "process_name", ph: "M", ts: 0, args: ["name": .string("pantrace \(trace.metadata.id)")]),
            Event(name: "thread_name", ph: "M", ts: 0, args: ["name": .string("pan")])
        ]
        events.reserveCapacity(trace.samples.count * 2 + 8)
        for (index, s) in trace.samples.enumerated() {
            guard s.time.isFinite, s.translation.isFinite, s.velocity.isFinite else {
                throw PanTraceError(.invalidSample("a value is not finite"), sample: index)
            }
            let ts = (s.time * 1e6).rounded() / 1
            events.append(Event(name: "translation (pt)", ph: "C", ts: ts, args: ["x": .number(s.translation.x), "y": .number(s.translation.y)]))
            events.append(Event(name: "velocity (pt/s)", ph: "C", ts: ts, args: ["x": .number(s.velocity.x), "y": .number(s.velocity.y)]))
            if s.phase != .changed {
                events.append(Event(name: s.phase.description, ph: "i", ts: ts, s: "t", args: [:]))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(Document(traceEvents: events, otherData: trace.metadata)))
        } catch {
            throw PanTraceError(.invalidValue("cannot encode trace events: \(error)"))
        }
    }
}
