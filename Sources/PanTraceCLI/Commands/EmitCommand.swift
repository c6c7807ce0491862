internal import ArgumentParser
internal import Foundation
internal import PanCapture
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

extension DriverTarget: ExpressibleByArgument {}

/// `pantrace emit`: recorded gestures as a UI test driver's input, with a fidelity report.
struct EmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit",
        abstract: "Write recorded gestures for a UI test driver, and report what the driver keeps of each (docs/EMIT.md).",
        discussion: """
            Targets: \(DriverTarget.allCases.map(\.rawValue).joined(separator: ", ")). For one file the script goes to \
            standard output and the fidelity report to standard error; with -o each gesture is written to \
            OUT/STEM.EXT (the recording's file name, letters and digits kept). --json prints the reports as one JSON array instead. --delivered reads the events a \
            driver really delivered (a t_ms,x,y,phase CSV log) and reports on them instead of the model. \
            --suite writes one test file with one test per gesture, asserting the decision its label calls for.
            """)

    @Argument(help: "Recordings (.pantrace, .jsonl, .csv), corpora (.pantraces) and folders of them (searched recursively).")
    var files: [String]

    @Option(help: "The driver: \(DriverTarget.allCases.map(\.rawValue).joined(separator: ", ")).")
    var to: DriverTarget

    @Option(name: .customLong("preset"), help: "A preset to decide under (repeatable; default: every preset).")
    var presets: [String] = []

    @Option(help: "A setting file (tune --save-setting): decide under it instead of the presets' defaults, and name it in a --suite.")
    var setting: String?

    @Option(help: "The estimator whose release velocity a straight swipe (xcuitest, maestro, adb) aims at: lsq2, impulse or flutter.")
    var estimator: VelocityStrategy = .lsq2

    @Option(help: "Pixels per point of the driver's coordinates (default: the recording's screen scale; 1 for WebDriver's CSS pixels).")
    var scale: Double?

    @Option(
        name: .customLong("tick-overhead"),
        help: "WebDriver: milliseconds each tick costs the driver beyond its pause, taken off the pauses (measure it: docs/EMIT.md).")
    var tickOverhead: Double = 0

    @Option(
        name: .customLong("timing-jitter"),
        help:
            "Milliseconds by which the driver's event times wander (once, or once per recording): each estimator's error envelope and the decisions that noise can change."
    )
    var timingJitter: [Double] = []

    @Option(name: .shortAndLong, help: "Folder to write one file per gesture into (a file with --suite).")
    var output: String?

    @Flag(help: "Print the fidelity reports as a JSON array on standard output.")
    var json = false

    @Option(
        help: "A t_ms,x,y,phase CSV log of the events the driver really delivered; repeat it once per recording, in the same order.")
    var delivered: [String] = []

    @Flag(help: "Write one regression test file (xcuitest, compose, webdriver-touch, webdriver-mouse) for all the gestures.")
    var suite = false

    @Option(help: "Display frame rate of the replays: 60, 120 or 240.")
    var fps: Int = 60

    @OptionGroup var read: ReadOptions

    @OptionGroup var folders: FolderLimitOptions

    func validate() throws {
        guard [60, 120, 240].contains(fps) else { throw ValidationError("--fps must be 60, 120 or 240, got \(fps)") }
        if setting != nil && !presets.isEmpty {
            throw ValidationError("--preset and --setting: a setting file names its own preset; give one of them")
        }
        guard timingJitter.allSatisfy({ $0 >= 0 && $0 <= 50 }) else { throw ValidationError("--timing-jitter must be in 0…50 ms") }
        guard timingJitter.count <= 1 || timingJitter.count == files.count else {
            throw ValidationError("give --timing-jitter once, or once per recording")
        }
        guard tickOverhead >= 0, tickOverhead <= 50 else { throw ValidationError("--tick-overhead must be in 0…50 ms") }
        if let scale { guard scale > 0, scale.isFinite, scale <= 100 else { throw ValidationError("--scale must be in 0…100") } }
        if !delivered.isEmpty {
            guard files.count == delivered.count else { throw ValidationError("give one --delivered log per recording, in the same order") }
        }
        if suite { guard RegressionSuite.supports(to) else { throw ValidationError("--suite writes xcuitest, compose or webdriver tests") } }
    }

    func run() throws {
        let settings: [ReplayParameters] =
            if let setting {
                [try SettingFile.read(setting)]
            } else {
                try (presets.isEmpty ? PresetCatalog.names : presets).map { ReplayParameters(preset: try Preset(named: $0)) }
            }
        if let setting, !json {
            StandardError.line("setting: \(setting): every decision below is \(settings[0].preset.name.rawValue) under this file's parameters")
        }
        if !delivered.isEmpty, let folder = files.first(where: Self.isFolder) {
            throw CLIFailure("\(folder) is a folder: give one --delivered log per recording file, not a folder")
        }
        var reports: [Fidelity.Report] = []
        var suiteCases: [RegressionSuite.Case] = []
        var unread: [TraceCorpus.Failure] = []
        var position = 0
        // Without -o, the one script goes to standard output: held until a second gesture
        // would make that impossible, so nothing is printed half.
        var single: String?
        var problem: (any Error)?
        let folder = TraceCorpus.forEach(paths: files, reader: read.reader, maximumFiles: folders.maxFiles) { item in
            guard problem == nil else { return }
            switch item {
            case .failure(let failure):
                StandardError.line("skipped \(failure.reason)")
                unread.append(failure)
            case .entry(let entry):
                do {
                    let text = try emit(entry, at: position, settings: settings, reports: &reports, suiteCases: &suiteCases)
                    position += 1
                    guard let text else { return }
                    if let output {
                        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                        let file = "\(output)/\(SourceText.identifier(Self.stem(of: entry.file), prefix: "")).\(to.fileExtension)"
                        guard !FileManager.default.fileExists(atPath: file) else { throw CLIFailure("\(file) exists; pantrace never overwrites") }
                        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
                    } else if !json {
                        guard single == nil else { throw CLIFailure("2 or more recordings: give -o FOLDER to write one file each") }
                        single = text
                    }
                } catch {
                    problem = error
                }
            }
        }
        if let problem { throw problem }
        if let folder { throw FolderLimitOptions.failure(folder: folder, limit: folders.maxFiles) }
        guard position > 0 else {
            throw CLIFailure(
                "no recording could be read from \(files.joined(separator: ", "))\(unread.isEmpty ? "" : " (\(unread.count) skipped, listed above)")")
        }
        if !delivered.isEmpty, position != delivered.count {
            throw CLIFailure("\(position) recordings and \(delivered.count) --delivered logs: give one log per recording, in the same order")
        }
        if reports.count > 1, !json { StandardError.line(Fidelity.totalLine(reports, target: to)) }
        if let single {
            print(single, terminator: "")
            if to == .webdriverTouch || to == .webdriverMouse {
                StandardError.line(
                    "to perform it: send this JSON as the body of POST /session/{session id}/actions to the WebDriver server "
                        + "(W3C WebDriver, Perform Actions), or pass its \"actions\" list to your client's perform-actions call (docs/EMIT.md)")
            }
        }
        if suite {
            let text = try RegressionSuite.render(suiteCases, target: to, setting: setting != nil ? settings.first : nil)
            if let output {
                guard !FileManager.default.fileExists(atPath: output) else { throw CLIFailure("\(output) exists; pantrace never overwrites") }
                try Data(text.utf8).write(to: URL(fileURLWithPath: output))
            } else if !json {
                print(text, terminator: "")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(reports) + Data([0x0A]))
        }
        if !unread.isEmpty {
            throw CLIFailure("\(unread.count) of \(unread.count + position) recordings could not be read and were left out (listed above)")
        }
    }

    /// The driver script for one gesture (nil for a suite, whose cases are gathered), its
    /// fidelity report added to `reports` (and printed unless `--json`).
    private func emit(
        _ entry: TraceCorpus.Entry, at position: Int, settings: [ReplayParameters], reports: inout [Fidelity.Report],
        suiteCases: inout [RegressionSuite.Case]
    ) throws -> String? {
        let presetList = settings.map(\.preset)
        let trace = entry.trace
        // Coordinates are the recording's points: on another platform's device, or a screen
        // smaller than the recording's, they land elsewhere or off the edge (a 1080×1920 screen
        // recorded at 1x is 1080 pt wide; the widest iPhone is 440 pt).
        let screen = trace.metadata.screen
        let size = "a \(Int(screen.width.rounded()))×\(Int(screen.height.rounded())) pt screen"
        if let platform = to.platform, ["ios", "android"].contains(trace.metadata.source), trace.metadata.source != platform {
            StandardError.line(
                "warning: \(entry.file) was recorded on \(trace.metadata.source) (\(size)); \(to.rawValue) drives \(platform) devices and places the "
                    + "drag at the recording's points, which a smaller screen may not hold: record the gesture on the device under test")
        } else if to == .xcuitest, screen.width > Self.largestIPhone.width || screen.height > Self.largestIPhone.height {
            StandardError.line(
                "warning: \(entry.file) was recorded on \(size), larger than any iPhone's (\(Int(Self.largestIPhone.width))×"
                    + "\(Int(Self.largestIPhone.height)) pt); xcuitest places the drag at the recording's points, which may run off the device's edge: "
                    + "record the gesture on the device under test (or with its screen's size and scale)")
        }
        let pixels = scale ?? (to == .webdriverTouch || to == .webdriverMouse ? 1 : trace.metadata.screen.scale)
        var planning = DriverPlan.Configuration(scale: pixels, estimator: estimator)
        planning.tickOverhead = tickOverhead / 1000
        let plan = try DriverPlan(trace: trace, target: to, configuration: planning)
        var deliveredPath = plan.delivered
        var source = "modelled"
        if !delivered.isEmpty {
            guard position < delivered.count else {
                throw CLIFailure("more recordings than --delivered logs: give one log per recording, in the same order")
            }
            deliveredPath = try PointerPath(events: Self.events(inLogAt: delivered[position]))
            source = "measured"
        }
        var fidelity = Fidelity(
            original: trace, delivered: deliveredPath, target: to, presets: presetList, notes: plan.notes, frameRate: Double(fps))
        if source == "measured" {
            fidelity.compare(withModel: Fidelity(original: trace, delivered: plan.delivered, target: to, presets: []))
        }
        let jitter = timingJitter.count == 1 ? timingJitter[0] : timingJitter.count > position ? timingJitter[position] : 0
        if jitter > 0 {
            fidelity.apply(
                Fidelity.envelope(original: trace, path: plan.delivered, presets: presetList, jitter: jitter / 1000, frameRate: Double(fps)))
        }
        reports.append(fidelity.report(source: source))
        if !json { for line in fidelity.textLines { StandardError.line(line) } }
        let name = trace.metadata.id.isEmpty ? Self.stem(of: entry.file) : trace.metadata.id
        if suite {
            suiteCases.append(
                .init(
                    plan: plan, name: name, expected: RegressionSuite.expected(trace, settings: settings), screen: trace.metadata.screen,
                    scale: pixels))
            return nil
        }
        return try DriverScript.render(plan, name: name, screen: trace.metadata.screen, scale: pixels)
    }

    /// The largest iPhone screen in points (iPhone 16 Pro Max, 440 × 956): a recording larger
    /// than this cannot be replayed point for point by XCUITest on any iPhone.
    static let largestIPhone = (width: 440.0, height: 956.0)

    /// A gesture's file stem: the file's name without its extension, or, for a gesture of a
    /// corpus file (`corpus.pantraces#name`), its name in the corpus.
    static func stem(of label: String) -> String {
        if let mark = label.lastIndex(of: "#"), label[..<mark].hasSuffix(".pantraces") { return String(label[label.index(after: mark)...]) }
        return URL(fileURLWithPath: label).deletingPathExtension().lastPathComponent
    }

    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Every event of a CSV pointer log.
    static func events(inLogAt path: String) throws -> [PointerEvent] {
        var events: [PointerEvent] = []
        _ = try PointerLogImporter(configuration: .init(format: .csv)).forEachEvent(inLogAt: path) { event in
            events.append(event)
            return true
        }
        return events
    }
}
