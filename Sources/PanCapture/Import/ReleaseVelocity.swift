public import PanTrace

/// The release velocity of a log's touches, fed to the estimator exactly as the
/// platform feeds its tracker (``VelocityFeeder``: down clears, moves add, the lift's
/// position is never added).
public enum ReleaseVelocity {
    /// One touch of a log: a pointer from its down to its lift or cancel, while no other
    /// touch was being followed.
    public struct Touch: Sendable, Hashable {
        /// 1-based, in the order the touches began.
        public var number: Int
        /// The pointer id.
        public var pointer: Int
        /// The down's and the lift's (or cancel's) times, ns on the log's clock.
        public var startNanoseconds: Int64
        public var endNanoseconds: Int64
        /// Whether it ended with a cancel.
        public var isCancelled: Bool
        /// What the platform reports at the lift (nil where Android reports none).
        public var velocity: PanVector?
    }

    /// The release velocity of every touch in the log, in order: each pointer followed from
    /// its down to its lift when no other touch is being followed (other pointers down at the
    /// same time are checked and otherwise ignored), fed as the platform feeds its tracker.
    /// A touch still down at the end of the log is left out.
    ///
    /// - Throws: ``CaptureError`` for a bad line, or when the log has no touch at all.
    public static func ofEveryTouch(
        inLogAt path: String, importer: PointerLogImporter, strategy: VelocityStrategy
    ) throws(CaptureError) -> [Touch] {
        var book = PointerBook()
        var feeder = VelocityFeeder(strategy: strategy)
        var current: (pointer: Int, start: Int64)?
        var touches: [Touch] = []
        _ = try importer.forEachEvent(inLogAt: path) { event throws(CaptureError) -> Bool in
            if let rejection = book.rejection(of: event) { throw CaptureError(.rejected(rejection)) }
            book.record(event)
            if current == nil, event.phase == .down {
                current = (event.pointer, event.nanoseconds)
            }
            guard let touch = current, event.pointer == touch.pointer else { return true }
            let sample = VelocitySample(nanoseconds: event.nanoseconds, x: event.location.x, y: event.location.y, phase: event.phase)
            switch feeder.feed(sample) {
            case .tracking:
                break
            case .released(let velocity), .cancelled(let velocity):
                touches.append(
                    Touch(
                        number: touches.count + 1, pointer: touch.pointer, startNanoseconds: touch.start,
                        endNanoseconds: event.nanoseconds, isCancelled: event.phase == .cancel, velocity: velocity))
                current = nil
            }
            return true
        }
        guard !touches.isEmpty else {
            throw CaptureError(current.map { .noRelease(pointer: $0.pointer) } ?? .noPointer, file: path)
        }
        return touches
    }

    /// The release velocity of the log's first touch (``ofEveryTouch(inLogAt:importer:strategy:)``'s first),
    /// as the platform reports it, in the log's units per second.
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
        // The first touch is the first pointer's: every touch of the log is read, and the
        // first is the one wanted (a first pointer that never lifts leaves none: an error).
        try ofEveryTouch(inLogAt: path, importer: importer, strategy: strategy)[0].velocity
    }
}
