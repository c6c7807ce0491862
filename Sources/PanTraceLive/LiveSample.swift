internal import PanCapture
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

    /// The largest magnitude the server accepts for a position or a velocity.
    static let limit = 1e6

    /// What is wrong with the values, naming the field, or `nil`.
    static func problem(
        time: Double, translation: PanVector, velocity: PanVector, location: PanVector?, touches: Int?
    ) -> String? {
        func bad(_ value: Double, limit: Double = Self.limit) -> Bool { !value.isFinite || abs(value) > limit }
        if !time.isFinite || time < 0 { return "timestamp is not a finite non-negative number (\(time))" }
        if bad(translation.x) || bad(translation.y) { return "translation is not finite or beyond ±10⁶ points" }
        if bad(velocity.x) || bad(velocity.y) { return "velocity is not finite or beyond ±10⁶ points per second" }
        if let location, bad(location.x) || bad(location.y) { return "location is not finite or beyond ±10⁶ points" }
        if let touches, touches < 0 || touches > 100 { return "touches is not 0…100 (\(touches))" }
        return nil
    }

    static func stateName(_ state: TraceRecorder.State) -> String {
        switch state {
        case .possible: "possible"
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }

    /// Whether the sample opens or closes a gesture (never dropped while others can be).
    var isBoundary: Bool { state != .changed }

    func write(to json: inout JSONText) {
        json.open()
        json.field("seq", seq)
        json.field("t", time)
        json.field("state", Self.stateName(state))
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
