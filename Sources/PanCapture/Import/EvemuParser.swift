internal import PanTrace
internal import Foundation

/// Reads `evemu-record` recordings (freedesktop evemu, `src/evemu.c`: `evemu_write_event`
/// prints `E: %lu.%06u %04x %04x %0*d`): one kernel event a line, seconds and microseconds,
/// TYPE and CODE in hex, VALUE in decimal, optionally followed by a `# comment`.
///
/// The device description evemu writes first (`N:`, `I:`, `P:`, `B:`, `A:` lines and `#`
/// comments) is read for its axis lines, `A: CODE MIN MAX FUZZ FLAT [RESOLUTION]`: the ranges
/// of `ABS_MT_POSITION_X/Y`, else `ABS_X/Y`. A recording without them takes the ranges of
/// the `.desc` beside it (``axesBeside(log:)``) or `--axis-range`. A position axis line whose
/// range cannot map positions (MIN not below MAX, as the kernel reports an axis it has no
/// range for) is kept aside: if no other range is found, the error names that line and its
/// range rather than calling the range missing. The events go to ``EvdevContacts``
/// (protocol A, protocol B and single touch).
struct EvemuParser: PointerLogParser {
    private var contacts: EvdevContacts
    private var inFile: [Int: ClosedRange<Int>] = [:]
    /// Position axis lines with an unusable range, by code: where and what, for the error.
    private var unusable: [Int: String] = [:]
    /// The same found in the `.desc` beside the recording.
    private let unusableBeside: [String]
    private let options: GeteventOptions
    private var eventLines = 0
    /// The 1-based number of the line being parsed (``parse(_:into:)`` gets every line, in order).
    private var lineNumber = 0
    /// Where the lines come from (`NAME: `, or empty for the log itself), to name it in ``unusable``.
    private let source: String

    /// The axis codes whose ranges map positions.
    static let positionCodes: [Int] = [
        EvdevContacts.Codes.absMTPositionX, EvdevContacts.Codes.absMTPositionY, EvdevContacts.Codes.absX, EvdevContacts.Codes.absY
    ]

    init(options: GeteventOptions, requiresMapping: Bool, unusableBeside: [String] = [], source: String = "") {
        self.options = options
        self.unusableBeside = unusableBeside
        self.source = source
        contacts = EvdevContacts(screen: options.screen, resolveAxes: nil)
        if requiresMapping { installResolver() }
    }

    private mutating func installResolver() {
        let options = options, inFile = inFile, unusable = unusable, unusableBeside = unusableBeside
        contacts.resolveAxes = { () throws(CaptureError) in
            if let axes = options.axes { return axes }
            if let axes = Self.axes(inFile) { return axes }
            if let axes = options.deviceAxes[""] { return axes }
            let unusableLines = Self.positionCodes.compactMap { inFile[$0] == nil ? unusable[$0] : nil } + unusableBeside
            guard unusableLines.isEmpty else {
                throw CaptureError(
                    .invalidArgument(
                        "no usable axis ranges: \(unusableLines.joined(separator: "; ")) (MIN must be below MAX); "
                            + "give the panel's ranges with --axis-range XMIN:XMAX,YMIN:YMAX"))
            }
            throw CaptureError(
                .invalidArgument(
                    "no axis ranges: the recording has no A: lines for ABS_MT_POSITION_X/Y or ABS_X/Y, no .desc beside it, and no --axis-range"))
        }
    }

    static func axes(_ lines: [Int: ClosedRange<Int>]) -> GeteventAxes? {
        typealias C = EvdevContacts.Codes
        if let x = lines[C.absMTPositionX], let y = lines[C.absMTPositionY] { return GeteventAxes(x: x, y: y) }
        if let x = lines[C.absX], let y = lines[C.absY] { return GeteventAxes(x: x, y: y) }
        return nil
    }

    mutating func parse(_ line: ArraySlice<UInt8>, into events: inout [PointerEvent]) throws(CaptureError) {
        lineNumber += 1
        let content = ASCIINumber.trimmed(line)
        guard content.count >= 2, content.first != UInt8(ascii: "#") else { return }
        let fields = LineFields(content)
        switch fields[0] {
        case _ where fields[0].elementsEqual("E:".utf8):
            try event(fields, into: &events)
        case _ where fields[0].elementsEqual("A:".utf8):
            try axisLine(fields)
        case _ where fields[0].count == 2 && fields[0].last == UInt8(ascii: ":"):
            return  // N:, I:, P:, B:, L:, S: … of the description.
        default:
            throw CaptureError(.malformedLine("not an evemu line: expected \"E: sec.usec TYPE CODE VALUE\", found \(ASCIINumber.quoted(content))"))
        }
    }

