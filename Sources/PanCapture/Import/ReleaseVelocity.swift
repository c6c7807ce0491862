public import PanTrace

/// The release velocity of a log's first pointer, fed to the estimator exactly as the
/// platform feeds its tracker (``VelocityFeeder``: down clears, moves add, the lift's
/// position is never added).
public enum ReleaseVelocity {
    /// Reads the log until its first pointer lifts or is cancelled and returns the velocity
    /// the platform reports then, in the log's units per second.
    ///
    /// Extra pointers are checked (a move before its down is still an error) and otherwise
    /// ignored. `getevent` positions stay in raw panel units.
    ///
    /// - Returns: `nil` where the platform reports no velocity (Android: a lift more than
    ///   40 ms after the last move, a cancel, a single sample).
    /// - Throws: ``CaptureError`` for a bad line, or when the first pointer never lifts.
    public static func ofFirstPointer(
        inLogAt path: String, importer: PointerLogImporter, strategy: VelocityStrategy
    ) throws(CaptureError) -> PanVector? {
        var book = PointerBook()
        var feeder = VelocityFeeder(strategy: strategy)
        var first: Int?
        var result: PanVector??
        _ = try importer.forEachEvent(inLogAt: path) { event throws(CaptureError) -> Bool in
            if let rejection = book.rejection(of: event) { throw CaptureError(.rejected(rejection)) }
            book.record(event)
            if first == nil, event.phase == .down { first = event.pointer }
            guard event.pointer == first else { return true }
            let phase: VelocitySample.Phase
            switch event.phase {
            case .down: phase = .down
            case .move: phase = .move
            case .up: phase = .up
            case .cancel: phase = .cancel
            }
            let sample = VelocitySample(nanoseconds: event.nanoseconds, x: event.location.x, y: event.location.y, phase: phase)
            switch feeder.feed(sample) {
            case .tracking:
                return true
            case .released(let velocity), .cancelled(let velocity):
                result = .some(velocity)
                return false
            }
        }
        guard let result else {
            throw CaptureError(first.map { .noRelease(pointer: $0) } ?? .noPointer, file: path)
        }
        return result
    }
}
