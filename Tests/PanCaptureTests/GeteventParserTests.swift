import Foundation
import PanTrace
import Testing

@testable import PanCapture

struct GeteventParserTests {
    /// One finger: down at (0x1e0, 0x4fd), two moves, lift; the labelled form of
    /// the labelled form of docs/CAPTURE.md "getevent" with a second contact that lands in slot 1 and lifts.
    static let labelled = """
        add device 1: /dev/input/event2
          name:     "touchscreen"
        [   53890.813990] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
        [   53890.813990] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   0000016d
        [   53890.813990] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001e0
        [   53890.813990] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000004fd
        [   53890.813990] /dev/input/event2: EV_ABS       ABS_MT_PRESSURE      00000029
        [   53890.813990] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   53890.828065] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000200
        [   53890.828065] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   0000016e
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000010
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000020
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
        [   53890.836000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000240
        [   53890.836000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   53890.844000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
        [   53890.844000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
        [   53890.844000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   53891.102311] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
        [   53891.102311] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
        [   53891.102311] /dev/input/event2: EV_KEY       BTN_TOUCH            UP
        [   53891.102311] /dev/input/event2: EV_SYN       SYN_REPORT           00000000

        """

    /// The same log as `getevent -t /dev/input/event2` prints it: numeric, no device prefix.
    static var numeric: String {
        let codes = [
            "EV_KEY": "0001", "EV_ABS": "0003", "EV_SYN": "0000", "BTN_TOUCH": "014a", "ABS_MT_TRACKING_ID": "0039",
            "ABS_MT_POSITION_X": "0035", "ABS_MT_POSITION_Y": "0036", "ABS_MT_PRESSURE": "003a", "SYN_REPORT": "0000",
            "ABS_MT_SLOT": "002f", "DOWN": "00000001", "UP": "00000000"
        ]
        var out = ""
        for line in labelled.split(separator: "\n") where line.hasPrefix("[") {
            let close = line.firstIndex(of: "]")!
            let fields = line[line.index(after: close)...].split(separator: " ").dropFirst()
            let mapped = fields.map { codes[String($0)] ?? String($0) }
            out += "\(line[...close]) \(mapped.joined(separator: " "))\n"
        }
        return out
    }

    static func events(_ text: String, _ options: GeteventOptions = GeteventOptions()) throws -> ([PointerEvent], PointerLogImporter.Summary) {
        let path = try CaptureTestFiles.log(text, name: "touch.txt")
        var events: [PointerEvent] = []
        let summary = try PointerLogImporter(configuration: .init(format: .getevent, getevent: options)).forEachEvent(inLogAt: path) {
            events.append($0)
            return true
        }
        return (events, summary)
    }

    static let expected: [PointerEvent] = [
        PointerEvent(nanoseconds: 53_890_813_990_000, x: 0x1e0, y: 0x4fd, phase: .down, pointer: 0x16d),
        PointerEvent(nanoseconds: 53_890_828_065_000, x: 0x200, y: 0x4fd, phase: .move, pointer: 0x16d),
        PointerEvent(nanoseconds: 53_890_836_000_000, x: 0x240, y: 0x4fd, phase: .move, pointer: 0x16d),
        PointerEvent(nanoseconds: 53_890_836_000_000, x: 0x10, y: 0x20, phase: .down, pointer: 0x16e),
        PointerEvent(nanoseconds: 53_890_844_000_000, x: 0x10, y: 0x20, phase: .up, pointer: 0x16e),
        PointerEvent(nanoseconds: 53_891_102_311_000, x: 0x240, y: 0x4fd, phase: .up, pointer: 0x16d)
    ]

    @Test func labelledLogBecomesPointerEventsPerSlot() throws {
        #expect(try Self.events(Self.labelled).0 == Self.expected)
    }

    @Test func numericLogGivesTheSameEvents() throws {
        #expect(try Self.events(Self.numeric).0 == Self.expected)
    }

