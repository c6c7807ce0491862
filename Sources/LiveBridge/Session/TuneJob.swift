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

    /// Runs the sweep and encodes its `tune` message (the report is the `pantrace tune --json`
    /// document), both here, off the controller thread: a report on a large library is
    /// megabytes of JSON, and the controller only sends the bytes.
    func run() -> Result<[UInt8], BridgeFailure> {
        outcome().flatMap { outcome in
            do {
                return .success(Array(try ServerMessage.encoder().encode(ServerMessage.tune(outcome))))
            } catch {
                return .failure(BridgeFailure(.failed, "the tune report could not be encoded: \(error)"))
            }
        }
    }

    /// Runs the sweep.
    private func outcome() -> Result<TuneOutcome, BridgeFailure> {
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
            // One recording at a time through the tuner's own admission, as `pantrace tune`
            // reads files: what is kept of each is its release states, not its samples, so a
            // library of any size is swept in bounded memory.
            let (admitted, _) = try tuner.admission.prepare { body in
                Library.eachTrace(ids, folder: folder, locations: corpusGestures) { id, outcome in
                    switch outcome {
                    case .success(let trace): body(.entry(TraceCorpus.Entry(file: id, trace: trace)))
                    case .failure(let error): body(.failure(TraceCorpus.Failure(file: id, reason: "\(error)")))
                    }
                }
                return nil
            }
            // Only a walk of a folder over its file limit gives none, and this reader walks none.
            guard let admitted else { throw BridgeFailure(.failed, "the recordings could not be admitted for the sweep") }
            let result = tuner.run(on: admitted)
            return .success(TuneOutcome(preset: preset, report: .computed(TuningReport(result)), recordings: ids))
        } catch let failure as BridgeFailure {
            return .failure(failure)
        } catch {
            return .failure(BridgeFailure(.invalid, "\(error)"))
        }
    }
}
