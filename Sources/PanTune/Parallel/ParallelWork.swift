internal import Dispatch
internal import Synchronization

/// The one way the tuner spreads work over threads: the items `0..<count` are claimed in
/// blocks, in order, by up to `threads` workers, each with state of its own; callers gather
/// results by index, so what they compute is the same for any thread count.
package struct ParallelWork: Sendable {
    /// The most workers.
    package let threads: Int

    /// Work on up to `threads` threads (at least one).
    package init(threads: Int) {
        precondition(threads > 0, "at least one thread")
        self.threads = threads
    }

    /// Calls `body` with each block of `0..<count` (at most `blockSize` items) on up to
    /// ``threads`` threads, each with its own `Worker` from `makeWorker`. When `body` returns
    /// false, no worker starts another block and this returns false.
    @discardableResult
    package func forEachBlock<Worker>(
        count: Int, blockSize: Int, worker makeWorker: @Sendable () -> Worker, each body: @Sendable (inout Worker, Range<Int>) -> Bool
    ) -> Bool {
        precondition(blockSize > 0, "a block holds at least one item")
        guard count > 0 else { return true }
        let blocks = (count + blockSize - 1) / blockSize
        let next = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        @Sendable func work() {
            var worker = makeWorker()
            while !stopped.load(ordering: .relaxed) {
                let block = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard block < blocks else { break }
                if !body(&worker, (block * blockSize)..<min(count, (block + 1) * blockSize)) {
                    stopped.store(true, ordering: .relaxed)
                }
            }
        }
        let workers = min(threads, blocks)
        if workers == 1 {
            work()
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in work() }
        }
        return !stopped.load(ordering: .relaxed)
    }

    /// `transform` of each of `items`, in their order, computed on up to ``threads`` threads.
    package func map<Element: Sendable, Result: Sendable>(_ items: [Element], _ transform: @Sendable (Element) -> Result) -> [Result] {
        guard threads > 1 && items.count > 1 else { return items.map(transform) }
        let found = Mutex([Result?](repeating: nil, count: items.count))
        forEachBlock(count: items.count, blockSize: 1) {
        } each: { _, range in
            for index in range {
                let result = transform(items[index])
                found.withLock { $0[index] = result }
            }
            return true
        }
        return found.withLock { $0.map { $0! } }
    }

    /// Starts `work` on another thread and returns at once; ``Pending/wait()`` gives its result.
    /// For work that overlaps the caller's own (the tuner judges one batch of traces while it
    /// reads the next).
    package static func start<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Pending<Result> {
        let pending = Pending<Result>()
        DispatchQueue.global().async(group: pending.group) {
            let result = work()
            pending.result.withLock { $0 = result }
        }
        return pending
    }

    /// The result of work started with ``start(_:)``.
    package final class Pending<Result: Sendable>: Sendable {
        fileprivate let group = DispatchGroup()
        fileprivate let result = Mutex<Result?>(nil)

        /// Waits for the work to end and gives its result.
        package func wait() -> Result {
            group.wait()
            return result.withLock { $0! }
        }
    }
}
