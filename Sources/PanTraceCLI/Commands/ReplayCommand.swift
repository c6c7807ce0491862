internal import ArgumentParser
internal import Dispatch
internal import Foundation
internal import PanReplay
internal import PanTrace
internal import Synchronization
internal import TransitionEngine

/// `pantrace replay`: one trace through a preset, frame by frame, as JSON Lines written as they
/// are computed (memory stays flat however long the replay).
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract:
            "Replay a trace through a transition preset: a short summary on a terminal; one FrameState per display frame, then a summary line, in a pipe.",
        discussion: """
            Frames run from the first sample to the end of the completion at --fps; while the finger \
            is down a frame shows the latest sample at or before it. The last line is \
            {"type":"summary","decision":…,"reason":…,"margin":…,"release_s":…,"completion_s":…,…} \
            (docs/REPLAY.md). On a terminal the default is --format text, a summary for people; piped or \
            redirected it is --format jsonl. Virtual time: the same inputs give byte-identical output.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl
        case summary
        case text
    }

    @Argument(help: "The trace (.pantrace, .jsonl, .csv).")
    var file: String

    @Option(help: "Transition preset (see `pantrace presets`), or a sheet library with --set detents=….")
    var preset: String?

    @Option(help: "A setting file, as tune --save-setting writes it: its preset and parameters (--set still overrides). Instead of --preset.")
    var setting: String?

    @Option(
        name: .customLong("set"),
        help: "Override a parameter, KEY=VALUE (repeatable); keys from `pantrace presets NAME`, plus velocity=\(VelocitySource.choices).")
    var assignments: [String] = []

    @Option(help: "Display frame rate: 60, 120 or 240.")
    var fps: Int = 60

    @Option(help: "Screen size in points, WIDTHxHEIGHT, each 1…100000 (default: the trace's own).")
    var screen: ScreenGeometry?

    @Flag(help: "Pace frames on the wall clock (for a live view) and report the pacing error in the summary.")
    var realtime = false

    @Option(help: "Playback speed with --realtime (2 plays twice as fast).")
    var speed: Double?

    @Option(
        help: """
            jsonl: every frame, then the summary line; summary: only the summary line; text: a short summary for people. \
            Default: text when standard output is a terminal, jsonl otherwise (pipes and files keep the JSON Lines).
            """)
    var format: Format?

    /// The format asked for, or the default for where standard output goes: people read a
    /// terminal, programs read pipes and files (docs/REPLAY.md, "Output").
    static func resolved(_ format: Format?, isTerminal: Bool) -> Format {
        format ?? (isTerminal ? .text : .jsonl)
    }

    @OptionGroup var read: ReadOptions

    func validate() throws {
        switch (preset, setting) {
        case (nil, nil): throw ValidationError("give --preset NAME or --setting FILE")
        case (.some, .some): throw ValidationError("--preset and --setting: a setting file names its own preset; give one of them")
        default: break
        }
        guard [60, 120, 240].contains(fps) else { throw ValidationError("--fps must be 60, 120 or 240, got \(fps)") }
        if let speed {
            guard realtime else { throw ValidationError("--speed only applies with --realtime") }
            guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
        }
    }

    func run() async throws {
        if let preset, DetentPresetName(rawValue: preset) != nil { return try await replaySheet(preset) }
        let parameters: ReplayParameters
        if let setting {
            parameters = try SettingFile.read(setting, assignments: assignments)
        } else if let preset {
            var overrides: [String: PresetValue] = [:]
            for text in assignments {
                let (key, value) = try ReplayParameters.assignment(parsing: text)
                overrides[key] = value
            }
            parameters = try ReplayParameters(presetNamed: preset, overrides: overrides)
        } else {
            preconditionFailure("validate() asks for --preset or --setting")
        }
        let preset = parameters.preset.name.rawValue
        let contents = try TraceFiles.read(file, reader: read.reader)
        for warning in contents.warnings { StandardError.line("warning: \(warning)") }
        let configuration = Replayer.Configuration(
            parameters: parameters, frameRate: Double(fps), screen: screen.map(Size.init))
        let replayer = try Replayer(trace: contents.trace, configuration: configuration)
        for line in Self.notes(replayer.summary, file: file, preset: preset) { StandardError.line(line) }
        let format = Self.resolved(format, isTerminal: isatty(STDOUT_FILENO) == 1)
        if realtime {
            try await Self.paced(replayer, speed: speed ?? 1, format: format)
        } else if format == .text {
            print(ReplaySummaryText(replayer.summary).text)
        } else {
            var replayer = replayer
            try ReplayJSONLines.stream(&replayer, frames: format == .jsonl, to: StandardOutput.write)
        }
    }

    /// What standard error says about the fit and the settings (docs/MODEL.md §2.6, §3.10, §4.12).
    static func notes(_ summary: ReplaySummary, file: String, preset: String) -> [String] {
        var lines: [String] = []
        if let fit = summary.fit, fit != .fits {
            var line =
                "warning: \(file) does not drive \(preset) (\(fit.rawValue)): \((summary.fitNote ?? "").replacingOccurrences(of: "does not fit: ", with: ""))"
            if let direction = summary.suggestedDirection { line += "; try --set direction=\(direction.rawValue)" }
            lines.append(line)
        }
        for warning in summary.warnings ?? [] { lines.append("warning: \(warning)") }
        return lines
    }

    /// The frames paced on the wall clock, each written as it falls due.
    private static func paced(_ replayer: Replayer, speed: Double, format: Format) async throws {
        var replayer = replayer
        let encoder = ReplayJSONLines.encoder()
        let pacing = try await replayer.run(clock: ContinuousClock(), speed: speed) { frame in
            guard format == .jsonl else { return }
            FileHandle.standardOutput.write(try encoder.encode(frame) + Data([0x0A]))
        }
        var summary = replayer.summary
        summary.pacing = pacing
        if format == .text {
            print(ReplaySummaryText(summary).text)
        } else {
            FileHandle.standardOutput.write(try encoder.encode(summary) + Data([0x0A]))
        }
    }
}
