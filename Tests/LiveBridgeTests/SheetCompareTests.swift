import Foundation
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

/// A `compare` that names a sheet: the recording replayed as a drag of that sheet through one
/// library, answered with its verdict and its motion (docs/PROTOCOL.md, `sheet`).
struct SheetCompareTests {
    static let recording = "synthetic/swipe-down-1.pantrace"

    static func request(_ preset: String, sheet: String, recording: String = recording) -> String {
        #"{"type":"compare","recording":"\#(recording)","preset":"\#(preset)","sheet":\#(sheet)}"#
    }

    static func sheet(_ outgoing: Outgoing) -> SheetMessage? {
        guard case .encoded("sheet", let bytes) = outgoing.message,
            case .sheet(let message) = try? JSONDecoder().decode(ServerMessage.self, from: Data(bytes))
        else { return nil }
        return message
    }

    @Test func aWatcherGetsTheLibrarysVerdictAndMotionAndNothingElseChanges() throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: false), now: 0)
        let out = BridgeControllerTests.send(
            Self.request("gorhom", sheet: #"{"detents":[101,422,692],"start":0,"target":1}"#), from: 1, to: &controller, now: 0.1)
        #expect(out.map(\.message.type) == ["sheet"])
        #expect(out.map(\.target) == [.client(1)])
        let message = try #require(Self.sheet(out[0]))
        #expect(message.library == "gorhom" && message.recording == Self.recording)
        #expect(message.sheet.detents == [101, 422, 692] && message.sheet.start == 0)
        #expect(!message.reason.isEmpty && message.estimator == "recorded")
        // The drag starts at the start detent's line, moves with the finger, and the settle ends
        // where the verdict says.
        let first = try #require(message.drag.first)
        #expect(first[0] == 0 && abs(first[1] - 101) < 40)
        #expect(message.release > 0 && message.drag.last.map { $0[0] <= message.release } == true)
        let rest: Double
        switch message.detent {
        case .detent(let index): rest = message.sheet.detents[index]
        case .dismissed: rest = 844
        }
        #expect(message.settle.tops.last == rest)
        #expect(message.settle.fps == 60 && message.settle.motion.contains("withSpring"))
        #expect(["hit", "skip", "stuck", "wrong"].contains(message.landing ?? ""))
        #expect(controller.shownView(of: 1)?.configuration.parameters.preset.name.rawValue != "gorhom", "comparing changes nothing")
    }

    @Test func twoLibrariesOnOneGestureAreTwoAnswersEachKeptForTheNextPage() throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        let sheet = #"{"detents":[101,422,692],"start":0}"#
        let vaul = BridgeControllerTests.send(Self.request("vaul", sheet: sheet), from: 1, to: &controller, now: 0.1)
        let panel = BridgeControllerTests.send(Self.request("floatingpanel", sheet: sheet), from: 1, to: &controller, now: 0.4)
        let a = try #require(vaul.first.flatMap(Self.sheet))
        let b = try #require(panel.first.flatMap(Self.sheet))
        #expect(a.library == "vaul" && b.library == "floatingpanel")
        #expect(a.settle.motion != b.settle.motion)
        #expect(a.landing == nil, "no target asked, no landing")
        // The same setting asked by another page is answered from what was kept: no new job.
        _ = controller.handle(.message(2, BridgeControllerTests.json(Self.request("vaul", sheet: sheet))), now: 0.5)
        #expect(controller.takePendingCompares().isEmpty)
        // Another start is another setting.
        _ = controller.handle(.message(2, BridgeControllerTests.json(Self.request("vaul", sheet: #"{"detents":[101,422,692],"start":1}"#))), now: 0.8)
        #expect(controller.takePendingCompares().count == 1)
    }

    @Test(arguments: [
        (
            #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-back","sheet":{"detents":[101,422,692],"start":0}}"#,
            "preset: "
        ),
        // Refused where it is decoded: bad_message.
        (#"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"vaul","sheet":{"detents":[101,422,692],"start":5}}"#, "start"),
        (
            #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"vaul","sheet":{"detents":[101,422,2000],"start":0}}"#,
            "sheet: "
        ),
        (
            #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"panmodal","sheet":{"detents":[101,422,692],"start":0}}"#,
            "PanModal has two detents"
        ),
        (
            #"{"type":"compare","recording":"synthetic/swipe-down-1.pantrace","preset":"vaul","parameters":{"closeThreshold":7},"sheet":{"detents":[101,422,692],"start":0}}"#,
            "closeThreshold"
        ),
        (
            #"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"best","sheet":{"detents":[101,422,692],"start":0}}"#,
            "ask for a sheet with compare"
        )
    ])
    func aSheetRequestThatCannotBeAnsweredSaysWhichFieldAndWhy(request: String, words: String) throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let out = BridgeControllerTests.send(request, from: 1, to: &controller, now: 0.1)
        let errors = out.compactMap { if case .error(let e) = $0.message { return e } else { return nil } }
        #expect(errors.count == 1, "\(out.map(\.message.type))")
        #expect(errors.first?.code == (words == "start" ? .badMessage : .invalid))
        #expect(errors.first?.message.contains(words) == true, "\(errors.first?.message ?? "no error")")
    }
}
