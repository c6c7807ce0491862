internal import ArgumentParser
internal import Foundation
internal import PanReplay
internal import PanTune
internal import PanTrace
internal import TransitionEngine

extension TuneCommand {
    /// `tune PATH… --preset <sheet library> --grid KEY=…`: the library's settings swept over
    /// gestures labelled with the detent the person meant (docs/DETENTS.md, "Tuning").
    func tuneSheet() throws {
        for (given, flag) in [(partial != nil, "--partial"), (csv != nil, "--csv"), (svg != nil, "--svg"), (fps != 60, "--fps")] where given {
            throw CLIFailure("\(flag) is for a two-state preset's sweep; '\(preset)' is a sheet library (its report is the text or --json)")
        }
        if report.saveSetting != nil {
            throw CLIFailure(
                "--save-setting writes a two-state preset's setting; '\(preset)' is a sheet library: ship its best point with --emit (docs/DETENTS.md)"
            )
        }
        let grid = try TuningGrid(parsing: grids, isConfirmed: yes)
        let tuner = try DetentTuner(
            presetNamed: preset, grid: grid, screen: screen.map(Size.init), threadCount: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        if let emit { try SheetEmitter.check(emit, library: tuner.library) }
        var admitted = DetentTuner.Admitted()
        var unreadable = 0
        let folder = TraceCorpus.forEach(paths: paths, reader: read.reader, maximumFiles: folders.maxFiles) { item in
            switch item {
            case .failure(let problem):
                StandardError.line("skipped: \(problem.reason)")
                unreadable += 1
            case .entry(let entry):
                tuner.admit(entry, into: &admitted)
            }
        }
        if let folder { throw FolderLimitOptions.failure(folder: folder, limit: folders.maxFiles) }
        for failure in admitted.unreplayable { StandardError.line("skipped: \(failure.reason)") }
        // Left out, not skipped: a sheet the library has no states for is the library's limit.
        for failure in admitted.notDriven.prefix(3) { StandardError.line("note: left out: \(failure.reason)") }
        if admitted.notDriven.count > 3 { StandardError.line("note: … \(admitted.notDriven.count - 3) more on sheets \(preset) cannot drive") }
        let bar = ProgressBar.ifUseful(
            work: Double(admitted.drags.count) * Double(grid.pointCount), threshold: 50_000_000, label: "tuning", unit: "points")
        var progress: (@Sendable (Int, Int) -> Void)?
        if let bar { progress = { done, total in bar.update(done, of: total) } }
        let tuning = try tuner.run(admitted, progress: progress)
        bar?.finish()
        if emit != nil {
            let emitter = SheetEmitter(tuning: tuning, tuner: tuner, drags: admitted.drags, command: ShellQuoting.invocation, paths: paths)
            print(emitter.code(), terminator: "")
            for item in emitter.unshippable {
                StandardError.line("note: \(preset) cannot set \(item.key)=\(item.value): \(item.why); the code keeps \(item.libraryValue)")
            }
        } else if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            print(String(decoding: try encoder.encode(tuning.json), as: UTF8.self))
        } else {
            print(tuning.text(listingAll: all))
        }
        if unreadable + admitted.unreplayable.count > 0 {
            StandardError.line("warning: \(unreadable + admitted.unreplayable.count) file(s) or gesture(s) skipped; the result covers the rest")
            throw ExitCode(Self.skippedStatus)
        }
    }
}