    @Test func panelUnitsMapToPointsWithTheAxisRanges() throws {
        let axes = GeteventAxes(x: 0...1079, y: 0...2399)
        let options = GeteventOptions(axes: axes, screen: ScreenGeometry(width: 360, height: 800, scale: 3))
        let folder = try CaptureTestFiles.folder()
        let path = try CaptureTestFiles.log(Self.labelled, name: "touch.txt")
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "")), destination: RecordingDestination(folder: folder, stem: "t"))
        _ = try PointerLogImporter(configuration: .init(format: .getevent, getevent: options)).record(logAt: path, into: recording)
        let samples = try CaptureTestFiles.read("\(folder)/t-1.pantrace").trace.samples
        // x_pt = raw · 360 / 1080; the second contact is ignored.
        #expect(samples.map(\.phase) == [.began, .changed, .ended])
        let began = try #require(samples.first)
        #expect(abs(began.location!.x - 512.0 / 3) < 0.005)
        #expect(abs(began.location!.y - 1277.0 / 3) < 0.005)
        #expect(abs(began.translation.x - 32.0 / 3) < 0.005)
        #expect(abs(samples[1].translation.x - 96.0 / 3) < 0.005)
    }

    @Test func recordingNeedsAxisRanges() throws {
        let path = try CaptureTestFiles.log(Self.labelled, name: "touch.txt")
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "")), destination: RecordingDestination(folder: try CaptureTestFiles.folder(), stem: "t")
        )
        let options = GeteventOptions(screen: .phone)
        let error = #expect(throws: CaptureError.self) {
            try PointerLogImporter(configuration: .init(format: .getevent, getevent: options)).record(logAt: path, into: recording)
        }
        #expect(error?.description.contains("pass --device-info") == true)
        #expect(error?.line == 8)
    }

    @Test func eventsOfOtherDevicesInterleavedAreSkipped() throws {
        var text = ""
        for line in Self.labelled.split(separator: "\n", omittingEmptySubsequences: false) {
            text += line + "\n"
            if line.contains("SYN_REPORT") {
                // A second panel and a keyboard talking at the same time.
                let time = line.prefix(17)
                text += "\(time) /dev/input/event5: EV_ABS       ABS_MT_TRACKING_ID   00000001\n"
                text += "\(time) /dev/input/event5: EV_ABS       ABS_MT_POSITION_X    00000999\n"
                text += "\(time) /dev/input/event5: EV_SYN       SYN_REPORT           00000000\n"
                text += "\(time) /dev/input/event0: EV_KEY       KEY_VOLUMEDOWN       DOWN\n"
            }
        }
        #expect(try Self.events(text).0 == Self.expected)
        let other = try Self.events(text, GeteventOptions(device: "/dev/input/event5")).0
        #expect(Set(other.map(\.pointer)) == [1])
    }

    @Test(arguments: [
        "[   53891.102311] /dev/input/event2: EV_SYN       SYN_REPO",
        "[   53891.102311] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000002",
        "[   53891.1023"
    ])
    func aLogCutMidLineKeepsEveryEventBeforeItWithAWarning(cut: String) throws {
        let lines = Self.labelled.split(separator: "\n").dropLast()
        let text = lines.joined(separator: "\n") + "\n" + cut
        let (events, summary) = try Self.events(text)
        #expect(events == Array(Self.expected.dropLast()))
        #expect(summary.warnings.count == 1)
        #expect(summary.warnings.first?.line == lines.count + 1)
    }

    @Test(arguments: [
        ("[   53890.813990] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 000001e0 extra", "expected TYPE CODE VALUE"),
        ("[   53890.8139] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 000001e0", "bad timestamp"),
        ("[   53890.813990] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 1e0", "eight hex digits"),
        ("hello", "not a getevent line"),
        ("/dev/input/event2: 0003 0035 000001e0", "without a timestamp"),
        ("[   53890.813990] /dev/input/event2: EV_ABS ABS_MT_SLOT 00000040", "ABS_MT_SLOT must be")
    ])
    func badGeteventLinesAreErrorsNamingTheLine(line: String, message: String) throws {
        let text = "[   53890.800000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000\n\(line)\n"
        let error = #expect(throws: CaptureError.self) { try Self.events(text) }
        #expect(error?.line == 2)
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func synDroppedCancelsTheContact() throws {
        let lines = Self.labelled.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("00000200") })
        var text = lines[...index].joined(separator: "\n") + "\n"
        text += "[   53890.828065] /dev/input/event2: EV_SYN       SYN_DROPPED          00000000\n"
        text += "[   53890.830000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000300\n"
        text += "[   53890.830000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000\n"
        let (events, _) = try Self.events(text)
        #expect(events.map(\.phase) == [.down, .cancel])
    }

    @Test func deviceInfoDumpsGiveEachPanelsRanges() throws {
        let labelledDump = """
            add device 1: /dev/input/event0
              name:     "gpio-keys"
              events:
                KEY (0001): KEY_VOLUMEDOWN        KEY_VOLUMEUP
            add device 2: /dev/input/event2
              name:     "touchscreen"
              events:
                ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                            ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                            ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 0
                            ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
            """
        let numericDump = """
            add device 1: /dev/input/event3
              name:     "sec_touchscreen"
              events:
                ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                            0035  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
                            0036  : value 0, min -10, max 4095, fuzz 0, flat 0, resolution 0
            """
        #expect(try GeteventAxes.devices(inDump: labelledDump) == ["/dev/input/event2": GeteventAxes(x: 0...1079, y: 0...2399)])
        #expect(try GeteventAxes.devices(inDump: numericDump) == ["/dev/input/event3": GeteventAxes(x: 0...4095, y: -10...4095)])
    }

    @Test(arguments: [("0:1079,0:2399", true), ("0:1079", false), ("5:5,0:10", false), ("a:b,c:d", false)])
    func axisRangeArgumentsAreChecked(argument: String, isValid: Bool) {
        #expect((try? GeteventAxes(argument: argument)) != nil ? isValid : !isValid)
    }
}
