internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// `pantrace detents`: recorded gestures as drags of a sheet with detents, through every sheet
/// library's release rule at once.
struct DetentsCommand: PathListCommand {
    static let configuration = CommandConfiguration(
        commandName: "detents",
        abstract: "Replay gestures as drags of a sheet with detents: which detent each sheet library settles at, and how often they disagree.",
        discussion: """
            A gesture's vertical translation moves the sheet from --start; at the release each library \
            reads the velocity its own way and chooses a detent (docs/MODEL.md §9). --json prints one \
            object per gesture (docs/DETENTS.md). Unreadable files and gestures without a release are \
            reported and skipped (exit status 3). Libraries: \(DetentPresetName.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Argument(help: "Trace files, corpora (.pantraces) and folders (searched recursively for .pantrace, .jsonl, .csv and .pantraces).")
    var paths: [String]

    static let optionsTakingValues: Set<String> = ["--detents", "--start", "--presets", "--set", "--screen", "--max-files"]

    @Option(help: "The detents: positions of the sheet's top edge in points from the top of the screen, most expanded first (e.g. 80,400,600).")
    var detents: String

    @Option(
        help:
            "The index of the detent the sheet rests at when the drag begins (default: the last, least expanded), or auto: upward drags from the last, downward ones from the first."
    )
    var start: String?

    @Option(help: "The libraries, comma-separated (default: every library that can drive the sheet).")
    var presets: String?

    @Option(
        name: .customLong("set"),
        help: "A library setting, KEY=VALUE (repeatable), given to every library with that key; velocity=\(VelocitySource.choices) for all.")
    var assignments: [String] = []

    @Option(help: "Screen size in points, WIDTHxHEIGHT, each 1…100000 (default: each trace's own).")
    var screen: ScreenGeometry?

    @Flag(help: "One JSON object per gesture instead of the table.")
    var json = false

    @OptionGroup var read: ReadOptions

    @OptionGroup var folders: FolderLimitOptions

    /// The exit status when some files or gestures were skipped.
    static let skippedStatus: Int32 = 3

    func run() throws {
        var setup = try SheetReplay.Setup(
            parsingDetents: detents, start: start, presets: presets, assignments: assignments, screen: screen.map(Size.init))
        // A library that cannot drive this sheet: left out with a note when taken by default; named,
        // SheetReplay refuses it with the others.
        if presets == nil {
            let cannot = try setup.presetsThatCannotDrive()
            for (_, problem) in cannot { StandardError.line("note: \(problem); left out") }
            setup = setup.leavingOut(Set(cannot.map(\.name)))
        }
        let replay = try SheetReplay(setup)
        // The table keeps every row; JSON lines go out as they come and only their count is kept.
        var atlas = DetentAtlas(setup: setup)
        var replayed = 0
        var skipped = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var encodingFailure: (any Error)?
        let folder = TraceCorpus.forEach(paths: paths, reader: read.reader, maximumFiles: folders.maxFiles) { item in
            switch item {
            case .failure(let problem):
                StandardError.line("skipped: \(problem.reason)")
                skipped += 1
            case .entry(let entry):
                guard let gesture = Self.replayed(entry, with: replay) else {
                    skipped += 1
                    return
                }
                replayed += 1
                guard json else {
                    atlas.add(gesture, file: entry.file)
                    return
                }
                do {
                    print(String(decoding: try encoder.encode(DetentGestureJSON(file: entry.file, gesture: gesture)), as: UTF8.self))
                } catch {
                    encodingFailure = encodingFailure ?? error
                }
            }
        }
        if let encodingFailure { throw encodingFailure }
        if let folder { throw FolderLimitOptions.failure(folder: folder, limit: folders.maxFiles) }
        if replayed == 0 { throw CLIFailure("no gesture could be replayed on the sheet (\(skipped) skipped)") }
        if !json { print(atlas.text()) }
        if skipped > 0 {
            StandardError.line("warning: \(skipped) file(s) or gesture(s) skipped; the report covers the other \(replayed)")
            throw ExitCode(Self.skippedStatus)
        }
    }

    /// One gesture replayed, or nil after saying why it was skipped.
    private static func replayed(_ entry: TraceCorpus.Entry, with replay: SheetReplay) -> SheetReplay.Gesture? {
        do {
            return try replay.replay(entry.trace)
        } catch {
            StandardError.line("skipped: \(entry.file): \(error)")
            return nil
        }
    }
}
