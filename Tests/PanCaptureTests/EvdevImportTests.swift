import Foundation
import PanTrace
import Testing

@testable import PanCapture

/// Every touch protocol and log form, on logs the tests write: one scenario, the same events.
struct EvdevImportTests {
    /// Contact 5 pans right 40 units a frame; contact 6 lands in frame 2, stays still in
    /// frame 3 and lifts in frame 4; contact 5 lifts in frame 5. Frames are 10 ms apart.
    static let frames: [[(id: Int32, x: Int32, y: Int32)]] = [
        [(5, 100, 200)], [(5, 140, 200)], [(5, 180, 200), (6, 10, 20)], [(5, 220, 200), (6, 10, 20)], [(5, 260, 200)], []
    ]
    static let base: Int64 = 1_000_000_000_000

    static func time(_ frame: Int) -> Int64 { base + Int64(frame) * 10_000_000 }

    static func stamp(_ frame: Int) -> String {
        let micros = time(frame) / 1000
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    /// The events both contacts give, sorted by time and pointer.
    static func expected(singleTouch: Bool = false) -> [PointerEvent] {
        func e(_ frame: Int, _ x: Double, _ y: Double, _ phase: PointerEvent.Phase, _ id: Int) -> PointerEvent {
            PointerEvent(nanoseconds: time(frame), x: x, y: y, phase: phase, pointer: singleTouch ? 0 : id)
        }
        var all = [
            e(0, 100, 200, .down, 5), e(1, 140, 200, .move, 5), e(2, 180, 200, .move, 5), e(3, 220, 200, .move, 5),
            e(4, 260, 200, .move, 5), e(5, 260, 200, .up, 5)
        ]
        if !singleTouch { all += [e(2, 10, 20, .down, 6), e(4, 10, 20, .up, 6)] }
        return sorted(all)
    }

    static func sorted(_ events: [PointerEvent]) -> [PointerEvent] {
        events.sorted { ($0.nanoseconds, $0.pointer) < ($1.nanoseconds, $1.pointer) }
    }

    /// Kernel events `(type, code, value)` per frame.
    enum TouchProtocol { case a, aWithoutIDs, b, single, singleToolFinger }

    static func kernelEvents(_ kind: TouchProtocol) -> [[(Int, Int, Int32)]] {
        var out: [[(Int, Int, Int32)]] = []
        var previous: [Int32: (x: Int32, y: Int32, slot: Int)] = [:]
        for frame in frames {
            var events: [(Int, Int, Int32)] = []
            switch kind {
            case .a, .aWithoutIDs:
                for contact in frame {
                    if kind == .a { events.append((3, 0x39, contact.id)) }
                    events += [(3, 0x35, contact.x), (3, 0x36, contact.y), (0, 2, 0)]
                }
                if frame.isEmpty { events.append((0, 2, 0)) }
            case .b:
                for (id, old) in previous.sorted(by: { $0.value.slot < $1.value.slot }) where !frame.contains(where: { $0.id == id }) {
                    events += [(3, 0x2f, Int32(old.slot)), (3, 0x39, -1)]
                    previous[id] = nil
                }
                for contact in frame {
                    let slot = previous[contact.id]?.slot ?? (contact.id == 5 ? 0 : 1)
                    var changes: [(Int, Int, Int32)] = []
                    if previous[contact.id] == nil { changes.append((3, 0x39, contact.id)) }
                    if previous[contact.id]?.x != contact.x { changes.append((3, 0x35, contact.x)) }
                    if previous[contact.id]?.y != contact.y { changes.append((3, 0x36, contact.y)) }
                    if !changes.isEmpty { events += [(3, 0x2f, Int32(slot))] + changes }
                    previous[contact.id] = (contact.x, contact.y, slot)
                }
            case .single, .singleToolFinger:
                let button = kind == .single ? 0x14a : 0x145
                if let contact = frame.first(where: { $0.id == 5 }) {
                    events += [(3, 0x00, contact.x), (3, 0x01, contact.y)]
                    if out.isEmpty { events.append((1, button, 1)) }
                } else {
                    events.append((1, button, 0))
                }
            }
            events.append((0, 0, 0))
            out.append(events)
        }
        return out
    }

    enum Form: CaseIterable { case numeric, numericWithDevice, labelled, labelledWithDevice }

    static let labels: [Int: String] = [0: "EV_SYN", 1: "EV_KEY", 3: "EV_ABS"]
    static let codeLabels: [Int: [Int: String]] = [
        0: [0: "SYN_REPORT", 2: "SYN_MT_REPORT"], 1: [0x14a: "BTN_TOUCH", 0x145: "BTN_TOOL_FINGER"],
        3: [0: "ABS_X", 1: "ABS_Y", 0x2f: "ABS_MT_SLOT", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y", 0x39: "ABS_MT_TRACKING_ID"]
    ]

    static func hex(_ value: Int, width: Int) -> String {
        let digits = String(UInt32(truncatingIfNeeded: value), radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func getevent(_ kind: TouchProtocol, _ form: Form) -> String {
        let labelled = form == .labelled || form == .labelledWithDevice
        let prefix = form == .numericWithDevice || form == .labelledWithDevice ? "/dev/input/event2: " : ""
        var text = labelled ? "add device 1: /dev/input/event2\n  name:     \"touchscreen\"\n" : ""
        for (index, frame) in kernelEvents(kind).enumerated() {
            for (type, code, value) in frame {
                let typeText = labelled ? labels[type]! : hex(type, width: 4)
                let codeText = labelled ? codeLabels[type]![code]! : hex(code, width: 4)
                let valueText = labelled && type == 1 ? (value == 1 ? "DOWN" : "UP") : hex(Int(value), width: 8)
                text += "[\(String(repeating: " ", count: 4))\(stamp(index))] \(prefix)\(typeText) \(codeText) \(valueText)\n"
            }
        }
        return text
    }

    static func evemu(_ kind: TouchProtocol, axisLines: Bool = true) -> String {
        var text = "# EVEMU 1.3\nN: Test Panel\nI: 0018 0000 0000 0000\n"
        if axisLines { text += "A: 00 0 1279 0 0 0\nA: 01 0 767 0 0 0\nA: 35 0 1279 0 0 0\nA: 36 0 767 0 0 0\n" }
        for (index, frame) in kernelEvents(kind).enumerated() {
            for (type, code, value) in frame {
                let valueText = value < 0 ? "-\(String(format: "%03d", -value))" : String(format: "%04d", value)
                text += "E: \(stamp(index) ) \(hex(type, width: 4)) \(hex(code, width: 4)) \(valueText)\t# comment\n"
            }
        }
        return text
    }

    static func events(_ text: String, _ format: PointerLogFormat, name: String = "touch.txt") throws -> [PointerEvent] {
        let path = try CaptureTestFiles.log(text, name: name)
        var events: [PointerEvent] = []
        let summary = try PointerLogImporter(configuration: .init(format: format)).forEachEvent(inLogAt: path) {
            events.append($0)
            return true
        }
        #expect(summary.noTouchReason == nil)
        return sorted(events)
    }

    @Test(arguments: Form.allCases)
    func protocolBInEveryForm(form: Form) throws {
        #expect(try Self.events(Self.getevent(.b, form), .getevent) == Self.expected())
    }

    @Test(arguments: Form.allCases)
    func protocolAInEveryForm(form: Form) throws {
        #expect(try Self.events(Self.getevent(.a, form), .getevent) == Self.expected())
    }

    @Test func protocolAWithoutTrackingIDsNumbersNewContactsFromZero() throws {
        // Without ids, contact 5 is pointer 0 and contact 6, landing beside it, pointer 1.
        let expected = Self.expected().map {
            PointerEvent(nanoseconds: $0.nanoseconds, location: $0.location, phase: $0.phase, pointer: $0.pointer - 5)
        }
        #expect(try Self.events(Self.getevent(.aWithoutIDs, .numeric), .getevent) == Self.sorted(expected))
    }

    /// A protocol-A panel without tracking ids (`getevent -t`), three fingers resting at x = 200,
    /// 400 and 605 (12 ms frames, a unit of jitter): then the two on the left lift, and the
    /// kernel lists the one left first. (`ABS_MT_POSITION_X` is `0035`, `_Y` `0036`,
    /// `SYN_MT_REPORT` `0000 0002`, `SYN_REPORT` `0000 0000`.)
    static let restingFingers = """
        [  200.000000] /dev/input/event1: 0003 0035 000000c8
        [  200.000000] /dev/input/event1: 0003 0036 000005dc
        [  200.000000] /dev/input/event1: 0000 0002 00000000
        [  200.000000] /dev/input/event1: 0003 0035 00000190
        [  200.000000] /dev/input/event1: 0003 0036 000005dc
        [  200.000000] /dev/input/event1: 0000 0002 00000000
        [  200.000000] /dev/input/event1: 0003 0035 0000025d
        [  200.000000] /dev/input/event1: 0003 0036 000005dc
        [  200.000000] /dev/input/event1: 0000 0002 00000000
        [  200.000000] /dev/input/event1: 0000 0000 00000000
        [  200.012000] /dev/input/event1: 0003 0035 000000c9
        [  200.012000] /dev/input/event1: 0003 0036 000005dc
        [  200.012000] /dev/input/event1: 0000 0002 00000000
        [  200.012000] /dev/input/event1: 0003 0035 00000190
        [  200.012000] /dev/input/event1: 0003 0036 000005dd
        [  200.012000] /dev/input/event1: 0000 0002 00000000
        [  200.012000] /dev/input/event1: 0003 0035 0000025d
        [  200.012000] /dev/input/event1: 0003 0036 000005dc
        [  200.012000] /dev/input/event1: 0000 0002 00000000
        [  200.012000] /dev/input/event1: 0000 0000 00000000
        [  200.024000] /dev/input/event1: 0003 0035 0000025d
        [  200.024000] /dev/input/event1: 0003 0036 000005dc
        [  200.024000] /dev/input/event1: 0000 0002 00000000
        [  200.024000] /dev/input/event1: 0000 0000 00000000
        [  200.036000] /dev/input/event1: 0003 0035 0000025e
        [  200.036000] /dev/input/event1: 0003 0036 000005dd
        [  200.036000] /dev/input/event1: 0000 0002 00000000
        [  200.036000] /dev/input/event1: 0000 0000 00000000
        [  200.048000] /dev/input/event1: 0000 0002 00000000
        [  200.048000] /dev/input/event1: 0000 0000 00000000

        """

    @Test func protocolAContactsAreFollowedByDistanceWhenTwoOfThreeRestingFingersLift() throws {
        let events = try Self.events(Self.restingFingers, .getevent)
        let t0: Int64 = 200_000_000_000
        func e(_ ms: Int64, _ x: Double, _ y: Double, _ phase: PointerEvent.Phase, _ id: Int) -> PointerEvent {
            PointerEvent(nanoseconds: t0 + ms * 1_000_000, x: x, y: y, phase: phase, pointer: id)
        }
        // The finger left at x = 605 keeps pointer 2; pointers 0 and 1 lift where they were.
        #expect(
            events
                == Self.sorted([
                    e(0, 200, 1500, .down, 0), e(0, 400, 1500, .down, 1), e(0, 605, 1500, .down, 2),
                    e(12, 201, 1500, .move, 0), e(12, 400, 1501, .move, 1),
                    e(24, 201, 1500, .up, 0), e(24, 400, 1501, .up, 1),
                    e(36, 606, 1501, .move, 2), e(48, 606, 1501, .up, 2)
                ]))
        // No pointer moves further than the jitter between two frames.
        var last: [Int: PointerEvent] = [:]
        for event in events {
            if let before = last[event.pointer] {
                #expect(abs(event.location.x - before.location.x) <= 1 && abs(event.location.y - before.location.y) <= 1)
            }
            last[event.pointer] = event
        }
        // So no pan is recorded: pointer 0 lifts where it went down.
        let folder = try CaptureTestFiles.folder()
        let path = try CaptureTestFiles.log(Self.restingFingers, name: "resting.txt", in: folder)
        let screen = ScreenGeometry(width: 1080, height: 1920, scale: 1)
        let recording = GestureRecording(
            configuration: .init(recognizer: .init(screen: screen), metadata: TraceMetadata(id: "")),
            destination: RecordingDestination(folder: folder, stem: "resting"))
        let options = GeteventOptions(axes: GeteventAxes(x: 0...1080, y: 0...1920), screen: screen)
        _ = try PointerLogImporter(configuration: .init(format: .getevent, getevent: options)).record(logAt: path, into: recording)
        #expect(recording.gestures.isEmpty)
    }

    @Test func protocolsAAndBMixedFrameByFrameGiveTheSameEvents() throws {
        // The first three frames in protocol B, the rest in protocol A (contacts 5 and 6 go on).
        let b = Self.getevent(.b, .numeric).split(separator: "\n", omittingEmptySubsequences: false)
        let a = Self.getevent(.a, .numeric).split(separator: "\n", omittingEmptySubsequences: false)
        let cut = Self.stamp(3)
        let text =
            b.filter { !$0.contains(cut) && !$0.contains(Self.stamp(4)) && !$0.contains(Self.stamp(5)) && !$0.isEmpty }
            .joined(separator: "\n") + "\n"
            + a.filter { $0.contains(cut) || $0.contains(Self.stamp(4)) || $0.contains(Self.stamp(5)) }.joined(separator: "\n") + "\n"
        #expect(try Self.events(text, .getevent) == Self.expected())
    }

    @Test(arguments: [Form.numeric, .labelledWithDevice])
    func singleTouchDevices(form: Form) throws {
        #expect(try Self.events(Self.getevent(.single, form), .getevent) == Self.expected(singleTouch: true))
        #expect(try Self.events(Self.getevent(.singleToolFinger, form), .getevent) == Self.expected(singleTouch: true))
    }

    @Test(arguments: [TouchProtocol.a, .b, .single])
    func evemuRecordings(kind: TouchProtocol) throws {
        #expect(try Self.events(Self.evemu(kind), .evemu, name: "panel.events") == Self.expected(singleTouch: kind == .single))
    }

    @Test func evemuTakesTheAxisRangesOfTheDescriptionBeside() throws {
        let folder = try CaptureTestFiles.folder()
        let path = try CaptureTestFiles.log(Self.evemu(.b, axisLines: false), name: "Test Panel.1-finger.events", in: folder)
        func record() throws -> Int {
            let recording = GestureRecording(
                configuration: .init(recognizer: .init(screen: ScreenGeometry(width: 1280, height: 768, scale: 1)), metadata: TraceMetadata(id: "")),
                destination: RecordingDestination(folder: folder, stem: "t"))
            let importer = PointerLogImporter(
                configuration: .init(format: .evemu, getevent: GeteventOptions(screen: ScreenGeometry(width: 1280, height: 768, scale: 1))))
            _ = try importer.record(logAt: path, into: recording)
            return recording.gestures.count
        }
        let error = #expect(throws: CaptureError.self) { try record() }
        #expect(error?.description.contains("no axis ranges") == true)
        _ = try CaptureTestFiles.log("N: Test Panel\nA: 35 0 1279 0 0 0\nA: 36 0 767 0 0 0\n", name: "Test Panel.desc", in: folder)
        #expect(try record() == 1)
    }

    /// An A: line whose range cannot map positions (MIN not below MAX) is reported as
    /// unusable, with its line and range, not as missing; a usable range beside it still works.
    @Test func anUnusableAxisRangeIsNamedWithItsLineNotCalledMissing() throws {
        let folder = try CaptureTestFiles.folder()
        let unusable = Self.evemu(.b).replacingOccurrences(
            of: "A: 35 0 1279 0 0 0\nA: 36 0 767 0 0 0\n", with: "A: 35 0 0 0 0 0\nA: 36 767 767 0 0 0\n"
        )
        .replacingOccurrences(of: "A: 00 0 1279 0 0 0\nA: 01 0 767 0 0 0\n", with: "")
        let path = try CaptureTestFiles.log(unusable, name: "Flat.events", in: folder)
        func record() throws -> Int {
            let recording = GestureRecording(
                configuration: .init(recognizer: .init(screen: ScreenGeometry(width: 1280, height: 768, scale: 1)), metadata: TraceMetadata(id: "")),
                destination: RecordingDestination(folder: folder, stem: "t"))
            let importer = PointerLogImporter(
                configuration: .init(format: .evemu, getevent: GeteventOptions(screen: ScreenGeometry(width: 1280, height: 768, scale: 1))))
            _ = try importer.record(logAt: path, into: recording)
            return recording.gestures.count
        }
        let error = #expect(throws: CaptureError.self) { try record() }
        let text = error?.description ?? ""
        #expect(text.contains("no usable axis ranges: line 4: A: ABS_MT_POSITION_X 0…0; line 5: A: ABS_MT_POSITION_Y 767…767"), "\(text)")
        #expect(!text.contains("no A: lines"))
        _ = try CaptureTestFiles.log("N: Flat\nA: 35 0 1279 0 0 0\nA: 36 0 767 0 0 0\n", name: "Flat.desc", in: folder)
        #expect(try record() == 1)
    }

    @Test func aLogWithoutTouchesSaysWhy() throws {
        let keys = "[    1.000000] /dev/input/event0: EV_KEY KEY_VOLUMEDOWN DOWN\n[    1.000000] /dev/input/event0: EV_SYN SYN_REPORT 00000000\n"
        let path = try CaptureTestFiles.log(keys, name: "keys.txt")
        let summary = try PointerLogImporter(configuration: .init(format: .getevent)).forEachEvent(inLogAt: path) { _ in true }
        #expect(summary.noTouchReason?.contains("no touch events") == true)
        let other = try CaptureTestFiles.log(Self.getevent(.b, .numericWithDevice), name: "other.txt")
        let elsewhere = try PointerLogImporter(configuration: .init(format: .getevent, getevent: GeteventOptions(device: "/dev/input/event7")))
            .forEachEvent(inLogAt: other) { _ in true }
        #expect(elsewhere.noTouchReason?.contains("/dev/input/event2, which were not read") == true)
    }

    @Test func skippingBadLinesCountsThemByReason() throws {
        // A repeated down, a line that is not a log line, then the rest of a pan.
        let text = "t_ms,x,y,phase\n0,10,10,down\n0,10,10,down\nnot a line\n10,40,10,move\n20,80,10,move\n30,80,10,up\n"
        let path = try CaptureTestFiles.log(text)
        #expect(throws: CaptureError.self) {
            try PointerLogImporter(configuration: .init(format: .csv)).forEachEvent(inLogAt: path) { _ in true }
        }
        let folder = try CaptureTestFiles.folder()
        let recording = GestureRecording(
            configuration: .init(metadata: TraceMetadata(id: "")), destination: RecordingDestination(folder: folder, stem: "t"))
        let summary = try PointerLogImporter(configuration: .init(format: .csv, skipsBadLines: true)).record(logAt: path, into: recording)
        #expect(recording.gestures.count == 1)
        #expect(summary.skippedTotal == 2)
        #expect(summary.skipped["down of a pointer already down (repeated event?)"] == 1)
        #expect(summary.skippedExamples.map(\.line) == [3, 4])
    }

    // MARK: - Real captures

    /// Gestures per real capture, from reading the logs: touches are `ABS_MT_TRACKING_ID`s
    /// that are not -1 (`grep -c`), minus those that lift within the 10 pt slop; the evemu
    /// recordings hold one pan each except the taps, the two-finger touch-releases on
    /// EP0430M09 and N-Trig (the first finger still) and QUANTA's session (9 touches, 8 pans).
    static let realCaptures: [(String, Int)] = [
        ("android-emulator-getevent/demoapp_scenarios_replay_recordings.txt", 53),  // 107 touches
        ("android-emulator-getevent/recorded_touch_events.txt", 46),  // 76 touches
        ("android-emulator-getevent/recorded_touch_events_contentsquare_demo.txt", 46),  // 77 touches
        ("android-emulator-getevent/recorded_touch_events_sr_test_scenario.txt", 34),  // 44 touches
        ("android-emulator-getevent/wikipedia_scenarios_replay_recordings.txt", 4),  // 17 touches
        ("evemu-touchscreens/orig/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events", 1),
        ("evemu-touchscreens/orig/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", 0),  // 9 taps
        ("evemu-touchscreens/orig/Atmel maXTouch Touchscreen.2-fingers-touch-release.events", 1),
        ("evemu-touchscreens/orig/Atmel maXTouch Touchscreen.4-finger-drag-down.events", 1),
        ("evemu-touchscreens/orig/ELAN CANDO Windows7.1-finger-drag-up-down.events", 1),
        ("evemu-touchscreens/orig/EP0430M09.1-finger-drag-up-down.events", 1),
        ("evemu-touchscreens/orig/EP0430M09.2-finger-scroll-down.events", 1),
        ("evemu-touchscreens/orig/EP0430M09.2-fingers-touch-release.events", 0),
        ("evemu-touchscreens/orig/EP0430M09.4-finger-drag-down.events", 1),
        ("evemu-touchscreens/orig/N-Trig MultiTouch.1-finger-drag-NW-SE.events", 1),  // protocol A
        // Protocol A without tracking ids: the second finger lands listed first, and the first
        // lifts without moving. (Read by place in the frame, pointer 0 jumped to the second
        // finger: a false pan.)
        ("evemu-touchscreens/orig/N-Trig MultiTouch.2-fingers-touch-release.events", 0),
        ("evemu-touchscreens/orig/QUANTA OpticalTouchScreen.events", 8),
        ("evemu-touchscreens/orig/QUANTA OpticalTouchScreen.touch-hover.events", 1),
        ("evemu-touchscreens/orig/QUANTA OpticalTouchScreen.touch-on-left.events", 1)
    ]

    @Test(.needsRealCaptures, arguments: realCaptures)
    func realCapturesImportWithTheGesturesCounted(file: String, gestures: Int) throws {
        let root = try #require(SharedData.folder(SharedData.realCaptures))
        let path = root.appendingPathComponent(file).path
        let isAndroid = file.hasPrefix("android")
        // The emulator's panel is 0…32767 on both axes, on a 411 × 731 pt screen at 2.625.
        let screen = isAndroid ? ScreenGeometry(width: 411, height: 731, scale: 2.625) : ScreenGeometry(width: 1280, height: 800, scale: 1)
        let options = GeteventOptions(axes: isAndroid ? GeteventAxes(x: 0...32767, y: 0...32767) : nil, screen: screen)
        let recording = GestureRecording(
            configuration: .init(recognizer: .init(screen: screen), metadata: TraceMetadata(id: "")),
            destination: RecordingDestination(folder: try CaptureTestFiles.folder(), stem: "real"))
        let summary = try PointerLogImporter(configuration: .init(format: isAndroid ? .getevent : .evemu, getevent: options))
            .record(logAt: path, into: recording)
        #expect(summary.noTouchReason == nil)
        #expect(recording.gestures.count == gestures)
        #expect(summary.warnings.isEmpty)
    }

    @Test func realCapturesAreListedInFull() throws {
        guard let root = SharedData.folder(SharedData.realCaptures) else { return }
        var found: [String] = []
        for folder in ["android-emulator-getevent", "evemu-touchscreens/orig"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            where name.hasSuffix(".txt") || name.hasSuffix(".events") {
                found.append("\(folder)/\(name)")
            }
        }
        #expect(found.sorted() == Self.realCaptures.map(\.0).sorted())
    }
}
