internal import PanTrace

/// Reads `adb shell getevent -lt` (labelled) and `getevent -t` (numeric) logs of a
/// multi-touch protocol B panel (AOSP `system/core/toolbox/getevent.c`; the kernel's
/// `Documentation/input/multi-touch-protocol.rst`).
///
/// Each event line is `[ seconds.micros] [device: ]TYPE CODE VALUE`, with TYPE and CODE
/// either labels (`EV_ABS ABS_MT_POSITION_X`) or four hex digits, and VALUE eight hex digits
/// (`%08x`) or, for events PanTrace does not use, a label (`DOWN`). The header lines getevent
/// prints when it opens devices are skipped. Per device, slots hold the contact's tracking
/// id and last position (the kernel sends only what changed, even across contacts);
/// `SYN_REPORT` turns what changed into events, slot by slot: a tracking id of `ffffffff`
/// lifts the contact (`up` at its last position), a new id starts one (`down`), a new
/// position moves it. The pointer of an event is the contact's tracking id. `SYN_DROPPED`
/// (the kernel's buffer overflowed) cancels every contact; contacts are ignored until they
/// get a new tracking id. Protocol A (`SYN_MT_REPORT`) is refused.
struct GeteventParser: PointerLogParser {
    private struct Slot {
        var trackingID: Int32 = -1
        var x: Int32 = 0, y: Int32 = 0
        var hasPosition = false
        /// The tracking id of the contact reported down, or nil.
        var reported: Int32?
        var hasMoved = false
        var isNew = false
        var isLifted = false
    }

    static let maximumSlots = 64

    let options: GeteventOptions
    /// Whether positions must be mapped to points (record) or may stay in panel units.
    let requiresMapping: Bool
    private(set) var followed: String?
    private var axes: GeteventAxes?
    private var slots: [Slot] = []
    private var slot = 0
    private var isResynchronizing = false

