internal import PanTrace

/// Turns one input device's kernel events (`type code value`, as `getevent` and
/// `evemu-record` print them) into pointer events, whatever touch protocol the device speaks
/// (the kernel's `Documentation/input/multi-touch-protocol.rst`, `Documentation/input/event-codes.rst`):
///
/// - **Protocol B** (`ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`): slots hold each contact's tracking
///   id and last position; the kernel sends only what changed, even across contacts.
///   `SYN_REPORT` turns what changed into events, slot by slot: a tracking id of -1 lifts the
///   contact (`up` at its last position), a new id starts one (`down`), a new position moves it.
///   The pointer is the tracking id.
/// - **Protocol A** (`SYN_MT_REPORT`): each frame lists every contact down, each ended by
///   `SYN_MT_REPORT`; a contact missing from a frame has lifted, a frame without contacts
///   lifts them all. The pointer is the contact's `ABS_MT_TRACKING_ID` when the device sends
///   one; else contacts are followed from frame to frame by distance (``assignedByDistance(_:)``):
///   a contact's place in the frame says nothing, since the kernel lists what is down in
///   any order and a lift shifts the rest. A frame with a `SYN_MT_REPORT` is read as protocol A,
///   any other with `ABS_MT_*` events as protocol B, so devices that mix them are read frame
///   by frame (contacts down when a device switches from B to A go on under their ids); a
///   frame with neither lifts the protocol A contacts still down (`BTN_TOUCH` 0).
/// - **Single touch** (`ABS_X`, `ABS_Y`, `BTN_TOUCH` or, without it, `BTN_TOOL_FINGER`), read
///   only from devices that have sent no `ABS_MT_*` event: pointer 0, down while the button is.
///
/// `SYN_DROPPED` (the kernel's buffer overflowed) cancels every contact; contacts are ignored
/// until the next `SYN_REPORT`, then start again with their next tracking id.
struct EvdevContacts {
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

    /// A protocol A contact being described, before its `SYN_MT_REPORT`.
    private struct FrameContact {
        var id: Int32?
        var x: Int32?, y: Int32?
    }

    static let maximumSlots = 64

    /// Resolves the axis ranges the first time a contact goes down (nil: keep panel units).
    var resolveAxes: (() throws(CaptureError) -> GeteventAxes)?
    private(set) var axes: GeteventAxes?
    let screen: ScreenGeometry?

    /// Contacts that went down (all protocols).
    private(set) var touches = 0
    /// Whether any touch event (multi- or single-touch) was read.
    private(set) var sawTouchEvent = false

    private var slots: [Slot] = []
    private var slot = 0
    private var isResynchronizing = false
    private var sawMultiTouch = false
    // Protocol A.
    private var frameIsTypeA = false
    private var frameHasMultiTouch = false
    private var frameContacts: [(id: Int32?, x: Int32, y: Int32)] = []
    private var pending = FrameContact()
    private var typeADown: [(id: Int32, x: Int32, y: Int32)] = []
    // Single touch.
    private var singleX: Int32 = 0, singleY: Int32 = 0
    private var singleHasPosition = false, singleMoved = false
    private var buttonTouch: Bool?, toolFinger: Bool?
    private var singleDown = false

    init(screen: ScreenGeometry?, resolveAxes: (() throws(CaptureError) -> GeteventAxes)?) {
        self.screen = screen
        self.resolveAxes = resolveAxes
    }

    /// One kernel event; `value` is nil for a label PanTrace does not read.
    mutating func handle(type: Int, code: Int, value: Int32?, at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        switch type {
        case Codes.evSYN: try synchronize(code, at: nanoseconds, into: &events)
        case Codes.evABS where !isResynchronizing: try absolute(code, value)
        case Codes.evKEY where !isResynchronizing: key(code, value)
        default: return
        }
    }

    // MARK: - SYN

