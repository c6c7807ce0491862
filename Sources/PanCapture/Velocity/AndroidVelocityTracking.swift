/// The history rules Android's `VelocityTracker` applies before either of its strategies
/// (``VelocityStrategy/lsq2`` and ``VelocityStrategy/impulse``) sees the samples.
///
/// Source: AOSP `libs/input/VelocityTracker.cpp` (blob `613a0df0`, Android 15):
/// `VelocityTracker::addMovement(nsecs_t, …)`, `VelocityTracker::addMovement(const
/// MotionEvent&)` and `AccumulatingVelocityTrackerStrategy::addMovement`.
enum AndroidVelocityTracking {
    /// `ASSUME_POINTER_STOPPED_TIME` (40 ms): a longer pause means the pointer stopped.
    static let assumePointerStoppedNanoseconds: Int64 = 40_000_000

    /// `HORIZON` of the least-squares and impulse strategies (100 ms, `VelocityTracker.h`).
    static let horizonNanoseconds: Int64 = 100_000_000

    /// Android's `SECONDS_PER_NANO`, declared `static const float SECONDS_PER_NANO = 1E-9;`.
    ///
    /// The literal `0.000000001f` used elsewhere in the file rounds to the same float
    /// (bit pattern `0x3089705F`; pinned by a test).
    static let secondsPerNanosecond: Float = 1e-9

    // Time differences throughout the estimators wrap (`&-`) instead of trapping: C++ leaves
    // `nsecs_t` overflow undefined, and a hostile log with extreme timestamps must yield a
    // meaningless velocity, not a crash. Real timestamps are far from the Int64 limits.

    /// Adds one position the way Android does for one pointer and one axis pair.
    ///
    /// In order:
    /// 1. A sample more than 40 ms after the previous one clears the history first
    ///    (`VelocityTracker::addMovement`: "We have not received any movements for too long.
    ///    Assume that all pointers have stopped." — `mConfiguredStrategies.clear()`).
    ///    Android compares with the last time any pointer was added; PanTrace tracks one
    ///    pointer, whose previous sample is the ring's newest.
    /// 2. A sample with the same timestamp as the newest replaces it (`popBack` then
    ///    `pushBack` in `AccumulatingVelocityTrackerStrategy::addMovement`; this is how a
    ///    MOVE and a POINTER_DOWN at the same instant collapse into one sample).
    /// 3. The sample is appended; a full ring drops its oldest (`RingBuffer::pushBack`).
    /// 4. Samples more than 100 ms older than the new one are dropped from the front
    ///    (`while (eventTime - movements[0].eventTime > mHorizonNanos) popFront()`).
    static func add(_ ring: inout SampleRing, nanoseconds: Int64, x: Double, y: Double) {
        if !ring.isEmpty, isStopped(lastSample: ring.newestTime, now: nanoseconds) {
            ring.removeAll()
        }
        if !ring.isEmpty, ring.newestTime == nanoseconds {
            ring.removeNewest()
        }
        ring.append(nanoseconds: nanoseconds, x: x, y: y)
        while nanoseconds &- ring.time(0) > horizonNanoseconds {
            ring.removeOldest()
        }
    }

    /// Whether Android would assume the pointer stopped between its last sample and `now`.
    ///
    /// The comparison is strict, as in `delaySinceLastEvent > ASSUME_POINTER_STOPPED_TIME`
    /// (the ACTION_UP / ACTION_POINTER_UP branch, which then erases the planar strategies so
    /// that no velocity is reported).
    static func isStopped(lastSample: Int64, now: Int64) -> Bool {
        now &- lastSample > assumePointerStoppedNanoseconds
    }
}
