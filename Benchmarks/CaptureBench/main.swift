// Capture benchmark: recognizer + lsq2 throughput against a naive baseline, CSV import
// against Foundation string parsing, and `record` of a big log in bounded memory, in each
// format: CSV, getevent multi-touch protocol A and B, evemu. The logs are generated here.
// Run: swift build -c release --product CaptureBench && .build/release/CaptureBench
// Size of each big log: CAPTURE_BENCH_LOG_MB (default 1024). Prints markdown tables.
import BenchmarkSupport
import Foundation
import PanCapture
import PanTrace

let clock = benchmarkClock

/// Peak and current resident set size in KiB, from /proc/self/status.
func residentKiB() -> (peak: Int, current: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func value(_ key: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return (value("VmHWM:"), value("VmRSS:"))
}

/// Resets the peak resident set size (VmHWM) to the current one, so the next reading is one
/// phase's peak (Linux `/proc/self/clear_refs`, value 5). False where that is not possible.
func resetPeakResident() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

// MARK: - A gesture stream

/// `gestures` pans of `moves` moves each, 8 ms apart, wobbling along x: down, moves, up.
func stream(gestures: Int, moves: Int) -> [PointerEvent] {
    var events: [PointerEvent] = []
    events.reserveCapacity(gestures * (moves + 2))
    var t: Int64 = 0
    for g in 0..<gestures {
        let y = Double(g % 700)
        events.append(PointerEvent(nanoseconds: t, x: 5, y: y, phase: .down))
        for k in 1...moves {
            t += 8_000_000
            let x = 5 + Double(k) * 3 + Double(k % 7) * 0.25
            events.append(PointerEvent(nanoseconds: t, x: x, y: y + Double(k % 3), phase: .move))
        }
        t += 8_000_000
        events.append(PointerEvent(nanoseconds: t, x: 5 + Double(moves) * 3, y: y, phase: .up))
        t += 200_000_000
    }
    return events
}

/// What a first version would write: the history in a growing array, the window found by
/// scanning it, and the quadratic fit recomputed in Double from scratch at every move.
struct NaiveRecognizer {
    var history: [(t: Int64, x: Double, y: Double)] = []
    var down: (x: Double, y: Double)?
    var began = false

    mutating func handle(_ event: PointerEvent) -> Double {
        switch event.phase {
        case .down:
            history = [(event.nanoseconds, event.location.x, event.location.y)]
            down = (event.location.x, event.location.y)
            began = false
            return 0
        case .move:
            history.append((event.nanoseconds, event.location.x, event.location.y))
            if let down, !began, hypot(event.location.x - down.x, event.location.y - down.y) > 10 { began = true }
            return began ? velocity().x : 0
        case .up, .cancel:
            let v = velocity().x
            history.removeAll()
            return v
        }
    }

    func velocity() -> (x: Double, y: Double) {
        guard let newest = history.last else { return (0, 0) }
        let window = history.filter { newest.t - $0.t <= 100_000_000 }.suffix(20)
        guard window.count >= 3 else { return (0, 0) }
        var s = [Double](repeating: 0, count: 5), sx = [Double](repeating: 0, count: 3), sy = [Double](repeating: 0, count: 3)
        for sample in window {
            let a = -Double(newest.t - sample.t) * 1e-9
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 {
                    sx[k] += p * sample.x
                    sy[k] += p * sample.y
                }
                p *= a
            }
        }
        func slope(_ b: [Double]) -> Double {
            // Cramer's rule on the 3×3 normal equations.
            let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
            func det(_ m: [[Double]]) -> Double {
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                    + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            }
            var m1 = m
            for r in 0..<3 { m1[r][1] = b[r] }
            let d = det(m)
            return d == 0 ? 0 : det(m1) / d
        }
        return (slope(sx), slope(sy))
    }
}

// MARK: - A CSV log on disk

