import Foundation
import PanTrace
import Testing
import TestSupport
import TransitionEngine
@testable import PanReplay

/// The Perfetto export with the replay, checked against the Chrome Trace Event Format (the
/// "Trace Event Format" document of Chromium's catapult project): the JSON object form, the
/// phases used (`M` metadata, `C` counter, `i` instant, `X` complete) and their fields.
struct ReplayTraceExportTests {
    struct Event: Decodable {
        var name: String
        var ph: String
        var ts: Double
        var pid: Int
        var tid: Int
        var s: String?
        var dur: Double?
        var args: [String: JSONValue]?
    }

    struct Document: Decodable {
        var traceEvents: [Event]
        var displayTimeUnit: String
    }

    static func export(_ file: String, preset: String, overrides: [String: PresetValue] = [:]) throws -> (Document, ReplaySummary, Trace) {
        let trace = try TraceFiles.read(Repository.recordings + "/" + file).trace
        let replayer = try Replayer(trace: trace, configuration: .init(parameters: ReplayParameters(presetNamed: preset, overrides: overrides)))
        let bytes = try ReplayTraceExport.encode(trace, replayer: replayer)
        return (try JSONDecoder().decode(Document.self, from: Data(bytes)), replayer.summary, trace)
    }

    /// Every event is well formed for its phase.
    static func checkFormat(_ document: Document) {
        #expect(["ms", "ns"].contains(document.displayTimeUnit))
        for event in document.traceEvents {
            #expect(["M", "C", "i", "X"].contains(event.ph), "phase \(event.ph)")
            #expect(event.ts >= 0 && event.ts == event.ts.rounded(), "\(event.name): ts in whole microseconds")
            switch event.ph {
            case "M":
                #expect(["process_name", "thread_name"].contains(event.name))
                if case .string = event.args?["name"] {} else { Issue.record("\(event.name) without a name") }
            case "C":
                #expect(event.args?.isEmpty == false)
                for (key, value) in event.args ?? [:] {
                    if case .number = value {} else { Issue.record("counter \(event.name).\(key) is not a number") }
                }
            case "i":
                #expect(["g", "p", "t"].contains(event.s ?? "t"))
            case "X":
                #expect((event.dur ?? -1) >= 0, "\(event.name): a complete event needs dur ≥ 0")
            default:
                break
            }
        }
    }

    @Test(arguments: [
        ("synthetic/swipe-down-60hz/synth-13-00000.pantrace", "swipe-dismiss"),
        ("synthetic/edge-back-120hz/synth-10-00000.pantrace", "best"),
        ("real/android-sailfish-SailfishFlingDownFast1-1.pantrace", "bounce-present")
    ])
    func theReplayIsAddedAsCounterInstantAndCompleteEvents(file: String, preset: String) throws {
        let (document, summary, trace) = try Self.export(file, preset: preset)
        Self.checkFormat(document)
        let replay = document.traceEvents.filter { $0.tid == ReplayTraceExport.replayThread }
        let counters = replay.filter { $0.ph == "C" }
        #expect(counters.count == summary.frames)
        #expect(counters.allSatisfy { $0.name == "progress" && $0.args?["model"] != nil && $0.args?["rendered"] != nil })
        let release = try #require(replay.first { $0.ph == "i" })
        #expect(release.ts == (summary.releaseTime * 1e6).rounded())
        #expect(release.args?["decision"] == .string(summary.decision.rawValue))
        #expect(release.args?["reason"] == .string(summary.reason))
        #expect(release.args?["margin"] == .number(summary.margin))
        let completion = try #require(replay.first { $0.ph == "X" })
        #expect(completion.ts == release.ts)
        #expect(completion.dur == ((summary.releaseTime + summary.completionTime) * 1e6).rounded() - release.ts)
        #expect(completion.name.hasPrefix("completion \(summary.completionModel)"))
        // Time runs forward on the replay's thread, and the recording's own events are unchanged.
        #expect(zip(replay.dropFirst(), replay.dropFirst(2)).allSatisfy { $0.ts <= $1.ts })
        let own = try JSONDecoder().decode(Document.self, from: Data(ChromeTraceExporter.encode(trace)))
        #expect(document.traceEvents.filter { $0.tid != ReplayTraceExport.replayThread }.count == own.traceEvents.count)
    }
}