    private mutating func synchronize(_ code: Int, at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        switch code {
        case Codes.synDropped:
            cancelAll(at: nanoseconds, into: &events)
            isResynchronizing = true
        case Codes.synMTReport where !isResynchronizing:
            sawMultiTouch = true
            sawTouchEvent = true
            frameIsTypeA = true
            if let x = pending.x, let y = pending.y {
                frameContacts.append((pending.id, x, y))
            }
            pending = FrameContact()
        case Codes.synReport:
            if isResynchronizing {
                isResynchronizing = false
                resetFrame()
                return
            }
            if frameIsTypeA {
                try reportTypeA(at: nanoseconds, into: &events)
            } else if !frameHasMultiTouch, !typeADown.isEmpty {
                // Protocol A lifts the last contacts with a frame without any (BTN_TOUCH 0).
                try reportTypeA(at: nanoseconds, into: &events)
            } else if sawMultiTouch {
                try reportSlots(at: nanoseconds, into: &events)
            } else {
                try reportSingleTouch(at: nanoseconds, into: &events)
            }
            resetFrame()
        default:
            return
        }
    }

    private mutating func resetFrame() {
        frameIsTypeA = false
        frameHasMultiTouch = false
        frameContacts.removeAll(keepingCapacity: true)
        pending = FrameContact()
        singleMoved = false
    }

    private mutating func cancelAll(at nanoseconds: Int64, into events: inout [PointerEvent]) {
        for index in slots.indices {
            if let id = slots[index].reported {
                events.append(event(nanoseconds, slots[index].x, slots[index].y, .cancel, id: id))
            }
            slots[index].reported = nil
            slots[index].isNew = false
            slots[index].isLifted = false
            slots[index].hasMoved = false
        }
        for contact in typeADown { events.append(event(nanoseconds, contact.x, contact.y, .cancel, id: contact.id)) }
        typeADown.removeAll()
        if singleDown { events.append(event(nanoseconds, singleX, singleY, .cancel, id: 0)) }
        singleDown = false
        resetFrame()
    }

    // MARK: - ABS and KEY

    private mutating func absolute(_ code: Int, _ value: Int32?) throws(CaptureError) {
        guard Codes.multiTouch.contains(code) || code == Codes.absX || code == Codes.absY else { return }
        guard let value else { throw CaptureError(.malformedLine("\(Codes.name(code)) needs a number")) }
        sawTouchEvent = true
        if Codes.multiTouch.contains(code) {
            sawMultiTouch = true
            frameHasMultiTouch = true
        }
        switch code {
        case Codes.absMTSlot:
            guard (0..<Self.maximumSlots).contains(Int(value)) else {
                throw CaptureError(.malformedLine("ABS_MT_SLOT must be 0…\(Self.maximumSlots - 1)"))
            }
            slot = Int(value)
        case Codes.absMTTrackingID:
            pending.id = value
            ensureSlot()
            if value < 0 {
                if slots[slot].reported != nil { slots[slot].isLifted = true }
                slots[slot].isNew = false
            } else {
                if slots[slot].reported != nil, slots[slot].reported != value { slots[slot].isLifted = true }
                slots[slot].isNew = slots[slot].reported != value
            }
            slots[slot].trackingID = value
        case Codes.absMTPositionX, Codes.absMTPositionY:
            ensureSlot()
            if code == Codes.absMTPositionX {
                slots[slot].x = value
                pending.x = value
            } else {
                slots[slot].y = value
                pending.y = value
            }
            slots[slot].hasPosition = true
            slots[slot].hasMoved = true
        default:  // ABS_X, ABS_Y
            if code == Codes.absX { singleX = value } else { singleY = value }
            singleHasPosition = true
            singleMoved = true
        }
    }

    private mutating func key(_ code: Int, _ value: Int32?) {
        guard code == Codes.btnTouch || code == Codes.btnToolFinger, let value else { return }
        sawTouchEvent = true
        if code == Codes.btnTouch { buttonTouch = value != 0 } else { toolFinger = value != 0 }
    }