    init(options: GeteventOptions, requiresMapping: Bool) {
        self.options = options
        self.requiresMapping = requiresMapping
        self.followed = options.device
    }

    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError) {
        let content = ASCIINumber.trimmed(line)
        guard let first = content.first else { return }
        guard first == UInt8(ascii: "[") else {
            // Lines getevent prints as it opens devices, before any event.
            if content.starts(with: "add device".utf8) || content.starts(with: "name:".utf8) || content.starts(with: "could not".utf8)
                || line.first == 0x20 || line.first == 0x09
            {
                return
            }
            throw CaptureError(.malformedLine("not a getevent line: expected \"[ seconds.micros] …\", found \(ASCIINumber.quoted(content))"))
        }
        guard let close = content.firstIndex(of: UInt8(ascii: "]")) else {
            throw CaptureError(.malformedLine("the timestamp is not closed with ]"))
        }
        let nanoseconds = try Self.timestamp(content[(content.startIndex + 1)..<close])
        var tokens = content[(close + 1)...].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        var device = ""
        if let token = tokens.first, token.last == UInt8(ascii: ":") {
            device = String(decoding: token.dropLast(), as: UTF8.self)
            tokens.removeFirst()
        }
        guard tokens.count == 3 else {
            throw CaptureError(.malformedLine("expected TYPE CODE VALUE after the timestamp, found \(tokens.count) fields"))
        }
        let type = try Self.type(tokens[0])
        let code = try Self.code(tokens[1], type: type)
        let rawValue = tokens[2]
        let value: Int32?
        if rawValue.count == 8, let hex = ASCIINumber.hex(rawValue) {
            value = Int32(truncatingIfNeeded: hex)
        } else if let first = rawValue.first, !(ASCIINumber.zero...ASCIINumber.nine).contains(first), ASCIINumber.hex(rawValue) == nil {
            value = nil  // A value label (DOWN, MT_TOOL_FINGER): fine for events PanTrace does not use.
        } else {
            throw CaptureError(.malformedLine("VALUE must be eight hex digits, found \(ASCIINumber.quoted(rawValue))"))
        }

        if followed == nil, type == Self.evABS, Self.multiTouchCodes.contains(code) {
            followed = device
        }
        guard let followed, device == followed else { return }
        if type == Self.evSYN, code == Self.synMTReport {
            throw CaptureError(
                .unsupported("SYN_MT_REPORT: multi-touch protocol A is not supported (only protocol B: ABS_MT_SLOT, ABS_MT_TRACKING_ID)"))
        }
        if type == Self.evSYN, code == Self.synDropped {
            for index in slots.indices {
                if let id = slots[index].reported {
                    events.append(event(nanoseconds, slots[index], .cancel, id: id))
                }
                slots[index].reported = nil
                slots[index].isNew = false
                slots[index].isLifted = false
                slots[index].hasMoved = false
            }
            isResynchronizing = true
            return
        }
        if type == Self.evSYN, code == Self.synReport {
            if isResynchronizing {
                isResynchronizing = false
                return
            }
            try report(at: nanoseconds, into: &events)
            return
        }
        guard type == Self.evABS, !isResynchronizing else { return }
        switch code {
        case Self.absMTSlot:
            guard let value, (0..<Self.maximumSlots).contains(Int(value)) else {
                throw CaptureError(.malformedLine("ABS_MT_SLOT must be 0…\(Self.maximumSlots - 1)"))
            }
            slot = Int(value)
        case Self.absMTTrackingID:
            guard let value else { throw CaptureError(.malformedLine("ABS_MT_TRACKING_ID needs a hex value")) }
            ensureSlot()
            if value < 0 {
                if slots[slot].reported != nil { slots[slot].isLifted = true }
                slots[slot].isNew = false
            } else {
                if slots[slot].reported != nil, slots[slot].reported != value { slots[slot].isLifted = true }
                slots[slot].isNew = slots[slot].reported != value
            }
            slots[slot].trackingID = value
        case Self.absMTPositionX, Self.absMTPositionY:
            guard let value else { throw CaptureError(.malformedLine("ABS_MT_POSITION_X/Y needs a hex value")) }
            ensureSlot()
            if code == Self.absMTPositionX { slots[slot].x = value } else { slots[slot].y = value }
            slots[slot].hasPosition = true
            slots[slot].hasMoved = true
        default:
            return
        }
    }

    private mutating func ensureSlot() {
        while slots.count <= slot { slots.append(Slot()) }
    }

    /// Turns what changed since the last `SYN_REPORT` into events, slot by slot.
    private mutating func report(at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        if requiresMapping, axes == nil, slots.contains(where: { $0.isNew }) {
            axes = try resolveAxes()
        }
        for index in slots.indices {
            var s = slots[index]
            if s.isLifted, let id = s.reported {
                events.append(event(nanoseconds, s, .up, id: id))
                s.reported = nil
            }
            if s.isNew, s.trackingID >= 0 {
                guard s.hasPosition else {
                    throw CaptureError(.malformedLine("contact \(s.trackingID) in slot \(index) goes down without ABS_MT_POSITION_X/Y"))
                }
                s.reported = s.trackingID
                events.append(event(nanoseconds, s, .down, id: s.trackingID))
            } else if s.hasMoved, let id = s.reported {
                events.append(event(nanoseconds, s, .move, id: id))
            }
            s.isNew = false
            s.isLifted = false
            s.hasMoved = false
            slots[index] = s
        }
    }

    private func resolveAxes() throws(CaptureError) -> GeteventAxes {
        let device = followed ?? ""
        if let axes = options.axes { return axes }
        if let axes = options.deviceAxes[device] { return axes }
        if device.isEmpty, options.deviceAxes.count == 1, let only = options.deviceAxes.first?.value { return only }
        let known = options.deviceAxes.keys.sorted().joined(separator: ", ")
        throw CaptureError(
            .invalidArgument(
                "no ABS_MT_POSITION_X/Y ranges for \(device.isEmpty ? "the device" : device): pass --device-info (a getevent -p dump) or --axis-range"
                    + (known.isEmpty ? "" : " (the dump has \(known))")))
    }

    private func event(_ nanoseconds: Int64, _ slot: Slot, _ phase: PointerEvent.Phase, id: Int32) -> PointerEvent {
        let location: PanVector
        if let screen = options.screen, let axes = axes ?? options.axes {
            location = axes.location(rawX: slot.x, rawY: slot.y, on: screen)
        } else {
            location = PanVector(x: Double(slot.x), y: Double(slot.y))
        }
        return PointerEvent(nanoseconds: nanoseconds, location: location, phase: phase, pointer: Int(id))
    }

    // MARK: - Tokens

    static let evSYN = 0, evKEY = 1, evABS = 3
    static let synReport = 0, synMTReport = 2, synDropped = 3
    static let absMTSlot = 0x2f, absMTPositionX = 0x35, absMTPositionY = 0x36, absMTTrackingID = 0x39
    static let multiTouchCodes: Set<Int> = [absMTSlot, absMTPositionX, absMTPositionY, absMTTrackingID]
    /// Codes PanTrace does not use; any label not listed is one of them.
    static let otherCode = -1

    /// `[   53890.813990]`: `%8ld.%06ld`, seconds and microseconds of `CLOCK_MONOTONIC`.
    static func timestamp(_ bytes: ArraySlice<UInt8>) throws(CaptureError) -> Int64 {
        let text = ASCIINumber.trimmed(bytes)
        guard let dot = text.firstIndex(of: ASCIINumber.dot),
            let seconds = ASCIINumber.integer(text[..<dot]), seconds >= 0, seconds < 9_000_000_000,
            text.distance(from: dot, to: text.endIndex) == 7,
            let micros = ASCIINumber.integer(text[(dot + 1)...]), micros >= 0
        else {
            throw CaptureError(.malformedLine("bad timestamp \(ASCIINumber.quoted(bytes)): expected seconds.micros with six digits"))
        }
        return Int64(seconds) * 1_000_000_000 + Int64(micros) * 1000
    }

    static func type(_ token: ArraySlice<UInt8>) throws(CaptureError) -> Int {
        if token.count == 4, let hex = ASCIINumber.hex(token) { return Int(hex) }
        if token.elementsEqual("EV_SYN".utf8) { return evSYN }
        if token.elementsEqual("EV_KEY".utf8) { return evKEY }
        if token.elementsEqual("EV_ABS".utf8) { return evABS }
        guard token.starts(with: "EV_".utf8) else {
            throw CaptureError(.malformedLine("TYPE must be an EV_ label or four hex digits, found \(ASCIINumber.quoted(token))"))
        }
        return 0xFFFF  // EV_MSC, EV_REL, …: nothing PanTrace reads.
    }

    static func code(_ token: ArraySlice<UInt8>, type: Int) throws(CaptureError) -> Int {
        if token.count == 4, let hex = ASCIINumber.hex(token) { return Int(hex) }
        switch type {
        case evSYN:
            if token.elementsEqual("SYN_REPORT".utf8) { return synReport }
            if token.elementsEqual("SYN_MT_REPORT".utf8) { return synMTReport }
            if token.elementsEqual("SYN_DROPPED".utf8) { return synDropped }
        case evABS:
            if token.elementsEqual("ABS_MT_SLOT".utf8) { return absMTSlot }
            if token.elementsEqual("ABS_MT_POSITION_X".utf8) { return absMTPositionX }
            if token.elementsEqual("ABS_MT_POSITION_Y".utf8) { return absMTPositionY }
            if token.elementsEqual("ABS_MT_TRACKING_ID".utf8) { return absMTTrackingID }
        default:
            break
        }
        return otherCode
    }
}
