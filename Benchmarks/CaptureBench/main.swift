// Capture benchmark: recognizer + lsq2 throughput against a naive baseline, CSV import
// against Foundation string parsing, and `record` of a 1 GB CSV log in bounded memory.
// Run: swift build -c release --product CaptureBench && .build/release/CaptureBench
// Size of the big log: CAPTURE_BENCH_LOG_MB (default 1024). Prints markdown tables.
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
        tMicro += 1000
        if phase == 2 {
            k = 0
            gesture += 1
            tMicro += 300_000
        } else {
            k += 1
        }
        if buffer.count >= 1 << 20 {
            try handle.write(contentsOf: buffer)
            written += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
    }
    try handle.write(contentsOf: buffer)
    return events
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capturebench-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// MARK: 1. record of a big CSV log (first, so the peak RSS is this phase's)

let megabytes = Int(ProcessInfo.processInfo.environment["CAPTURE_BENCH_LOG_MB"] ?? "") ?? 1024
let logPath = "\(folder)/big.csv"
let generationStart = clock.now
let logEvents = try writeLog(at: logPath, megabytes: megabytes, moves: 100_000)
let logBytes = (try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
let generationTime = seconds(clock.now - generationStart)
let rssBefore = residentKiB()
let recording = GestureRecording(
    configuration: .init(metadata: TraceMetadata(id: "", source: "import:csv")),
    destination: RecordingDestination(folder: "\(folder)/out", stem: "big"))
try FileManager.default.createDirectory(atPath: "\(folder)/out", withIntermediateDirectories: true)
let recordStart = clock.now
let summary = try PointerLogImporter(configuration: .init(format: .csv)).record(logAt: logPath, into: recording)
let recordTime = seconds(clock.now - recordStart)
let rssAfter = residentKiB()
let outputBytes = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/out").reduce(0) { total, name in
    total + ((try FileManager.default.attributesOfItem(atPath: "\(folder)/out/\(name)")[.size] as? Int) ?? 0)
}
try FileManager.default.removeItem(atPath: logPath)
try FileManager.default.removeItem(atPath: "\(folder)/out")
precondition(summary.events == logEvents, "read \(summary.events) of \(logEvents) events")

print("## record of a \(logBytes >> 20) MiB CSV log\n")
print("| log | events | gestures | time | events/s | MB/s | output | peak RSS before | peak RSS after | RSS after |")
print("|---|---|---|---|---|---|---|---|---|---|")
print(
    "| \(logBytes >> 20) MiB | \(logEvents) | \(recording.gestures.count) | \(String(format: "%.1f", recordTime)) s "
        + "| \(String(format: "%.2f", Double(logEvents) / recordTime / 1e6)) M | \(String(format: "%.0f", Double(logBytes) / recordTime / 1e6)) "
        + "| \(outputBytes >> 20) MiB | \(rssBefore.peak / 1024) MiB | \(rssAfter.peak / 1024) MiB | \(rssAfter.current / 1024) MiB |")
print(
    "\n(log written in \(String(format: "%.1f", generationTime)) s; read buffer \(summary.bufferCapacity) bytes, peak \(summary.peakBufferedBytes) bytes held)\n"
)

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

print("## throughput (one core, release build)\n")
print("| what | events | time | events/s | vs baseline |")
print("|---|---|---|---|---|")
func row(_ name: String, _ count: Int, _ time: Double, _ baseline: Double?) {
    let ratio = baseline.map { String(format: "%.1f×", $0 / time) } ?? "baseline"
    print("| \(name) | \(count) | \(String(format: "%.3f", time)) s | \(String(format: "%.2f", Double(count) / time / 1e6)) M | \(ratio) |")
}
row("PanRecognizer + lsq2", events.count, recognizerTime, naiveTime)
row("naive recognizer (growing array, Double fit)", events.count, naiveTime, nil)
row("CSV import (PointerLogImporter, 64 KiB buffer)", parseEvents, parseTime, foundationTime)
row("CSV via Foundation (String, components, Double)", parseEvents, foundationTime, nil)
print("\n(checksum \(sink.isFinite ? "ok" : "nan"))")
