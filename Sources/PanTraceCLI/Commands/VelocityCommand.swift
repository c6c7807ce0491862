internal import ArgumentParser
internal import PanCapture
internal import PanTrace
internal import Foundation

/// `pantrace velocity`: the release velocity of every touch in a log, as the platform computes it.
struct VelocityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "velocity",
        abstract: "Print the release velocity of every touch in a pointer log, one JSON line each.",
        discussion: """
            A touch is a pointer from its down to its lift, while no other touch is followed; \
            each line is {"gesture":N,"pointer":ID,"start_s":…,"end_s":…,"duration_s":…,\
            "cancelled":…,"vx":…,"vy":…} with null velocities where the platform reports none. \
            --gesture N prints touch N only. Events are fed as the platform feeds its tracker \
            (docs/MODEL.md §8.1): down clears, moves add, the lift's position is never added. \
            lsq2 and impulse follow Android (no velocity when the lift comes more than 40 ms \
            after the last move, or on cancel), flutter follows Flutter (zero instead). Units: \
            the log's position units per second (getevent and evemu: raw panel units).
            """)

    @Option(help: "Estimator.")
    var strategy: VelocityStrategy = .lsq2

    @Option(help: "Log format (default: from the extension .csv, .jsonl or .events).")
    var format: PointerLogFormat?

    @Option(help: "getevent: the device to follow (default: the first with touch events).")
    var device: String?

    @Option(help: "Print only touch N (1-based).")
    var gesture: Int?

    @Argument(help: "The pointer log.")
    var log: String

    func validate() throws {
        guard format != nil || PointerLogFormat(path: log) != nil else {
            throw ValidationError("--format is needed: \(log) does not end in .csv, .jsonl or .events")
        }
        if let gesture, gesture < 1 { throw ValidationError("--gesture must be 1 or more, got \(gesture)") }
    }

    func run() throws {
        let importer = PointerLogImporter(
            configuration: .init(
                format: format ?? PointerLogFormat(path: log)!,
                getevent: try GeteventOptions(device: device, deviceInfo: nil, axisRange: nil, screen: nil)))
        var touches = try ReleaseVelocity.ofEveryTouch(inLogAt: log, importer: importer, strategy: strategy)
        if let gesture {
            guard gesture <= touches.count else {
                throw CLIFailure("\(log): --gesture \(gesture), but the log has \(touches.count) touch\(touches.count == 1 ? "" : "es")")
            }
            touches = [touches[gesture - 1]]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for touch in touches {
            print(String(decoding: try encoder.encode(TouchJSON(touch)), as: UTF8.self))
        }
    }
}

/// One touch's line: where it is in the log, and its release velocity (`null` for none).
struct TouchJSON: Encodable {
    let touch: ReleaseVelocity.Touch

    init(_ touch: ReleaseVelocity.Touch) { self.touch = touch }

    enum CodingKeys: String, CodingKey {
        case gesture, pointer, cancelled, vx, vy
        case start = "start_s", end = "end_s", duration = "duration_s"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(touch.number, forKey: .gesture)
        try c.encode(touch.pointer, forKey: .pointer)
        try c.encode(Double(touch.startNanoseconds) / 1e9, forKey: .start)
        try c.encode(Double(touch.endNanoseconds) / 1e9, forKey: .end)
        try c.encode(Double(touch.endNanoseconds - touch.startNanoseconds) / 1e9, forKey: .duration)
        try c.encode(touch.isCancelled, forKey: .cancelled)
        // encodeIfPresent would drop the key; the line always has both.
        try c.encode(touch.velocity?.x, forKey: .vx)
        try c.encode(touch.velocity?.y, forKey: .vy)
    }
}
