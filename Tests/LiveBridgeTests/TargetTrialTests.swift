import TestSupport
import Foundation
import PanTrace
import Testing
@testable import LiveBridge

/// Target trials on the record pad: a sheet with a start and a target comes with `record`, the
/// recording is labelled with the target from the start, the released status says where the
/// trial's library settles the sheet and how that lands against the target, and the saved file
/// carries the sheet.
struct TargetTrialTests {
    typealias Pad = RecordPadTests

    static func arm(_ sheet: String, library: String? = nil) -> [UInt8] {
        let named = library.map { #","sheet_library":"\#($0)""# } ?? ""
        return Pad.json(#"{"type":"record","screen":{"width":390,"height":844,"scale":3},"sheet":\#(sheet)\#(named)}"#)
    }

    static let trial = #"{"detents":[100,400,700],"start":0,"target":1}"#

    static func statuses(_ out: [Outgoing]) -> [RecordingStatus] {
        out.compactMap { if case .recording(let s) = $0.message { s } else { nil } }
    }

    /// A slow drag down from detent 0 (at 100) rests and lifts: FloatingPanel goes on to detent
    /// 1 past half the gap (redirectionalProgress 0.5), else stays. 10 pt go to the slop.
    @Test(arguments: [(260.0, "hit", 1), (150.0, "stuck", 0)])
    func theReleaseSaysWhereTheSheetSettlesAgainstTheTarget(distance: Double, landing: String, detent: Int) throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let armed = Self.statuses(controller.handle(.message(1, Self.arm(Self.trial)), now: 0.1))
        #expect(armed.last?.intent == .detent && armed.last?.sheet?.target == .detent(1))
        let out = Pad.drag(&controller, page: 1, down: distance, start: 0.2)
        let released = try #require(Self.statuses(out).last)
        #expect(released.state == "released")
        let settle = try #require(released.settle)
        #expect(settle.library == "floatingpanel" && settle.landing == landing && settle.detent == .detent(detent), "\(settle)")
        // FloatingPanel's own spring carries the sheet there, frame by frame, ending on the detent.
        #expect(settle.motion.motion.contains("NumericSpringAnimator") && settle.motion.tops.last == [100.0, 400, 700][detent])
        // The label is the target: finish or cancel would contradict it.
        let refused = controller.handle(.message(1, Pad.json(#"{"type":"label","intent":"finish"}"#)), now: 2)
        #expect(refused.contains { if case .error(let e) = $0.message { e.message.contains("target trial") } else { false } })
        let saved = Self.statuses(controller.handle(.message(1, Pad.json(#"{"type":"save","name":"trial"}"#)), now: 2.1))
        let id = try #require(saved.last?.id)
        let trace = try TraceReader().read(contentsOf: controller.configuration.recordingsFolder + "/" + id).trace
        #expect(trace.metadata.intent == .detent)
        #expect(trace.metadata.sheet == SheetLabel(detents: [100, 400, 700], start: 0, target: .detent(1)))
    }

    @Test(arguments: [
        (#"{"detents":[100,400,900],"start":0,"target":1}"#, nil as String?, "sheet: "),
        (#"{"detents":[100,400,700],"start":0,"target":1}"#, "sheetkit", "sheet_library: unknown library \"sheetkit\""),
        (#"{"detents":[100,400,700],"start":0,"target":1}"#, "panmodal", "PanModal has two detents"),
        (#"{"detents":[400,100],"start":0,"target":1}"#, nil, "not below detent 0")
    ])
    func aTrialTheSheetCannotHoldIsRefusedAndThePadStaysFree(sheet: String, library: String?, words: String) throws {
        var controller = try BridgeControllerTests.controller()
        _ = controller.handle(.opened(1, canControl: true), now: 0)
        let out = controller.handle(.message(1, Self.arm(sheet, library: library)), now: 0.1)
        let error = out.compactMap { if case .error(let e) = $0.message { e.message } else { nil } }.first
        #expect(error?.contains(words) == true, "\(String(describing: error))")
        #expect(controller.padHolder == nil)
    }
}
