internal import PanCapture
internal import PanLiveWire
internal import PanTrace

/// One callback of the pan recognizer as it travels: `seq` numbers the session's samples
/// from 1 (docs/PROTOCOL.md §4, `samples`).
struct LiveSample: Hashable, Sendable {
    var seq: Int
    /// The `seq` of the `began` of the gesture this sample belongs to.
    var gesture: Int
    var time: Double
    var state: TraceRecorder.State
    var translation: PanVector
    var velocity: PanVector
    var location: PanVector?
    var touches: Int?

    /// What is wrong with the values, naming the wire field, or `nil`: the server's own rule
    /// (``LiveWire/sampleProblem(t:tx:ty:vx:vy:lx:ly:touches:)``), so what is sent is accepted.
    static func problem(
        time: Double, translation: PanVector, velocity: PanVector, location: PanVector?, touches: Int?
    ) -> String? {
        LiveWire.sampleProblem(
            t: time, tx: translation.x, ty: translation.y, vx: velocity.x, vy: velocity.y, lx: location?.x, ly: location?.y,
            touches: touches)
    }

    /// Whether the sample opens or closes a gesture (never dropped while others can be).
    var isBoundary: Bool { state != .changed }

    func write(to json: inout JSONText) {
        json.open()
        json.field("seq", seq)
        json.field("t", time)
        json.field("state", state.wireName)
        json.field("tx", translation.x)
        json.field("ty", translation.y)
        json.field("vx", velocity.x)
        json.field("vy", velocity.y)
        if let location {
            json.field("lx", location.x)
            json.field("ly", location.y)
        }
        if let touches { json.field("touches", touches) }
        json.close()
    }
}
