internal import Foundation
internal import PanReplay
internal import PanTrace

/// A tuning sweep a viewer asked for, run off the controller thread.
struct TuneJob: Sendable {
    var paths: [String]
    var preset: String
    var grid: [String]

    /// Runs the sweep; the report is the `pantrace tune --json` document.
    func run() -> Result<TuneOutcome, BridgeFailure> {
        do {
            guard !grid.isEmpty else { throw BridgeFailure("invalid", "a tune needs at least one grid axis, e.g. threshold=0.2:0.8:0.05") }
            let axes = try grid.map { try GridAxis(parsing: $0) }
            let tuner = try Tuner(presetNamed: preset, grid: try TuningGrid(axes: axes))
            let result = try tuner.run(on: TraceCorpus.load(paths: paths))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let report = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(TuningReport(result)))
            return .success(TuneOutcome(preset: preset, report: report))
        } catch let failure as BridgeFailure {
            return .failure(failure)
        } catch {
            return .failure(BridgeFailure("invalid", "\(error)"))
        }
    }
}
