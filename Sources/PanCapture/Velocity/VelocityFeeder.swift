public import PanTrace

/// Feeds a pointer stream to a ``VelocityTracker`` the way the platform's input pipeline
/// does, and reports the velocity the platform would hand over at each lift.
///
/// The rules mirror how each platform drives its tracker:
/// - **down** forgets the history and adds the position (Android `VelocityTracker::
///   addMovement(const MotionEvent&)` calls `clear()` on ACTION_DOWN; Flutter's
///   `DragGestureRecognizer` builds a new tracker per pointer, `monodrag.dart` `_addPointer`).
/// - **move** adds the position.
/// - **up** adds nothing (Android returns early for ACTION_UP; Flutter only passes down and
///   move events to `addPosition`) and reports ``VelocityTracker/velocity(atNanoseconds:)``
///   at the lift's time: no velocity on Android, zero on Flutter, if the lift comes more
///   than 40 ms after the last move.
/// - **cancel** on Android clears the tracker (ACTION_CANCEL → `clear()`), so no velocity;
///   Flutter's drag recognizer treats a cancel like a lift (`handleEvent` →
///   `_giveUpPointer` → `_checkEnd`, `monodrag.dart` at flutter `9d96df23`), so the
///   estimate at the cancel's time is reported.
///
/// Like any value type with `mutating` methods, the feeder returns what happened and
/// leaves printing or recording to the caller.
public struct VelocityFeeder: Sendable {
    /// What one fed sample produced.
    public enum Output: Hashable, Sendable {
        /// The gesture continues; nothing to report.
        case tracking
        /// The pointer lifted; the velocity the platform reports then (`nil`: none).
        case released(PanVector?)
        /// The gesture was cancelled; the velocity the platform reports then (`nil`: none).
        case cancelled(PanVector?)
    }

    /// The velocity reported at the end of one gesture.
    public struct Release: Hashable, Sendable {
        /// When the gesture ended, in nanoseconds.
        public var nanoseconds: Int64
        /// Whether it ended by a lift or a cancel.
        public var isCancelled: Bool
        /// The reported velocity; `nil` where the platform reports none.
        public var velocity: PanVector?

        /// Creates a release record.
        public init(nanoseconds: Int64, isCancelled: Bool, velocity: PanVector?) {
            self.nanoseconds = nanoseconds
            self.isCancelled = isCancelled
            self.velocity = velocity
        }
    }

    /// The tracker being fed.
    public private(set) var tracker: VelocityTracker

    /// Creates a feeder with an empty tracker.
    public init(strategy: VelocityStrategy) {
        tracker = VelocityTracker(strategy: strategy)
    }

    /// Feeds one sample of the tracked pointer.
    ///
    /// - Returns: ``Output/tracking`` for down and move, otherwise the velocity the
    ///   platform reports as the gesture ends.
    public mutating func feed(_ sample: VelocitySample) -> Output {
        switch (sample.phase, tracker.strategy) {
        case (.down, _):
            tracker.clear()
            tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
            return .tracking
        case (.move, _):
            tracker.add(x: sample.x, y: sample.y, atNanoseconds: sample.nanoseconds)
            return .tracking
        case (.up, .lsq2), (.up, .impulse):
            return .released(tracker.velocity(atNanoseconds: sample.nanoseconds))
        case (.up, .flutter):
            let velocity = tracker.velocity(atNanoseconds: sample.nanoseconds)
            // The recognizer drops its trackers once the last pointer is gone.
            tracker.clear()
            return .released(velocity)
        case (.cancel, .lsq2), (.cancel, .impulse):
            tracker.clear()
            return .cancelled(nil)
        case (.cancel, .flutter):
            let velocity = tracker.velocity(atNanoseconds: sample.nanoseconds)
            tracker.clear()
            return .cancelled(velocity)
        }
    }

    /// Feeds a whole stream and lists the velocity reported at each lift or cancel, in order.
    ///
    /// - Parameters:
    ///   - samples: the tracked pointer's events, in time order.
    ///   - strategy: the platform estimator to reproduce.
    /// - Returns: one ``Release`` per up or cancel sample.
    public static func releases(
        of samples: some Sequence<VelocitySample>, strategy: VelocityStrategy
    ) -> [Release] {
        var feeder = VelocityFeeder(strategy: strategy)
        var releases: [Release] = []
        for sample in samples {
            switch feeder.feed(sample) {
            case .tracking:
                continue
            case .released(let velocity):
                releases.append(
                    Release(nanoseconds: sample.nanoseconds, isCancelled: false, velocity: velocity)
                )
            case .cancelled(let velocity):
                releases.append(
                    Release(nanoseconds: sample.nanoseconds, isCancelled: true, velocity: velocity))
            }
        }
        return releases
    }
}
