internal import PanCapture
internal import PanTrace

extension DriverScript {
    /// Device units per screen pixel of the emitted touchscreen: touch panels report on a finer
    /// grid than the display (the shared captures' panels have 4–32 units a pixel), and a
    /// whole-pixel grid would move a fast flick's samples by up to half a pixel each.
    package static let evemuUnitsPerPixel = 8.0

    /// Event codes of `linux/input-event-codes.h`.
    private enum Code {
        static let synReport = (type: 0x00, code: 0x00)
        static let btnTouch = (type: 0x01, code: 0x14A)
        static let absX = (type: 0x03, code: 0x00)
        static let absY = (type: 0x03, code: 0x01)
        static let absMTSlot = (type: 0x03, code: 0x2F)
        static let absMTPositionX = (type: 0x03, code: 0x35)
        static let absMTPositionY = (type: 0x03, code: 0x36)
        static let absMTTrackingID = (type: 0x03, code: 0x39)
    }

    /// An `evemu-record` file: a direct-touch device description whose axes count eighths of
    /// a screen pixel, then the path as kernel multi-touch protocol B events (freedesktop evemu
    /// `src/evemu.c`, `evemu_write` and `evemu_write_event`: `E: sec.usec TYPE CODE VALUE`,
    /// TYPE and CODE four hex digits, VALUE decimal).
    ///
    /// `evemu-device FILE` creates the device from the description and `evemu-play
    /// /dev/input/eventN < FILE` replays the events with their recorded spacing. A move that
    /// changes no coordinate at device resolution is left out, as the kernel drops an event
    /// frame that changes nothing.
    static func evemu(_ plan: DriverPlan, name: String, screen: ScreenGeometry, scale: Double) -> String {
        let path = plan.scheduled ?? plan.delivered
        let units = scale * evemuUnitsPerPixel
        let width = max(Int((screen.width * units).rounded()), 1)
        let height = max(Int((screen.height * units).rounded()), 1)
        var lines = ["# EVEMU 1.3"] + header(plan, name: name, comment: "#")
        lines += [
            "N: PanTrace emitted touchscreen",
            // BUS_VIRTUAL, no vendor or product.
            "I: 0006 0000 0000 0001",
            // INPUT_PROP_DIRECT.
            "P: 02 00 00 00 00 00 00 00"
        ]
        // Event types: EV_SYN, EV_KEY, EV_ABS.
        lines.append("B: 00 0b 00 00 00 00 00 00 00")
        // Keys: BTN_TOUCH (0x14a) is bit 2 of byte 41; evemu writes the 96-byte mask 8 bytes a line.
        for row in 0..<12 {
            let bytes = (0..<8).map { column in row * 8 + column == 41 ? "04" : "00" }
            lines.append("B: 01 " + bytes.joined(separator: " "))
        }
        // Axes: ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID.
        lines.append("B: 03 03 00 00 00 00 80 60 02")
        lines += [
            "A: 00 0 \(width - 1) 0 0 0",
            "A: 01 0 \(height - 1) 0 0 0",
            "A: 2f 0 9 0 0 0",
            "A: 35 0 \(width - 1) 0 0 0",
            "A: 36 0 \(height - 1) 0 0 0",
            "A: 39 0 65535 0 0 0"
        ]
        let start = path.down.time
        var last: (x: Int, y: Int)?
        func event(_ time: Double, _ code: (type: Int, code: Int), _ value: Int) -> String {
            let microseconds = Int64(((time - start) * 1e6).rounded())
            let fraction = String(microseconds % 1_000_000)
            let type = String(code.type, radix: 16)
            let number = String(code.code, radix: 16)
            return "E: \(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) "
                + "\(String(repeating: "0", count: 4 - type.count))\(type) \(String(repeating: "0", count: 4 - number.count))\(number) \(value)"
        }
        for point in path.points {
            let x = min(max(Int((point.x * units).rounded()), 0), width - 1)
            let y = min(max(Int((point.y * units).rounded()), 0), height - 1)
            switch point.phase {
            case .down:
                lines += [
                    event(point.time, Code.absMTSlot, 0), event(point.time, Code.absMTTrackingID, 1),
                    event(point.time, Code.absMTPositionX, x), event(point.time, Code.absMTPositionY, y),
                    event(point.time, Code.btnTouch, 1), event(point.time, Code.absX, x), event(point.time, Code.absY, y)
                ]
            case .move:
                guard let previous = last, previous != (x, y) else { continue }
                if x != previous.x { lines += [event(point.time, Code.absMTPositionX, x)] }
                if y != previous.y { lines += [event(point.time, Code.absMTPositionY, y)] }
                if x != previous.x { lines += [event(point.time, Code.absX, x)] }
                if y != previous.y { lines += [event(point.time, Code.absY, y)] }
            case .up, .cancel:
                lines += [event(point.time, Code.absMTTrackingID, -1), event(point.time, Code.btnTouch, 0)]
            }
            lines.append(event(point.time, Code.synReport, 0))
            last = (x, y)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
