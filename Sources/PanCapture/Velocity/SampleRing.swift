/// The last 20 timed positions in a ring allocated once, so adding and reading never
/// allocate.
///
/// Both platforms keep exactly 20: Android's `AccumulatingVelocityTrackerStrategy::
/// HISTORY_SIZE` (`VelocityTracker.h`) and Flutter's `VelocityTracker._historySize`
/// (`velocity_tracker.dart`). Appending to a full ring drops the oldest sample, like
/// Android's `RingBuffer::pushBack` and Flutter's circular `_samples` list.
///
/// The slots live in one `ContiguousArray` created at full size in `init` and only ever
/// overwritten, so after that no operation allocates (copying a ring shares the buffer until
/// one copy is written, as with any array). Inline storage (`InlineArray`) was measured and
/// rejected: with Swift 6.3.1, reading one element of an `InlineArray` stored in a borrowed
/// struct copies the whole array first, which made every velocity query copy the history
/// dozens of times.
struct SampleRing: Sendable {
    /// One stored sample.
    struct Entry: Sendable {
        var nanoseconds: Int64
        var x: Double
        var y: Double
    }

    /// How many samples the ring holds.
    static let capacity = 20

    private var entries = ContiguousArray(
        repeating: Entry(nanoseconds: 0, x: 0, y: 0), count: SampleRing.capacity)
    /// Storage slot of the oldest sample.
    private var start = 0

    /// The number of samples held, at most ``capacity``.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Storage slot of the sample at logical position `index` (0 is the oldest).
    @inline(__always)
    private func slot(_ index: Int) -> Int {
        let raw = start + index
        return raw >= Self.capacity ? raw - Self.capacity : raw
    }

    /// Time in nanoseconds of the sample at `index`, 0 being the oldest.
    @inline(__always)
    func time(_ index: Int) -> Int64 {
        entries[slot(index)].nanoseconds
    }

    /// Horizontal position of the sample at `index`, 0 being the oldest.
    @inline(__always)
    func x(_ index: Int) -> Double {
        entries[slot(index)].x
    }

    /// Vertical position of the sample at `index`, 0 being the oldest.
    @inline(__always)
    func y(_ index: Int) -> Double {
        entries[slot(index)].y
    }

    /// Time of the newest sample; the ring must not be empty.
    var newestTime: Int64 {
        precondition(count > 0, "SampleRing is empty")
        return time(count - 1)
    }

    /// Appends a sample, dropping the oldest one when the ring is full.
    mutating func append(nanoseconds: Int64, x: Double, y: Double) {
        let entry = Entry(nanoseconds: nanoseconds, x: x, y: y)
        if count == Self.capacity {
            entries[start] = entry
            start = slot(1)
        } else {
            entries[slot(count)] = entry
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

    /// Forgets every sample, keeping the storage.
    mutating func removeAll() {
        start = 0
        count = 0
    }
}
