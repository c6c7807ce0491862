internal import Foundation
internal import PanReplay
internal import PanTrace
internal import TransitionEngine

/// A comparison a page asked for, computed and encoded off the controller thread, so pages
/// with control are answered while others' comparisons are worked on.
struct CompareJob: Sendable {
    /// The recordings folder the id is relative to.
    var folder: String
    /// What was asked: the answer for every page that asks the same.
    var request: LoadRequest
    var frameRate: Double
    /// Where the recording is when it is a gesture of a corpus file.
    var location: Library.CorpusLocation?

    /// The `series` message with role `compare` (or, for a request that names a sheet, the
    /// `sheet` message), encoded as the runtime encodes every message.
    func run() -> Result<CompareAnswer, BridgeFailure> {
        do {
            let trace: Trace
            do {
                trace = try Library.trace(request.recording, folder: folder, location: location)
            } catch {
                throw BridgeFailure(.notFound, "\(error)")
            }
            let encoder = ServerMessage.encoder()
            if let sheet = request.sheet {
                let preset = try DetentPreset(named: request.setting.preset, overrides: request.setting.parameters)
                let message: SheetMessage
                do {
                    message = try SheetMessage(
                        recording: request.recording, trace: trace, sheet: sheet, preset: preset, parameters: request.setting.parameters,
                        fps: frameRate)
                } catch {
                    throw BridgeFailure(.invalid, "sheet: \(error)")
                }
                return .success(CompareAnswer(type: "sheet", bytes: Array(try encoder.encode(ServerMessage.sheet(message)))))
            }
            let parameters = try Player.parameters(of: request)
            let player = try Player(load: 0, request: request, parameters: parameters, trace: trace, frameRate: frameRate)
            var message = player.seriesMessage
            message.role = "compare"
            return .success(CompareAnswer(type: "series", bytes: Array(try encoder.encode(ServerMessage.series(message)))))
        } catch let failure as BridgeFailure {
            return .failure(failure)
        } catch {
            return .failure(BridgeFailure(.invalid, "\(error)"))
        }
    }
}