    private mutating func ensureSlot() {
        while slots.count <= slot { slots.append(Slot()) }
    }

    // MARK: - Reports

    private mutating func mapAxesIfNeeded() throws(CaptureError) {
        if axes == nil, let resolveAxes { axes = try resolveAxes() }
    }

    /// Protocol B: what changed since the last `SYN_REPORT`, slot by slot.
    private mutating func reportSlots(at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        if slots.contains(where: { $0.isNew }) { try mapAxesIfNeeded() }
        for index in slots.indices {
            var s = slots[index]
            if s.isLifted, let id = s.reported {
                events.append(event(nanoseconds, s.x, s.y, .up, id: id))
                s.reported = nil
            }
            if s.isNew, s.trackingID >= 0 {
                guard s.hasPosition else {
                    throw CaptureError(.malformedLine("contact \(s.trackingID) in slot \(index) goes down without ABS_MT_POSITION_X/Y"))
                }
                s.reported = s.trackingID
                touches += 1
                events.append(event(nanoseconds, s.x, s.y, .down, id: s.trackingID))
            } else if s.hasMoved, let id = s.reported {
                events.append(event(nanoseconds, s.x, s.y, .move, id: id))
            }
            s.isNew = false
            s.isLifted = false
            s.hasMoved = false
            slots[index] = s
        }
    }

    /// Protocol A: the frame lists every contact down.
    private mutating func reportTypeA(at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        // A device switching from protocol B: its contacts down go on under the same ids.
        for index in slots.indices {
            if let id = slots[index].reported {
                typeADown.append((id, slots[index].x, slots[index].y))
                slots[index].reported = nil
                slots[index].trackingID = -1
            }
        }
        // With tracking ids in every contact, they name the contacts; else distance does.
        let current: [(id: Int32, x: Int32, y: Int32)] =
            frameContacts.allSatisfy({ $0.id != nil })
            ? frameContacts.map { ($0.id!, $0.x, $0.y) } : assignedByDistance(frameContacts.map { ($0.x, $0.y) })
        for old in typeADown where !current.contains(where: { $0.id == old.id }) {
            events.append(event(nanoseconds, old.x, old.y, .up, id: old.id))
        }
        var next: [(id: Int32, x: Int32, y: Int32)] = []
        for contact in current where !next.contains(where: { $0.id == contact.id }) {
            if let old = typeADown.first(where: { $0.id == contact.id }) {
                if old.x != contact.x || old.y != contact.y { events.append(event(nanoseconds, contact.x, contact.y, .move, id: contact.id)) }
            } else {
                try mapAxesIfNeeded()
                touches += 1
                events.append(event(nanoseconds, contact.x, contact.y, .down, id: contact.id))
            }
            next.append(contact)
        }
        typeADown = next
    }

