internal import Foundation
internal import PanReplay
internal import PanTune
internal import PanTrace

/// A tuning sweep a viewer asked for, run off the controller thread.
struct TuneJob: Sendable {
    /// The most grid points one `tune` message may ask for: far more than a heat map shows,
    /// and a bound on the work one message can start (the CLI sweeps up to 10⁷ without
    /// `--yes`).
    static let maximumPoints = 100_000

    /// The recordings folder the ids are relative to.
    var folder: String
    /// Library ids; reports name recordings by these, not by absolute path.
    var ids: [String]
    var preset: String
    var grid: [String]
    /// Where the ids that name gestures of corpus files are (``Library/corpusGestures``).
    var corpusGestures: [String: Library.CorpusLocation] = [:]

    /// Runs the sweep; the report is the `pantrace tune --json` document.
    func run() -> Result<TuneOutcome, BridgeFailure> {
        do {
            guard !grid.isEmpty else { throw BridgeFailure(.invalid, "a tune needs at least one grid axis, e.g. threshold=0.2:0.8:0.05") }
            let parsed: TuningGrid
            do {
                parsed = try TuningGrid(parsing: grid, maximumPoints: Self.maximumPoints)
            } catch let error as ReplayError where error.isGridTooLarge {
                throw BridgeFailure(
                    .invalid, "the grid has more than \(Self.maximumPoints) points, the most a viewer may sweep; use pantrace tune for larger grids")
            }
            let tuner = try Tuner(presetNamed: preset, grid: parsed)
            var entries: [TraceCorpus.Entry] = []
            var failures: [TraceCorpus.Failure] = []
            for id in ids {
                do {
                    entries.append(TraceCorpus.Entry(file: id, trace: try Library.trace(id, folder: folder, location: corpusGestures[id])))
                } catch {
                    failures.append(TraceCorpus.Failure(file: id, reason: "\(error)"))
                }
            }
            let result = try tuner.run(on: TraceCorpus(entries: entries, failures: failures))
            return .success(TuneOutcome(preset: preset, report: .computed(TuningReport(result)), recordings: ids))
        } catch let failure as BridgeFailure {
            return .failure(failure)
        } catch {
            return .failure(BridgeFailure(.invalid, "\(error)"))
        }
    }
}
