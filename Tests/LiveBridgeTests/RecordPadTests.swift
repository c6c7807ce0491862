import TestSupport
import Foundation
import PanCapture
import PanReplay
import PanTrace
import Testing
import TransitionEngine
@testable import LiveBridge

/// The record pad: one page holds it at a time, every page sees the gesture through its own
/// setting, and the page that records decides with its own sliders.
struct RecordPadTests {
    typealias Base = BridgeControllerTests
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }
    static let arm = json(#"{"type":"record","screen":{"width":390,"height":844,"scale":3}}"#)

    /// A drag down by `distance` points, slowly, that rests before it lifts (release velocity
    /// about zero), events every 16 ms from `start` seconds.
    static func drag(_ controller: inout BridgeController, page id: ConnectionID, down distance: Double, start: Double = 0) -> [Outgoing] {
        var out: [Outgoing] = []
        let steps = 40
        for i in 0...(steps + 10) {
            let y = 100 + distance * Double(min(i, steps)) / Double(steps)
            let phase = i == 0 ? "down" : (i == steps + 10 ? "up" : "move")
            let t = start + Double(i) * 0.016
            out += controller.handle(
                .message(id, json(#"{"type":"pointer","t_ms":\#(t * 1000),"x":200,"y":\#(y),"phase":"\#(phase)"}"#)), now: t)
        }
        return out
    }

    static func decisions(_ out: [Outgoing]) -> [String] {
        out.compactMap { if case .summary(let s) = $0.message { s.decision.rawValue } else { nil } }
    }

    /// Swipe-dismiss at threshold 0.27: a drag to 0.38 of H/2 finishes; at the default 0.5 it
    /// cancels. The page's own sliders decide, and the saved view keeps them.
    @Test(arguments: [("0.27", "finish"), ("0.5", "cancel")])
    func aRecordingIsDecidedWithThePagesOwnParameters(threshold: String, expected: String) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)  // another page on other settings
        _ = controller.handle(
            .message(
                1,
                Self.json(
                    #"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss","parameters":{"threshold":\#(threshold)}}"#
                )), now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0.1)
        let out = Self.drag(&controller, page: 1, down: 0.38 * 422 + 10, start: 0.2)  // +10: the slop before the pan begins
        #expect(Self.decisions(out) == [expected], "threshold \(threshold)")
        let statuses = out.compactMap { if case .recording(let s) = $0.message { s } else { nil } }
        #expect(statuses.last?.state == "released")
        #expect(statuses.last?.parameters == ["threshold": .number(Double(threshold)!)])
        // The page that recorded replays it with its setting; the other page's view is untouched.
        #expect(controller.shownView(of: 1)?.setting.parameters == ["threshold": .number(Double(threshold)!)])
        #expect(controller.shownView(of: 2)?.recording == controller.firstView?.recording)
        _ = controller.handle(.message(1, Self.json(#"{"type":"label","intent":"finish"}"#)), now: 2)
        _ = controller.handle(.message(1, Self.json(#"{"type":"save"}"#)), now: 2.1)
        let saved = try #require(controller.shownView(of: 1))
        // Saved without a name: named for what it is, a pad gesture and its label.
        #expect(saved.recording == "live/pad-finish-1.pantrace")
        #expect(saved.setting.parameters == ["threshold": .number(Double(threshold)!)], "the saved view keeps the parameters")
        #expect(saved.summary.decision.rawValue == expected)
    }

    @Test func aTapWithinTheSlopDisarmsAndAnotherPageMayRecord() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0.1)
        _ = controller.handle(.message(1, Self.json(#"{"type":"pointer","t_ms":100,"x":200,"y":100,"phase":"down"}"#)), now: 0.1)
        let up = controller.handle(.message(1, Self.json(#"{"type":"pointer","t_ms":180,"x":203,"y":102,"phase":"up"}"#)), now: 0.18)
        let statuses = up.compactMap { if case .recording(let s) = $0.message { s } else { nil } }
        #expect(statuses.map(\.state) == ["ready"])
        #expect(up.allSatisfy { $0.target == .everyone })
        #expect(controller.padHolder == nil)
        #expect(controller.session(of: 1) == nil)
        let other = controller.handle(.message(2, Self.arm), now: 0.2)
        #expect(!other.contains { if case .error = $0.message { true } else { false } })
        #expect(controller.padHolder == 2)
    }

    @Test func anotherPageIsToldInWordsWhoHoldsThePad() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0)
        let arm = controller.handle(.message(2, Self.arm), now: 4.2)
        guard case .error(let refused) = arm.first?.message else {
            Issue.record("the second page armed the pad")
            return
        }
        #expect(refused.code == .busy)
        #expect(refused.message.hasPrefix("page 1 holds the record pad (for 4 s)"), "\(refused.message)")
        let drag = controller.handle(.message(2, Self.json(#"{"type":"pointer","t_ms":1,"x":1,"y":1,"phase":"down"}"#)), now: 4.3)
        guard case .error(let pointer) = drag.first?.message else {
            Issue.record("a pointer from a page without the pad was accepted")
            return
        }
        #expect(pointer.code == .busy && pointer.message.contains("page 1"))
        #expect(!pointer.message.contains("send record first"))
    }

    /// An armed pad nobody touches is not held forever: after 30 s another page may take it.
    @Test(arguments: [(29.9, false), (30.0, true)])
    func anArmedPadLeftUntouchedIsFreedForAnotherPage(after seconds: Double, taken: Bool) throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(.opened(2, canControl: true), now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0)
        let out = controller.handle(.message(2, Self.arm), now: seconds)
        #expect(controller.padHolder == (taken ? 2 : 1))
        #expect(out.contains { if case .recording(let s) = $0.message { s.state == "ready" && s.page == 1 } else { false } } == taken)
    }

    @Test func aDiscardReturnsToTheViewBeforeRecording() throws {
        var controller = try Base.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        _ = controller.handle(
            .message(
                1,
                Self.json(#"{"type":"load","recording":"synthetic/swipe-down-0.pantrace","preset":"swipe-dismiss","parameters":{"threshold":0.3}}"#)),
            now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0.1)
        _ = Self.drag(&controller, page: 1, down: 300, start: 0.2)
        #expect(controller.shownView(of: 1)?.recording.contains("unsaved-") == true)
        _ = controller.handle(.message(1, Self.json(#"{"type":"discard"}"#)), now: 2)
        let view = try #require(controller.shownView(of: 1))
        #expect(view.recording == "synthetic/swipe-down-0.pantrace")
        #expect(view.state.preset == "swipe-dismiss" && view.setting.parameters == ["threshold": .number(0.3)])
    }

    /// The gesture is seen live by every page through its own setting: one frame per distinct
    /// setting, each to the pages that view with it.
    @Test func everyPageSeesTheLiveGestureThroughItsOwnSetting() throws {
        var controller = try Base.controller()
        for id in ConnectionID(1)...3 { _ = controller.handle(.opened(id, canControl: true), now: 0) }
        _ = controller.handle(
            .message(1, Self.json(#"{"type":"load","recording":"synthetic/swipe-down-1.pantrace","preset":"swipe-dismiss"}"#)), now: 0)
        _ = controller.handle(
            .message(2, Self.json(#"{"type":"load","recording":"synthetic/swipe-down-0.pantrace","preset":"swipe-dismiss"}"#)), now: 0)
        _ = controller.handle(
            .message(3, Self.json(#"{"type":"load","recording":"synthetic/swipe-down-0.pantrace","preset":"bounce-present"}"#)), now: 0)
        _ = controller.handle(.message(1, Self.arm), now: 0.1)
        let out = Self.drag(&controller, page: 1, down: 200, start: 0.2)
        let previews = out.compactMap { outgoing -> ([ConnectionID], FrameMessage)? in
            guard case .frame(let f) = outgoing.message, f.load == -1, case .framesFor(let ids) = outgoing.target else { return nil }
            return (ids, f)
        }
        // Pages 1 and 2 share a setting (one frame each time, to both); page 3 has its own.
        #expect(Set(previews.map(\.0)) == [[1, 2], [3]])
        let dismiss = previews.filter { $0.0 == [1, 2] }.map(\.1.frame.progress)
        let present = previews.filter { $0.0 == [3] }.map(\.1.frame.progress)
        #expect(dismiss.count == present.count && !dismiss.isEmpty)
        #expect(dismiss.last! > 0.3, "a drag down moves a dismissal")
        #expect(present.last! < 0.05, "a drag down does not move a presentation dragged up")
    }

    /// `live/` must be a real folder inside the recordings folder: a link out of it is refused
    /// when the pad is armed, so no save can follow it; nothing is written outside.
    @Test func aLiveFolderThatLinksOutOfTheRecordingsFolderIsRefused() throws {
        let folder = try Base.makeLibrary()
        let outside = try TemporaryFolder.path("outside")
        try FileManager.default.createSymbolicLink(atPath: folder + "/live", withDestinationPath: outside)
        var controller = BridgeController(configuration: .init(recordingsFolder: folder))
        #expect(controller.loadDefault() == nil)
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let out = controller.handle(.message(1, Self.arm), now: 0.1)
        guard case .error(let error) = out.first?.message else {
            Issue.record("the pad armed over a live/ link")
            return
        }
        #expect(error.code == .failed && error.message.contains("symbolic link"), "\(error.message)")
        #expect(controller.padHolder == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }
}
