internal import PanReplay
internal import Synchronization
internal import TransitionEngine

/// Scores every point of a grid on release sets, on several threads: from the traces' sorted
/// statistics along a threshold axis (``ThresholdSweep``), or by deciding every point.
struct GridSweep: Sendable {
    /// The grid and its preset.
    let space: PresetGrid
    /// The display frame rate for completion times, Hz.
    let frameRate: Double
    /// The threads.
    let work: ParallelWork
    /// Whether a threshold axis may be swept from sorted statistics.
    let allowsSortedSweep: Bool
    /// How the threshold sweep keeps its compared traces.
    var thresholdStorage: ThresholdStorage = .smaller

    /// Scores every point, in grid order.
    ///
    /// Points are visited in "sweep order": axes that change the release state outermost,
    /// then those that may change the completion, then decision-only axes innermost, so a
    /// worker rebuilds release sets and completion caches only when it crosses a boundary.
    /// With `subsets`, each point's per-subset tallies are kept too.
    func run(
        releaseSet: (ReplayParameters) -> ReleaseSet, subsets: TraceSubsets?, progress: (@Sendable (Int, Int) -> Void)?
    ) -> (scores: [PointScore], tallies: SubsetTallies?) {
        let grid = space.grid
        let axes = grid.axes
        let roles = axes.map { PresetGrid.AxisRole(key: $0.key) }
        let order = axes.indices.sorted { roles[$0] != roles[$1] ? roles[$0] < roles[$1] : $0 < $1 }
        let sizes = order.map { axes[$0].values.count }
        let decisionPoints = zip(order, sizes).filter { roles[$0.0] == .decision }.reduce(1) { $0 * $1.1 }
        let completionPoints = zip(order, sizes).filter { roles[$0.0] != .release }.reduce(1) { $0 * $1.1 }
        let releaseAxes = order.filter { roles[$0] == .release }
        let keys = axes.map(\.key)

        // One release set per combination of release-axis values (usually one).
        let releaseGroups = releaseAxes.reduce(1) { $0 * axes[$1].values.count }
        let releaseSets: [ReleaseSet] = (0..<releaseGroups).map { group in
            var remainder = group
            var values: [(String, PresetValue)] = []
            for axis in releaseAxes.reversed() {
                let size = axes[axis].values.count
                values.append((keys[axis], axes[axis].values[remainder % size]))
                remainder /= size
            }
            return releaseSet(space.parameters(keys: values.map(\.0), values: values.map(\.1)))
        }

        if let sorted = sortedSweep(releaseSets: releaseSets, releaseAxes: releaseAxes, subsets: subsets, progress: progress) {
            return sorted
        }
        // Every point decides every release: an array reads faster than the columns.
        let materializedSets = releaseSets.map { set in
            var set = set
            set.materialize()
            return set
        }
        let total = grid.pointCount
        let chunk = max(1, min(4096, total / (work.threads * 8)))
        let done = Atomic<Int>(0)
        let results = Mutex([PointScore](repeating: .empty, count: total))
        let subsetCount = subsets?.count ?? 0
        let tallies = Mutex(SubsetTallies(points: subsets == nil ? 0 : total, subsets: subsetCount))
        let frameRate = self.frameRate
        let traceCount = releaseSets[0].releases.count

        struct Worker {
            var cache: ReleaseSet.CompletionCache
            var tally: SubsetTally
            var indices: [Int]
            var values: [PresetValue]
            // The completion context the cache holds; kept across chunks of the same context.
            var context = -1
        }
        work.forEachBlock(count: total, blockSize: chunk) {
            Worker(
                cache: ReleaseSet.CompletionCache(traces: traceCount), tally: SubsetTally(subsets: subsetCount),
                indices: [Int](repeating: 0, count: axes.count), values: [PresetValue](repeating: .number(0), count: axes.count))
        } each: { worker, range in
            var local: [(Int, PointScore)] = []
            local.reserveCapacity(range.count)
            var localCorrect: [Int32] = []
            var localMargins: [Double] = []
            for sweepIndex in range {
                // Sweep index → value index per axis (in sweep order) → grid index.
                var remainder = sweepIndex
                for position in order.indices.reversed() {
                    worker.indices[order[position]] = remainder % sizes[position]
                    remainder /= sizes[position]
                }
                for axis in axes.indices { worker.values[axis] = axes[axis].values[worker.indices[axis]] }
                let gridIndex = grid.point(withValueIndices: worker.indices)
                let completionContext = sweepIndex / decisionPoints
                if completionContext != worker.context {
                    worker.cache.invalidate()
                    worker.context = completionContext
                }
                let parameters = space.parameters(keys: keys, values: worker.values)
                let set = materializedSets[sweepIndex / completionPoints]
                local.append(
                    (gridIndex, set.score(parameters.preset, frameRate: frameRate, cache: &worker.cache, subsets: subsets, tally: &worker.tally)))
                for subset in 0..<subsetCount {
                    localCorrect.append(Int32(worker.tally.correct[subset]))
                    localMargins.append(worker.tally.minimumMargin[subset])
                }
            }
            results.withLock { scores in
                for (index, score) in local { scores[index] = score }
            }
            if subsets != nil {
                tallies.withLock { $0.store(correct: localCorrect, margins: localMargins, atPoints: local.map(\.0)) }
            }
            progress?(done.add(range.count, ordering: .relaxed).newValue, total)
            return true
        }
        let scores = results.withLock { $0 }
        return (scores, subsets == nil ? nil : tallies.withLock { $0 })
    }
}
