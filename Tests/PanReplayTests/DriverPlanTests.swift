import Foundation
import PanCapture
import PanTrace
import TestSupport
import GestureFixtures
import Testing
import TransitionEngine

@testable import PanReplay

/// `pantrace emit`'s driver models and scripts on the bundled real recordings.
struct DriverPlanTests {
    /// The 32 bundled real recordings (recordings/real).
    static let real: [Trace] = {
        let folder = Repository.recordings + "/real"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pantrace") }.sorted()
        return names.compactMap { try? TraceFiles.read(folder + "/" + $0).trace }
    }()

    @Test func everyBundledRealRecordingIsRead() {
        #expect(Self.real.count == 32)
    }

    /// The evemu file goes back through PanTrace's own evemu importer to the samples the plan
    /// delivers: the same times to the microsecond and the same positions.
    @Test func evemuRoundTripsThroughTheEvemuImporterToTheSameSamples() throws {
        try withTemporaryFolder("emit-evemu") { folder in
            for trace in Self.real {
                let scale = trace.metadata.screen.scale
                let plan = try DriverPlan(trace: trace, target: .evemu, configuration: .init(scale: scale))
                let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: scale)
                let file = folder + "/\(trace.metadata.id).events"
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                var events: [PointerEvent] = []
                let importer = PointerLogImporter(configuration: .init(format: .evemu, getevent: GeteventOptions(screen: trace.metadata.screen)))
                _ = try importer.forEachEvent(inLogAt: file) { event in
                    events.append(event)
                    return true
                }
                // The importer hands back device units (eight a pixel) when no screen mapping is asked for.
                let units = scale * DriverScript.evemuUnitsPerPixel
                let back = try PointerPath(events: events).mapped { point in
                    var p = point
                    p.x /= units
                    p.y /= units
                    return p
                }
                let expected = plan.delivered
                try #require(
                    back.points.count == expected.points.count,
                    "\(trace.metadata.id): \(back.points.count) events back, \(expected.points.count) sent")
                for (got, sent) in zip(back.points, expected.points) {
                    #expect(got.phase == sent.phase)
                    #expect(abs((got.time - back.down.time) - (sent.time - expected.down.time)) < 1e-9)
                    #expect(
                        abs(got.x - sent.x) < 1e-6 && abs(got.y - sent.y) < 1e-6,
                        "\(trace.metadata.id): (\(got.x), \(got.y)) for (\(sent.x), \(sent.y))")
                }
            }
        }
    }

    /// `evemu-device`, `evemu-play` and `evemu-record` (freedesktop evemu), each on `PATH`.
    static let evemuTools: [String: String] = {
        var found: [String: String] = [:]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for tool in ["evemu-device", "evemu-play", "evemu-record"] {
            if let hit = path.split(separator: ":").map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                found[tool] = hit
            }
        }
        return found
    }()

    static var canPlayIntoUinput: Bool {
        FileManager.default.isWritableFile(atPath: "/dev/uinput") && evemuTools.count == 3
    }

    /// Where the machine allows it: the emitted file creates a uinput touchscreen
    /// (`evemu-device`), `evemu-record` listens to it while `evemu-play` replays the events, and
    /// the recording reads back through PanTrace's importer with the same positions.
    @Test(
        .enabled(
            if: canPlayIntoUinput,
            "no writable /dev/uinput or no evemu-device/evemu-play/evemu-record on PATH: evemu is not played into a virtual device"))
    func evemuPlaysIntoAVirtualDeviceAndRecordsBack() throws {
        let trace = Self.real[0]
        let scale = trace.metadata.screen.scale
        let plan = try DriverPlan(trace: trace, target: .evemu, configuration: .init(scale: scale))
        let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: scale)
        try withTemporaryFolder("emit-uinput") { folder in
            let file = folder + "/gesture.events"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let device = Process()
            device.executableURL = URL(fileURLWithPath: Self.evemuTools["evemu-device"]!)
            device.arguments = [file]
            let announced = Pipe()
            device.standardOutput = announced
            try device.run()
            defer { device.terminate() }
            // evemu-device prints "NAME: /dev/input/eventN" once the device exists.
            let line = String(decoding: announced.fileHandleForReading.availableData, as: UTF8.self)
            let node = try #require(line.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
            let recorded = folder + "/recorded.events"
            try #require(FileManager.default.createFile(atPath: recorded, contents: nil))
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: Self.evemuTools["evemu-record"]!)
            recorder.arguments = [node]
            recorder.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: recorded))
            try recorder.run()
            let play = try ExternalTool.run(Self.evemuTools["evemu-play"]!, [node], input: Data(text.utf8))
            recorder.terminate()
            recorder.waitUntilExit()
            try #require(play.status == 0, "\(play.output)")
            var events: [PointerEvent] = []
            let importer = PointerLogImporter(configuration: .init(format: .evemu, getevent: GeteventOptions(screen: trace.metadata.screen)))
            _ = try importer.forEachEvent(inLogAt: recorded) { event in
                events.append(event)
                return true
            }
            let back = try PointerPath(events: events)
            #expect(back.points.count == plan.delivered.points.count)
        }
    }

    /// The Actions: three sources in lockstep, whole pixels, the pauses adding up to the
    /// gesture's duration in whole milliseconds, the NULL key released in every tick.
    @Test(arguments: [DriverTarget.webdriverTouch, .webdriverMouse])
    func webDriverActionsKeepEveryEventAndItsTime(target: DriverTarget) throws {
        for trace in Self.real {
            let plan = try DriverPlan(trace: trace, target: target)
            let text = try DriverScript.render(plan, name: trace.metadata.id, screen: trace.metadata.screen, scale: 1)
            let body = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let sources = try #require(body?["actions"] as? [[String: Any]])
            try #require(sources.count == 3)
            let pointer = try #require(sources[0]["actions"] as? [[String: Any]])
            let clock = try #require(sources[1]["actions"] as? [[String: Any]])
            let keys = try #require(sources[2]["actions"] as? [[String: Any]])
            #expect((sources[0]["parameters"] as? [String: String])?["pointerType"] == (target == .webdriverTouch ? "touch" : "mouse"))
            #expect(pointer.count == clock.count && clock.count == keys.count)
            #expect(keys.allSatisfy { $0["type"] as? String == "keyUp" && $0["value"] as? String == "\u{E000}" })
            // The initial move, the down, one move per recorded callback before the lift, the up.
            #expect(pointer.count == plan.recorded.points.count + 1)
            #expect(
                pointer.filter { $0["type"] as? String == "pointerMove" }.allSatisfy {
                    $0["x"] is Int && $0["y"] is Int && $0["duration"] as? Int == 0
                })
            let total = clock.compactMap { $0["duration"] as? Int }.reduce(0, +)
            let milliseconds = Int(((plan.recorded.release.time - plan.recorded.down.time) * 1000).rounded())
            #expect(abs(total - milliseconds) <= 1, "\(trace.metadata.id): pauses add up to \(total) ms for \(milliseconds) ms")
        }
    }

    /// A straight swipe moves at the release velocity the estimator read on the recording,
    /// and `input swipe`'s modelled events read as that speed.
    @Test(arguments: [DriverTarget.adb, .maestro, .xcuitest])
    func aStraightSwipeRunsAtTheRecordedReleaseSpeed(target: DriverTarget) throws {
        for trace in Self.real {
            let plan = try DriverPlan(trace: trace, target: target, configuration: .init(scale: trace.metadata.screen.scale))
            let swipe = try #require(plan.swipe)
            let velocity = try #require(ReleaseReading.velocity(of: trace, strategy: .lsq2))
            let along =
                (velocity.x * (swipe.end.x - swipe.start.x) + velocity.y * (swipe.end.y - swipe.start.y)) / swipe.distance
            if along >= 50, target == .xcuitest {
                #expect(abs(swipe.speed - along) < 1e-6 * along)
            } else if along >= 50 {
                // Whole milliseconds: within one millisecond's worth of the duration.
                #expect(abs(swipe.distance / along - swipe.duration) <= 0.0005 + 1e-9)
            } else {
                #expect(!plan.notes.isEmpty)
            }
        }
    }

    @Test func pathDriversLiftWhereTheLastMoveLeftTheFinger() throws {
        let trace = Fixtures.handMade(times: [0, 0.01, 0.02, 0.03])
        var moved = trace
        moved.samples[3].translation.y += 7
        let plan = try DriverPlan(trace: moved, target: .compose)
        #expect(plan.delivered.release.y == plan.delivered.points[plan.delivered.points.count - 2].y)
        // The hand-made lift is 40 pt past the last move, and 7 more.
        #expect(plan.notes.contains { $0.contains("lifts 47.0 pt from its last move") })
    }

    @Test func aStraightSwipeWithoutLengthIsRefused() {
        let trace = Fixtures.handMade(times: [0, 0.01, 0.02])
        var still = trace
        for index in still.samples.indices { still.samples[index].translation = PanVector(x: 0, y: 0) }
        let error = #expect(throws: ReplayError.self) { try DriverPlan(trace: still, target: .adb) }
        #expect(error?.description.contains("cannot emit for adb: the finger lifts where it went down") == true)
    }

    /// Every driver carries the decision of the path drivers' own model on every real
    /// recording; the straight swipes are reported, not asserted (they cannot carry a path).
    @Test(arguments: [DriverTarget.webdriverTouch, .compose, .evemu])
    func pathDriversKeepEveryDrivenDecisionInTheirModel(target: DriverTarget) throws {
        let presets = PresetCatalog.names.compactMap { try? Preset(named: $0) }
        for trace in Self.real {
            let plan = try DriverPlan(trace: trace, target: target, configuration: .init(scale: trace.metadata.screen.scale))
            let fidelity = Fidelity(original: trace, delivered: plan.delivered, target: target, presets: presets)
            let changed = fidelity.decisions.filter { $0.isDriven && !$0.isSame }
            #expect(changed.isEmpty, "\(trace.metadata.id): \(changed.map { "\($0.preset) \($0.estimator.rawValue) margin \($0.margin)" })")
        }
    }
}
