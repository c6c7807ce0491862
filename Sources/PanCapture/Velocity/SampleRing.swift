/// The last 20 timed positions, stored inline so adding and reading never allocate.
///
/// Both platforms keep exactly 20: Android's `AccumulatingVelocityTrackerStrategy::
/// HISTORY_SIZE` (`VelocityTracker.h`) and Flutter's `VelocityTracker._historySize`
/// (`velocity_tracker.dart`). Appending to a full ring drops the oldest sample, like
/// Android's `RingBuffer::pushBack` and Flutter's circular `_samples` list.
struct SampleRing: Sendable {
    /// How many samples the ring holds.
    static let capacity = 20

    private var times = InlineArray<20, Int64>(repeating: 0)
    private var xs = InlineArray<20, Double>(repeating: 0)
    private var ys = InlineArray<20, Double>(repeating: 0)
    /// Storage slot of the oldest sample.
    private var start = 0

    /// The number of samples held, at most ``capacity``.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Storage slot of the sample at logical position `index` (0 is the oldest).
    private func slot(_ index: Int) -> Int {
        let raw = start + index
        return raw >= Self.capacity ? raw - Self.capacity : raw
    }

    /// Time in nanoseconds of the sample at `index`, 0 being the oldest.
    func time(_ index: Int) -> Int64 {
        times[slot(index)]
    }

    /// Horizontal position of the sample at `index`, 0 being the oldest.
    func x(_ index: Int) -> Double {
        xs[slot(index)]
    }

    /// Vertical position of the sample at `index`, 0 being the oldest.
    func y(_ index: Int) -> Double {
        ys[slot(index)]
    }

    /// Time of the newest sample; the ring must not be empty.
    var newestTime: Int64 {
        precondition(count > 0, "SampleRing is empty")
        return time(count - 1)
    }

    /// Appends a sample, dropping the oldest one when the ring is full.
    mutating func append(nanoseconds: Int64, x: Double, y: Double) {
        if count == Self.capacity {
            let target = start
            times[target] = nanoseconds
            xs[target] = x
            ys[target] = y
            start = slot(1)
        } else {
            let target = slot(count)
            times[target] = nanoseconds
            xs[target] = x
            ys[target] = y
            count += 1
        }
    }

    /// Removes the newest sample.
    mutating func removeNewest() {
        precondition(count > 0, "SampleRing is empty")
        count -= 1
    }

    /// Removes the oldest sample.
    mutating func removeOldest() {
        precondition(count > 0, "SampleRing is empty")
        start = slot(1)
        count -= 1
    }

    /// Forgets every sample.
    mutating func removeAll() {
        start = 0
        count = 0
    }
}