    /// Protocol A without tracking ids: which contact of the last frame each of this frame's
    /// `positions` is, by distance, as Android's input reader and mtdev do.
    ///
    /// Android (`frameworks/native/services/inputflinger/reader/mapper/TouchInputMapper.cpp`,
    /// `TouchInputMapper::assignPointerIds`, used when a `MultiTouchInputMapper` device sends no
    /// tracking ids): one contact before and one now are the same; otherwise every pair of a
    /// contact now and one before is ranked by squared distance and the closest pairs are
    /// matched first, each contact at most once. mtdev (`src/match.c`, `mtdev_match_four` for up
    /// to four contacts, else `mtdev_match`, a Hungarian method) instead minimises the sum of
    /// the squared distances; the two agree whenever contacts are further apart than they
    /// move in a frame, as fingers are. The ranking here is Android's, ties broken by the
    /// order in the frames so that a log always reads the same.
    ///
    /// Matching stops when either side is used up, so a contact matched to none before is
    /// new only when there are more contacts than before; it takes the lowest id no contact
    /// of the last frame holds, as Android's `markFirstUnmarkedBit` gives it then.
    private func assignedByDistance(_ positions: [(x: Int32, y: Int32)]) -> [(id: Int32, x: Int32, y: Int32)] {
        var ids = [Int32?](repeating: nil, count: positions.count)
        if positions.count == 1, typeADown.count == 1 {
            ids[0] = typeADown[0].id
        } else if !typeADown.isEmpty {
            var pairs: [(distance: Int64, now: Int, before: Int)] = []
            for (i, p) in positions.enumerated() {
                for (j, old) in typeADown.enumerated() {
                    let dx = Int64(p.x) - Int64(old.x), dy = Int64(p.y) - Int64(old.y)
                    pairs.append((dx * dx + dy * dy, i, j))
                }
            }
            pairs.sort { ($0.distance, $0.now, $0.before) < ($1.distance, $1.now, $1.before) }
            var taken = Set<Int>()
            for pair in pairs where ids[pair.now] == nil && !taken.contains(pair.before) {
                ids[pair.now] = typeADown[pair.before].id
                taken.insert(pair.before)
            }
        }
        var held = Set(typeADown.map(\.id))
        var result: [(id: Int32, x: Int32, y: Int32)] = []
        for (i, p) in positions.enumerated() {
            let id: Int32
            if let matched = ids[i] {
                id = matched
            } else {
                var free: Int32 = 0
                while held.contains(free) { free += 1 }
                id = free
                held.insert(free)
            }
            result.append((id, p.x, p.y))
        }
        return result
    }

    /// Single touch: down while `BTN_TOUCH` (or, without it, `BTN_TOOL_FINGER`) is.
    private mutating func reportSingleTouch(at nanoseconds: Int64, into events: inout [PointerEvent]) throws(CaptureError) {
        let isTouching = buttonTouch ?? toolFinger ?? false
        if isTouching, !singleDown {
            guard singleHasPosition else { return }  // Down without a position yet: wait for one.
            try mapAxesIfNeeded()
            singleDown = true
            touches += 1
            events.append(event(nanoseconds, singleX, singleY, .down, id: 0))
        } else if isTouching, singleMoved {
            events.append(event(nanoseconds, singleX, singleY, .move, id: 0))
        } else if !isTouching, singleDown {
            singleDown = false
            events.append(event(nanoseconds, singleX, singleY, .up, id: 0))
        }
    }

    private func event(_ nanoseconds: Int64, _ x: Int32, _ y: Int32, _ phase: PointerEvent.Phase, id: Int32) -> PointerEvent {
        let location: PanVector
        if let screen, let axes {
            location = axes.location(rawX: x, rawY: y, on: screen)
        } else {
            location = PanVector(x: Double(x), y: Double(y))
        }
        return PointerEvent(nanoseconds: nanoseconds, location: location, phase: phase, pointer: Int(id))
    }

    /// The kernel's event codes PanTrace reads (`include/uapi/linux/input-event-codes.h`).
    enum Codes {
        static let evSYN = 0, evKEY = 1, evABS = 3
        static let synReport = 0, synMTReport = 2, synDropped = 3
        static let absX = 0x00, absY = 0x01
        static let absMTSlot = 0x2f, absMTPositionX = 0x35, absMTPositionY = 0x36, absMTTrackingID = 0x39
        static let btnTouch = 0x14a, btnToolFinger = 0x145
        static let multiTouch: Set<Int> = [absMTSlot, absMTPositionX, absMTPositionY, absMTTrackingID]
        /// Any code PanTrace does not read.
        static let other = -1

        static func name(_ code: Int) -> String {
            switch code {
            case absX: "ABS_X"
            case absY: "ABS_Y"
            case absMTSlot: "ABS_MT_SLOT"
            case absMTPositionX: "ABS_MT_POSITION_X"
            case absMTPositionY: "ABS_MT_POSITION_Y"
            case absMTTrackingID: "ABS_MT_TRACKING_ID"
            default: "code \(code)"
            }
        }
    }
}