    var noTouchReason: String? {
        guard contacts.touches == 0 else { return nil }
        if eventLines == 0 { return "no E: event lines" }
        return contacts.sawTouchEvent
            ? "touch events but no contact went down with a position" : "no touch events (no ABS_MT_*, ABS_X/ABS_Y or BTN_TOUCH)"
    }

    /// `A: 35 0 1279 0 0 0`.
    private mutating func axisLine(_ fields: LineFields) throws(CaptureError) {
        guard fields.count >= 4, let code = ASCIINumber.hex(fields[1]), let low = ASCIINumber.integer(fields[2]),
            let high = ASCIINumber.integer(fields[3])
        else {
            throw CaptureError(.malformedLine("an A: line must be A: CODE MIN MAX FUZZ FLAT"))
        }
        if low < high {
            inFile[Int(code)] = low...high
        } else if Self.positionCodes.contains(Int(code)) {
            // Not a range PanTrace can map; said so if no other range turns up.
            unusable[Int(code)] = "\(source)line \(lineNumber): A: \(EvdevContacts.Codes.name(Int(code))) \(low)…\(high)"
        }
        if contacts.resolveAxes != nil { installResolver() }
    }

    /// `E: 0.081454 0003 0036 0368`.
    private mutating func event(_ fields: LineFields, into events: inout [PointerEvent]) throws(CaptureError) {
        guard fields.count >= 5, fields.count == 5 || fields[5].first == UInt8(ascii: "#") else {
            throw CaptureError(.malformedLine("expected E: sec.usec TYPE CODE VALUE, found \(fields.count - 1) fields"))
        }
        let nanoseconds = try GeteventParser.timestamp(fields[1])
        guard let type = ASCIINumber.hex(fields[2]), type <= 0xFFFF, let code = ASCIINumber.hex(fields[3]), code <= 0xFFFF else {
            throw CaptureError(.malformedLine("TYPE and CODE must be hex numbers"))
        }
        guard let value = ASCIINumber.integer(fields[4]), let value32 = Int32(exactly: value) else {
            throw CaptureError(.malformedLine("VALUE must be a 32-bit decimal number, found \(ASCIINumber.quoted(fields[4]))"))
        }
        eventLines += 1
        try contacts.handle(type: Int(type), code: Int(code), value: value32, at: nanoseconds, into: &events)
    }

    /// The axis ranges of the device description beside a recording: for
    /// `Panel.1-finger-drag.events`, `Panel.1-finger-drag.desc`, then `Panel.desc`
    /// (dropping one `.suffix` at a time). Nil axes when there is none or it has no usable
    /// position axes; `unusable` then names its position axis lines whose range cannot be used.
    static func axesBeside(log path: String) throws(CaptureError) -> (axes: GeteventAxes?, unusable: [String]) {
        guard path != "-" else { return (nil, []) }
        var stem = (path as NSString).deletingPathExtension
        let folder = (path as NSString).deletingLastPathComponent
        while true {
            let candidate = stem + ".desc"
            if candidate != path, FileManager.default.fileExists(atPath: candidate) {
                var parser = EvemuParser(options: GeteventOptions(), requiresMapping: false, source: candidate + ": ")
                var ignored: [PointerEvent] = []
                let text: Data
                do {
                    text = try Data(contentsOf: URL(fileURLWithPath: candidate))
                } catch {
                    throw CaptureError(.io("cannot read \(candidate): \(error.localizedDescription)"), file: candidate)
                }
                for (index, line) in text.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                    do throws(CaptureError) {
                        try parser.parse(ArraySlice(line), into: &ignored)
                    } catch {
                        throw error.located(file: candidate, line: index + 1, byteOffset: 0)
                    }
                }
                let found = axes(parser.inFile)
                return (found, found != nil ? [] : positionCodes.compactMap { parser.inFile[$0] == nil ? parser.unusable[$0] : nil })
            }
            let shorter = (stem as NSString).deletingPathExtension
            guard shorter != stem, shorter.count > folder.count else { return (nil, []) }
            stem = shorter
        }
    }
}
