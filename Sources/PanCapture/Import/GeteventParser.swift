internal import PanTrace

/// Reads Android `getevent` logs (AOSP `system/core/toolbox/getevent.c`): `-lt` (labelled),
/// `-t` (numeric), with or without the device prefix `getevent` adds when it reads several
/// devices.
///
/// Each event line is `[ seconds.micros] [device: ]TYPE CODE VALUE`, with TYPE and CODE
/// either labels (`EV_ABS ABS_MT_POSITION_X`) or four hex digits, and VALUE eight hex digits
/// (`%08x`) or a label (`DOWN`, `UP`; others are read as nothing). The header lines getevent
/// prints when it opens devices are skipped; lines without a timestamp (`getevent` or
/// `getevent -l` without `-t`) are refused, since a pan needs times. The events of the one
/// device followed go to ``EvdevContacts``, which reads protocol A, protocol B and
/// single-touch devices; lines of other devices are checked and counted.
struct GeteventParser: PointerLogParser {
    let options: GeteventOptions
    /// Whether positions must be mapped to points (record) or may stay in panel units.
    let requiresMapping: Bool
    private(set) var followed: String?
    /// The last device prefix seen, as bytes and as text (``deviceName(_:)``).
    private var lastDevice: (bytes: [UInt8], name: String)?
    private var contacts: EvdevContacts
    /// Event lines of devices not followed, and those devices.
    private(set) var otherDeviceLines = 0
    private var otherDevices: Set<String> = []
    private var eventLines = 0

