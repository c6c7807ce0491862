public import PanTrace
internal import Foundation

/// The raw ranges of a touch panel's `ABS_MT_POSITION_X` and `ABS_MT_POSITION_Y` axes, as
/// `getevent -p` prints them (`min`, `max`), and the mapping from panel units to points.
public struct GeteventAxes: Hashable, Sendable {
    /// The X axis's `min…max`.
    public var x: ClosedRange<Int>
    /// The Y axis's `min…max`.
    public var y: ClosedRange<Int>

    /// Creates the ranges.
    public init(x: ClosedRange<Int>, y: ClosedRange<Int>) {
        self.x = x
        self.y = y
    }

    /// Parses `--axis-range XMIN:XMAX,YMIN:YMAX` (for example `0:1079,0:2399`).
    public init(argument: String) throws(CaptureError) {
        let parts = argument.split(separator: ",")
        func range(_ text: Substring) -> ClosedRange<Int>? {
            let ends = text.split(separator: ":", omittingEmptySubsequences: false)
            // Panel axes are 32-bit (struct input_absinfo), so wider ends are refused here.
            guard ends.count == 2, let low = Int32(ends[0]), let high = Int32(ends[1]), low < high else { return nil }
            return Int(low)...Int(high)
        }
        guard parts.count == 2, let x = range(parts[0]), let y = range(parts[1]) else {
            throw CaptureError(
                .invalidArgument("axis range must be XMIN:XMAX,YMIN:YMAX with each min below its max and both 32-bit integers, got \"\(argument)\""))
        }
        self.init(x: x, y: y)
    }

    /// A panel position in points on `screen`.
    ///
    /// Android's touch mapper scales by the display size over the raw width, where the raw
    /// width counts both ends (`max − min + 1`): `TouchInputMapper` (`mXScale =
    /// float(rawSurfaceWidth) / rawWidth`, `RawPointerAxes::getRawWidth()`), AOSP
    /// `services/inputflinger/reader/mapper/TouchInputMapper.cpp`. Pixels over the scale are
    /// points, so `x_pt = (raw − min) · width_pt / (max − min + 1)`.
    public func location(rawX: Int32, rawY: Int32, on screen: ScreenGeometry) -> PanVector {
        // In Double: ends read from a device dump may be anything an Int holds.
        let width = Double(x.upperBound) - Double(x.lowerBound) + 1, height = Double(y.upperBound) - Double(y.lowerBound) + 1
        return PanVector(
            x: (Double(rawX) - Double(x.lowerBound)) * screen.width / width,
            y: (Double(rawY) - Double(y.lowerBound)) * screen.height / height)
    }

    /// Every device's ranges found in the text of a `getevent -p` (or `-lp`) dump, by device
    /// path (`/dev/input/event2`): `ABS_MT_POSITION_X/Y`, or for a single-touch device
    /// `ABS_X/Y`; devices without both position axes are left out.
    ///
    /// - Throws: ``CaptureError`` naming the line of a position axis whose `min` or `max`
    ///   cannot be read.
    public static func devices(inDump text: String, file: String? = nil) throws(CaptureError) -> [String: GeteventAxes] {
        var result: [String: GeteventAxes] = [:]
        var device = ""
        var xRange: ClosedRange<Int>?, yRange: ClosedRange<Int>?
        var singleX: ClosedRange<Int>?, singleY: ClosedRange<Int>?
        func close() {
            if let xRange, let yRange {
                result[device] = GeteventAxes(x: xRange, y: yRange)
            } else if let singleX, let singleY {
                result[device] = GeteventAxes(x: singleX, y: singleY)
            }
            xRange = nil
            yRange = nil
            singleX = nil
            singleY = nil
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSuffix(while: { $0 == "\r" || $0 == " " })
            if line.hasPrefix("add device") {
                close()
                if let colon = line.firstIndex(of: ":") {
                    device = String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
                }
                continue
            }
            guard let valueRange = line.range(of: ": value") else { continue }
            let before = line[..<valueRange.lowerBound].split(separator: " ")
            guard let name = before.last else { continue }
            let isX = name == "ABS_MT_POSITION_X" || name == "0035"
            let isY = name == "ABS_MT_POSITION_Y" || name == "0036"
            let isSingleX = name == "ABS_X" || name == "0000"
            let isSingleY = name == "ABS_Y" || name == "0001"
            guard isX || isY || isSingleX || isSingleY else { continue }
            let fields = line[valueRange.upperBound...]
            func number(after key: String) -> Int? {
                guard let found = fields.range(of: key) else { return nil }
                return Int(fields[found.upperBound...].prefix(while: { $0 == "-" || $0.isNumber }))
            }
            guard let low = number(after: "min "), let high = number(after: "max "), low < high else {
                throw CaptureError(.malformedLine("cannot read min and max of \(name)"), file: file, line: index + 1)
            }
            if isX {
                xRange = low...high
            } else if isY {
                yRange = low...high
            } else if isSingleX {
                singleX = low...high
            } else {
                singleY = low...high
            }
        }
        close()
        return result
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var copy = self
        while let last = copy.last, predicate(last) { copy.removeLast() }
        return copy
    }
}
