internal import ArgumentParser
internal import PanCapture
internal import PanTrace
internal import Foundation

/// `pantrace velocity`: the release velocity of a log's first pointer, as the platform computes it.
struct VelocityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "velocity",
        abstract: "Print the release velocity of a pointer log's first pointer as JSON {\"vx\":…,\"vy\":…} (null: none).",
        discussion: """
            Events are fed as the platform feeds its tracker (docs/MODEL.md §8.1): down clears, moves \
            add, the lift's position is never added. lsq2 and impulse follow Android (no velocity \
            when the lift comes more than 40 ms after the last move, or on cancel), flutter \
            follows Flutter (zero instead). Units: the log's position units per second (getevent: \
            raw panel units).
            """)

    @Option(help: "Estimator.")
    var strategy: VelocityStrategy = .lsq2

    @Option(help: "Log format: csv, jsonl or getevent (default: from the extension .csv or .jsonl).")
    var format: PointerLogFormat?

    @Option(help: "getevent: the device to follow (default: the first with multi-touch events).")
    var device: String?

    @Argument(help: "The pointer log.")
    var log: String

    func validate() throws {
        guard format != nil || PointerLogFormat(path: log) != nil else {
            throw ValidationError("--format is needed: \(log) does not end in .csv or .jsonl")
        }
    }

    func run() throws {
        let importer = PointerLogImporter(
            configuration: .init(
                format: format ?? PointerLogFormat(path: log)!,
                getevent: try GeteventOptions(device: device, deviceInfo: nil, axisRange: nil, screen: nil)))
        let velocity = try ReleaseVelocity.ofFirstPointer(inLogAt: log, importer: importer, strategy: strategy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(VelocityJSON(velocity)), as: UTF8.self))
    }
}

/// `{"vx":…,"vy":…}`, with `null` for both when there is no velocity.
struct VelocityJSON: Encodable {
    var vx: Double?
    var vy: Double?

    init(_ velocity: PanVector?) {
        vx = velocity?.x
        vy = velocity?.y
    }

    enum CodingKeys: String, CodingKey { case vx, vy }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // encodeIfPresent would drop the key; the output always has both.
        try container.encode(vx, forKey: .vx)
        try container.encode(vy, forKey: .vy)
    }
}