/// Appends `value` in decimal.
func appendInt(_ value: Int, to bytes: inout [UInt8]) {
    if value < 0 {
        bytes.append(UInt8(ascii: "-"))
        appendInt(-value, to: &bytes)
        return
    }
    if value >= 10 { appendInt(value / 10, to: &bytes) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
}

/// `value / 100` with two decimals.
func appendHundredths(_ value: Int, to bytes: inout [UInt8]) {
    appendInt(value / 100, to: &bytes)
    bytes.append(UInt8(ascii: "."))
    bytes.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
}

/// Writes a `t_ms,x,y,phase` log of about `megabytes` MB: pans of `moves` moves at 1 kHz
/// (1 ms apart, t in ms with three decimals), streamed through a 1 MiB buffer.
/// The generated pans' clock: a move every millisecond, 300 ms between pans.
func advancePan(lifts: Bool, time: inout Int, move: inout Int, gesture: inout Int) {
    time += 1000
    if lifts {
        move = 0
        gesture += 1
        time += 300_000
    } else {
        move += 1
    }
}

/// Writes the buffer out once it holds 1 MiB, so a log of any size is written in bounded memory.
func flushIfFull(_ buffer: inout [UInt8], to handle: FileHandle, written: inout Int) throws {
    guard buffer.count >= 1 << 20 else { return }
    try handle.write(contentsOf: buffer)
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
}

func writeLog(at path: String, megabytes: Int, moves: Int) throws -> Int {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let target = megabytes << 20
    var buffer: [UInt8] = Array("t_ms,x,y,phase\n".utf8)
    buffer.reserveCapacity(1 << 20 + 256)
    var written = 0, events = 0
    var tMicro = 0, k = 0, gesture = 0
    let phases = [Array("down".utf8), Array("move".utf8), Array("up".utf8)]
    while written + buffer.count < target || k != 0 {
        let phase = k == 0 ? 0 : (k > moves ? 2 : 1)
        let x = 500 + (k * 37 + gesture * 11) % 30000
        let y = 1000 + (k % 400) * 7
        appendInt(tMicro / 1000, to: &buffer)
        buffer.append(UInt8(ascii: "."))
        let frac = tMicro % 1000
        buffer.append(UInt8(ascii: "0") + UInt8(frac / 100))
        buffer.append(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        buffer.append(UInt8(ascii: "0") + UInt8(frac % 10))
        buffer.append(UInt8(ascii: ","))
        appendHundredths(x, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        appendHundredths(y, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: phases[phase])
        buffer.append(UInt8(ascii: "\n"))
        events += 1
        advancePan(lifts: phase == 2, time: &tMicro, move: &k, gesture: &gesture)
        try flushIfFull(&buffer, to: handle, written: &written)
    }
    try handle.write(contentsOf: buffer)
    return events
}

// MARK: - Kernel event logs on disk (getevent, evemu)

/// The kernel-event log forms the benchmark writes: one contact's pans, as a panel reports them.
enum EvdevLog: String, CaseIterable {
    /// `getevent -t`, multi-touch protocol A: every frame lists the contact (tracking id, x,
    /// y, `SYN_MT_REPORT`), then `SYN_REPORT`; an empty frame lifts it.
    case geteventA = "getevent -t, protocol A"
    /// `getevent -t`, multi-touch protocol B: slot 0, a tracking id at the down, x and y at
    /// each move, tracking id -1 at the lift.
    case geteventB = "getevent -t, protocol B"
    /// `evemu-record`, protocol B as above, with the description's `A:` axis lines.
    case evemu = "evemu-record, protocol B"
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// Appends `value` as `width` lowercase hex digits (its low `4 · width` bits).
func appendHex(_ value: UInt32, width: Int, to bytes: inout [UInt8]) {
    var shift = (width - 1) * 4
    while shift >= 0 {
        bytes.append(hexDigits[Int(value >> UInt32(shift) & 0xF)])
        shift -= 4
    }
}

/// Writes a `kind` log of about `megabytes` MB: pans of `moves` moves at 1 kHz, x and y the
/// numbers ``writeLog(at:megabytes:moves:)`` writes (there in hundredths of a point, here in
/// panel units of 0…32767), lifting 1 ms after the last move, 300 ms between pans, streamed
/// through a 1 MiB buffer.
/// - Returns: the pointer events (down, moves, up) and the lines written.
func writeEvdevLog(at path: String, kind: EvdevLog, megabytes: Int, moves: Int) throws -> (events: Int, lines: Int) {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let target = megabytes << 20
    var buffer: [UInt8] = []
    var lines = 0
    if kind == .evemu {
        let header =
            "# EVEMU 1.3\nN: CaptureBench Panel\nI: 0018 0000 0000 0000\n"
            + "A: 00 0 32767 0 0 0\nA: 01 0 32767 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 32767 0 0 0\nA: 36 0 32767 0 0 0\nA: 39 0 65535 0 0 0\n"
        buffer.append(contentsOf: header.utf8)
        lines = 9
    }
    buffer.reserveCapacity(1 << 20 + 256)
    var written = 0, events = 0
    var tMicro = 1_000_000_000, k = 0, gesture = 0
    var stamp: [UInt8] = []
    /// One kernel event at the frame's time.
    func event(_ type: UInt32, _ code: UInt32, _ value: Int32) {
        buffer.append(contentsOf: stamp)
        appendHex(type, width: 4, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        appendHex(code, width: 4, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        if kind == .evemu {
            appendInt(Int(value), to: &buffer)
        } else {
            appendHex(UInt32(bitPattern: value), width: 8, to: &buffer)
        }
        buffer.append(UInt8(ascii: "\n"))
        lines += 1
    }
    while written + buffer.count < target || k != 0 {
        // `[    1000.001000] ` (getevent's %8ld.%06ld) or `E: 1000.001000 `.
        stamp.removeAll(keepingCapacity: true)
        stamp.append(contentsOf: kind == .evemu ? Array("E: ".utf8) : [UInt8(ascii: "[")])
        var seconds: [UInt8] = []
        appendInt(tMicro / 1_000_000, to: &seconds)
        if kind != .evemu { stamp.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(0, 8 - seconds.count))) }
        stamp.append(contentsOf: seconds)
        stamp.append(UInt8(ascii: "."))
        var micros = tMicro % 1_000_000
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 6)
        for index in stride(from: 5, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(micros % 10)
            micros /= 10
        }
        stamp.append(contentsOf: digits)
        stamp.append(contentsOf: kind == .evemu ? [UInt8(ascii: " ")] : Array("] ".utf8))

        let x = Int32(500 + (k * 37 + gesture * 11) % 30000), y = Int32(1000 + (k % 400) * 7)
        let id = Int32(gesture % 60000 + 1)
        let lifts = k > moves
        switch (kind, lifts) {
        case (.geteventA, false):
            event(3, 0x39, id)
            event(3, 0x35, x)
            event(3, 0x36, y)
            event(0, 2, 0)
        case (.geteventA, true):
            event(0, 2, 0)
        case (_, false):
            if k == 0 {
                event(3, 0x2f, 0)
                event(3, 0x39, id)
            }
            event(3, 0x35, x)
            event(3, 0x36, y)
        case (_, true):
            event(3, 0x39, -1)
        }
        event(0, 0, 0)
        events += 1
        advancePan(lifts: lifts, time: &tMicro, move: &k, gesture: &gesture)
        try flushIfFull(&buffer, to: handle, written: &written)
    }
    try handle.write(contentsOf: buffer)
    return (events, lines)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capturebench-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// MARK: 1. record of a big log in each format (the peak RSS reset before each)

let megabytes = Int(ProcessInfo.processInfo.environment["CAPTURE_BENCH_LOG_MB"] ?? "") ?? 1024
/// Panel units 0…32767 on both axes onto the default screen, for the kernel-event logs.
let panel = GeteventOptions(axes: GeteventAxes(x: 0...32767, y: 0...32767), screen: .phone)
var peakIsPerPhase = true

/// Writes a log with `write` (returning its pointer events and lines), records it, checks
/// every event was read, prints one table row and removes the log and the output.
@MainActor
func recordBigLog(
    _ name: String, file: String, format: PointerLogFormat, getevent: GeteventOptions = GeteventOptions(),
    write: (String) throws -> (events: Int, lines: Int)
) throws {
    let path = "\(folder)/\(file)", out = "\(folder)/out"
    let generationStart = clock.now
    let (logEvents, logLines) = try write(path)
    let generationTime = seconds(clock.now - generationStart)
    let logBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let recording = GestureRecording(
        configuration: .init(metadata: TraceMetadata(id: "", source: "import:\(format.rawValue)")),
        destination: RecordingDestination(folder: out, stem: "big"))
    let importer = PointerLogImporter(configuration: .init(format: format, getevent: getevent))
    if !resetPeakResident() { peakIsPerPhase = false }
    let rssBefore = residentKiB()
    let recordStart = clock.now
    let summary = try importer.record(logAt: path, into: recording)
    let recordTime = seconds(clock.now - recordStart)
    let rssAfter = residentKiB()
    let outputBytes = try FileManager.default.contentsOfDirectory(atPath: out).reduce(0) { total, name in
        total + ((try FileManager.default.attributesOfItem(atPath: "\(out)/\(name)")[.size] as? Int) ?? 0)
    }
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.removeItem(atPath: out)
    precondition(summary.events == logEvents, "\(name): read \(summary.events) of \(logEvents) events")
    precondition(summary.lines == logLines, "\(name): read \(summary.lines) of \(logLines) lines")
    precondition(summary.warnings.isEmpty && recording.gestures.allSatisfy(\.isComplete), "\(name): \(summary.warnings)")
    func f(_ format: String, _ value: Double) -> String { String(format: format, value) }
    print(
        "| \(name) | \(logBytes >> 20) MiB | \(logLines) | \(logEvents) | \(recording.gestures.count) | \(f("%.1f", recordTime)) s "
            + "| \(f("%.2f", Double(logEvents) / recordTime / 1e6)) M | \(f("%.2f", Double(logLines) / recordTime / 1e6)) M "
            + "| \(f("%.0f", Double(logBytes) / recordTime / 1e6)) | \(outputBytes >> 20) MiB "
            + "| \(rssBefore.current / 1024) MiB | \(rssAfter.peak / 1024) MiB | \(rssAfter.current / 1024) MiB "
            + "| \(summary.peakBufferedBytes) of \(summary.bufferCapacity) B | \(f("%.1f", generationTime)) s |")
}

print("## record of a \(megabytes) MiB log in each format\n")
print(
    "| log | size | lines | events | gestures | time | events/s | lines/s | MB/s | output | RSS before | peak RSS during | RSS after "
        + "| read buffer peak | log written in |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
try recordBigLog("CSV", file: "big.csv", format: .csv) { path in
    let events = try writeLog(at: path, megabytes: megabytes, moves: 100_000)
    return (events, events + 1)
}
for kind in EvdevLog.allCases {
    try recordBigLog(kind.rawValue, file: kind == .evemu ? "big.events" : "big.txt", format: kind == .evemu ? .evemu : .getevent, getevent: panel) {
        try writeEvdevLog(at: $0, kind: kind, megabytes: megabytes, moves: 100_000)
    }
}
print(
    "\n(events: pointer events, what the recognizer sees; lines: log lines, one kernel event each for getevent and evemu; "
        + (peakIsPerPhase
            ? "the peak RSS was reset before each record)\n" : "peak RSS is since the process started: /proc/self/clear_refs was not writable)\n"))

// MARK: 2. recognizer + lsq2, one core

let events = stream(gestures: 25_000, moves: 198)
var sink = 0.0
let recognizerTime = measure(minimum: 2) {
    var recognizer = PanRecognizer(configuration: .init(velocity: .lsq2))
    for event in events {
        switch recognizer.handle(event) {
        case .began(let s), .changed(let s), .ended(let s, _), .cancelled(let s, _): sink += s.velocity.x
        default: break
        }
    }
}
let naiveSlice = Array(events.prefix(events.count / 10))
let naiveTime =
    measure(minimum: 2) {
        var naive = NaiveRecognizer()
        for event in naiveSlice { sink += naive.handle(event) }
    } * 10

// MARK: 3. CSV import, parsing only

let parsePath = "\(folder)/parse.csv"
let parseEvents = try writeLog(at: parsePath, megabytes: 64, moves: 500)
let importer = PointerLogImporter(configuration: .init(format: .csv))
let parseTime = try measure(minimum: 2) {
    _ = try importer.forEachEvent(inLogAt: parsePath) { event in
        sink += event.location.x
        return true
    }
}
/// What a first version would write: the whole file as a String, lines, fields, Double().
let foundationTime = try measure(minimum: 2) {
    let text = try String(contentsOfFile: parsePath, encoding: .utf8)
    for line in text.components(separatedBy: "\n").dropFirst() where !line.isEmpty {
        let fields = line.components(separatedBy: ",")
        sink += (Double(fields[0]) ?? 0) + (Double(fields[1]) ?? 0) + (Double(fields[2]) ?? 0) + (fields[3] == "move" ? 1 : 0)
    }
}
try FileManager.default.removeItem(atPath: parsePath)

/// The kernel-event formats, parsing only (raw panel units, no recording).
var evdevParse: [(name: String, events: Int, time: Double)] = []
for kind in EvdevLog.allCases {
    let path = "\(folder)/parse-\(kind)"
    let (count, _) = try writeEvdevLog(at: path, kind: kind, megabytes: 64, moves: 500)
    let evdevImporter = PointerLogImporter(configuration: .init(format: kind == .evemu ? .evemu : .getevent))
    let time = try measure(minimum: 2) {
        _ = try evdevImporter.forEachEvent(inLogAt: path) { event in
            sink += event.location.x
            return true
        }
    }
    try FileManager.default.removeItem(atPath: path)
    evdevParse.append(("\(kind.rawValue) import (parsing only)", count, time))
}

print("## throughput (one core, release build)\n")
print("| what | events | time | events/s | vs baseline |")
print("|---|---|---|---|---|")
func row(_ name: String, _ count: Int, _ time: Double, _ baseline: Double?, isBaseline: Bool = false) {
    let ratio = baseline.map { String(format: "%.1f×", $0 / time) } ?? (isBaseline ? "baseline" : "–")
    print("| \(name) | \(count) | \(String(format: "%.3f", time)) s | \(String(format: "%.2f", Double(count) / time / 1e6)) M | \(ratio) |")
}
row("PanRecognizer + lsq2", events.count, recognizerTime, naiveTime)
row("naive recognizer (growing array, Double fit)", events.count, naiveTime, nil, isBaseline: true)
row("CSV import (PointerLogImporter, 64 KiB buffer)", parseEvents, parseTime, foundationTime)
row("CSV via Foundation (String, components, Double)", parseEvents, foundationTime, nil, isBaseline: true)
for (name, count, time) in evdevParse { row(name, count, time, nil) }
print("\n(checksum \(sink.isFinite ? "ok" : "nan"))")