    init(options: GeteventOptions, requiresMapping: Bool) {
        self.options = options
        self.requiresMapping = requiresMapping
        self.followed = options.device
        contacts = EvdevContacts(screen: options.screen, resolveAxes: nil)
        if requiresMapping {
            let options = options
            let followed = options.device
            contacts.resolveAxes = { () throws(CaptureError) in try Self.resolveAxes(options, device: followed ?? "") }
        }
    }

    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError) {
        let content = ASCIINumber.trimmed(line)
        guard let first = content.first else { return }
        guard first == UInt8(ascii: "[") else {
            try Self.checkHeader(content, line)
            return
        }
        let (nanoseconds, deviceBytes, typeField, codeField, valueField) = try Self.split(content)
        let type = try Self.type(typeField)
        let code = try Self.code(codeField, type: type)
        let value = try Self.value(valueField)
        eventLines += 1
        guard follows(deviceName(deviceBytes), type: type, code: code) else { return }
        try contacts.handle(type: type, code: code, value: value, at: nanoseconds, into: &events)
    }

    var noTouchReason: String? {
        guard contacts.touches == 0 else { return nil }
        if eventLines == 0 { return "no getevent event lines" }
        let others = otherDevices.sorted().joined(separator: ", ")
        if let followed {
            let name = followed.isEmpty ? "the device" : followed
            if !contacts.sawTouchEvent {
                return otherDeviceLines > 0
                    ? "no touch events for \(name): all \(otherDeviceLines) other event lines are from \(others), which were not read (--device)"
                    : "no touch events for \(name) (no ABS_MT_*, ABS_X/ABS_Y or BTN_TOUCH)"
            }
            return "\(name) sent touch events but no contact went down with a position"
        }
        return "no touch events (no ABS_MT_*, ABS_X/ABS_Y or BTN_TOUCH) from any device"
            + (others.isEmpty ? "" : " (\(others))")
    }

    // MARK: - Steps

    /// Lines getevent prints as it opens devices, before any event; anything else is an error.
    static func checkHeader(_ content: ArraySlice<UInt8>, _ line: ArraySlice<UInt8>) throws(CaptureError) {
        if content.starts(with: "add device".utf8) || content.starts(with: "name:".utf8) || content.starts(with: "could not".utf8)
            || line.first == 0x20 || line.first == 0x09
        {
            return
        }
        let fields = LineFields(content)
        if fields.count == 3 || (fields.count == 4 && fields[0].last == UInt8(ascii: ":")),
            (try? type(fields[fields.count - 3])) != nil
        {
            throw CaptureError(.unsupported("a getevent line without a timestamp: record with getevent -t or -lt, a pan needs times"))
        }
        throw CaptureError(.malformedLine("not a getevent line: expected \"[ seconds.micros] …\", found \(ASCIINumber.quoted(content))"))
    }

    /// The timestamp, the device prefix (empty when none) and the three fields TYPE CODE VALUE.
    static func split(_ content: ArraySlice<UInt8>) throws(CaptureError) -> (
        Int64, device: ArraySlice<UInt8>, type: ArraySlice<UInt8>, code: ArraySlice<UInt8>, value: ArraySlice<UInt8>
    ) {
        guard let close = content.firstIndex(of: UInt8(ascii: "]")) else {
            throw CaptureError(.malformedLine("the timestamp is not closed with ]"))
        }
        let nanoseconds = try timestamp(content[(content.startIndex + 1)..<close])
        let fields = LineFields(content[(close + 1)...])
        let hasDevice = fields.count > 0 && fields[0].last == UInt8(ascii: ":")
        let first = hasDevice ? 1 : 0
        guard fields.count - first == 3 else {
            throw CaptureError(.malformedLine("expected TYPE CODE VALUE after the timestamp, found \(fields.count - first) fields"))
        }
        let device = hasDevice ? fields[0].dropLast() : content[content.endIndex...]
        return (nanoseconds, device, fields[first], fields[first + 1], fields[first + 2])
    }

    /// The device prefix as text, decoded once for a run of lines from the same device.
    private mutating func deviceName(_ bytes: ArraySlice<UInt8>) -> String {
        if let cached = lastDevice, cached.bytes.elementsEqual(bytes) { return cached.name }
        let name = String(decoding: bytes, as: UTF8.self)
        lastDevice = (Array(bytes), name)
        return name
    }

    /// Whether the line's device is the one followed; the first device to send a touch event
    /// is followed when none was named.
    private mutating func follows(_ device: String, type: Int, code: Int) -> Bool {
        if followed == nil, Self.isTouch(type: type, code: code) {
            followed = device
            if requiresMapping {
                let options = options
                contacts.resolveAxes = { () throws(CaptureError) in try Self.resolveAxes(options, device: device) }
            }
        }
        guard let followed, device == followed else {
            otherDeviceLines += 1
            if otherDevices.count < 8 { otherDevices.insert(device.isEmpty ? "(no prefix)" : device) }
            return false
        }
        return true
    }

    static func isTouch(type: Int, code: Int) -> Bool {
        (type == EvdevContacts.Codes.evABS
            && (EvdevContacts.Codes.multiTouch.contains(code) || code == EvdevContacts.Codes.absX || code == EvdevContacts.Codes.absY))
            || (type == EvdevContacts.Codes.evKEY && code == EvdevContacts.Codes.btnTouch)
            || (type == EvdevContacts.Codes.evSYN && code == EvdevContacts.Codes.synMTReport)
    }

    static func resolveAxes(_ options: GeteventOptions, device: String) throws(CaptureError) -> GeteventAxes {
        if let axes = options.axes { return axes }
        if let axes = options.deviceAxes[device] { return axes }
        if options.deviceAxes.count == 1, let only = options.deviceAxes.first?.value, device.isEmpty || options.deviceAxes.keys.first == "" {
            return only
        }
        let known = options.deviceAxes.keys.sorted().joined(separator: ", ")
        throw CaptureError(
            .invalidArgument(
                "no axis ranges for \(device.isEmpty ? "the device" : device): pass --device-info (a getevent -p dump) or --axis-range"
                    + (known.isEmpty ? "" : " (the dump has \(known))")))
    }

    // MARK: - Tokens

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

    /// Eight hex digits, or a label: `DOWN` 1, `UP` 0, any other nil.
    static func value(_ token: ArraySlice<UInt8>) throws(CaptureError) -> Int32? {
        if token.count == 8, let hex = ASCIINumber.hex(token) { return Int32(truncatingIfNeeded: hex) }
        if token.elementsEqual("DOWN".utf8) { return 1 }
        if token.elementsEqual("UP".utf8) { return 0 }
        if let first = token.first, !(ASCIINumber.zero...ASCIINumber.nine).contains(first), ASCIINumber.hex(token) == nil {
            return nil  // A value label (MT_TOOL_FINGER): fine for events PanTrace does not use.
        }
        throw CaptureError(.malformedLine("VALUE must be eight hex digits, found \(ASCIINumber.quoted(token))"))
    }

    static func type(_ token: ArraySlice<UInt8>) throws(CaptureError) -> Int {
        if token.count == 4, let hex = ASCIINumber.hex(token) { return Int(hex) }
        if token.elementsEqual("EV_SYN".utf8) { return EvdevContacts.Codes.evSYN }
        if token.elementsEqual("EV_KEY".utf8) { return EvdevContacts.Codes.evKEY }
        if token.elementsEqual("EV_ABS".utf8) { return EvdevContacts.Codes.evABS }
        guard token.starts(with: "EV_".utf8) else {
            throw CaptureError(.malformedLine("TYPE must be an EV_ label or four hex digits, found \(ASCIINumber.quoted(token))"))
        }
        return 0xFFFF  // EV_MSC, EV_REL, …: nothing PanTrace reads.
    }

    static func code(_ token: ArraySlice<UInt8>, type: Int) throws(CaptureError) -> Int {
        typealias C = EvdevContacts.Codes
        if token.count == 4, let hex = ASCIINumber.hex(token) { return Int(hex) }
        let labels: [(String, Int)]
        switch type {
        case C.evSYN: labels = [("SYN_REPORT", C.synReport), ("SYN_MT_REPORT", C.synMTReport), ("SYN_DROPPED", C.synDropped)]
        case C.evABS:
            labels = [
                ("ABS_MT_SLOT", C.absMTSlot), ("ABS_MT_POSITION_X", C.absMTPositionX), ("ABS_MT_POSITION_Y", C.absMTPositionY),
                ("ABS_MT_TRACKING_ID", C.absMTTrackingID), ("ABS_X", C.absX), ("ABS_Y", C.absY)
            ]
        case C.evKEY: labels = [("BTN_TOUCH", C.btnTouch), ("BTN_TOOL_FINGER", C.btnToolFinger)]
        default: labels = []
        }
        for (label, value) in labels where token.elementsEqual(label.utf8) { return value }
        return C.other
    }
}
