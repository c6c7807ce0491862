/// The compared traces of a threshold sweep, kept as running totals between consecutive
/// thresholds instead of one record per trace: memory grows with the thresholds, not the
/// traces.
///
/// The thresholds, sorted, cut the line into `m + 1` buckets. A statistic `s` is *below*
/// threshold `j` (it adds `θ − s` to the margins) from the bucket of the first threshold
/// above it on, and *fails* threshold `j` (the trace is cancelled) from the bucket of the
/// first threshold above it (`s ≥ θ` passes) or at or above it (`s > θ` passes) on. Each
/// bucket keeps how many traces start there, how many of those were meant to finish, the
/// exact sums of their statistics and completion metrics (``ExactSum``), and their smallest
/// and largest statistic; prefix totals over the buckets then give, at every threshold, the
/// values the sorted columns give from running sums, to the bit: the sums are exact and
/// rounded once, and the nearest statistics on each side of θ are the same numbers.
///
/// A bucket costs about 2.8 kB (five superaccumulators), so ``ThresholdSweep`` keeps buckets
/// only when they take less memory than sorted columns would (``ThresholdStorage``).
struct ThresholdBuckets {
    /// The thresholds ascending, and the position in the caller's order of each.
    let sorted: [Double]
    let order: [Int]
    let isStrict: Bool
    let subsetCount: Int
    /// Per bucket (`sorted.count + 1` of them).
    private var belowCount: [Int]
    private var belowSum: [ExactSum]
    private var smallest: [Double]
    private var largest: [Double]
    private var failCount: [Int]
    private var failMeant: [Int]
    private var cancelTime: [ExactSum], cancelJump: [ExactSum]
    private var finishTime: [ExactSum], finishJump: [ExactSum]
    /// Flip-prone statistics (``ThresholdSweep/Flip``) failing from each bucket on.
    private var flipPlus: [Int], flipMinus: [Int]
    /// Per subset and bucket (subset-major): traces failing from there on, meant finishes
    /// among them, and the smallest and largest statistic below from there on.
    private var subsetFail: [Int32], subsetMeant: [Int32]
    private var subsetSmallest: [Double], subsetLargest: [Double]

    /// The bytes one bucket takes with `subsets` subsets.
    static func bytesPerBucket(subsets: Int) -> Int {
        5 * MemoryLayout<ExactSum>.stride + 6 * 8 + subsets * 24
    }

    /// Empty buckets between `thresholds` (finite, in any order, repeats allowed).
    init(thresholds: [Double], isStrict: Bool, subsets: Int) {
        order = thresholds.indices.sorted { thresholds[$0] < thresholds[$1] || (thresholds[$0] == thresholds[$1] && $0 < $1) }
        sorted = order.map { thresholds[$0] }
        self.isStrict = isStrict
        subsetCount = subsets
        let count = sorted.count + 1
        belowCount = [Int](repeating: 0, count: count)
        belowSum = [ExactSum](repeating: ExactSum(), count: count)
        smallest = [Double](repeating: .infinity, count: count)
        largest = [Double](repeating: -.infinity, count: count)
        failCount = belowCount
        failMeant = belowCount
        cancelTime = belowSum
        cancelJump = belowSum
        finishTime = belowSum
        finishJump = belowSum
        flipPlus = belowCount
        flipMinus = belowCount
        subsetFail = [Int32](repeating: 0, count: subsets * count)
        subsetMeant = subsetFail
        subsetSmallest = [Double](repeating: .infinity, count: subsets * count)
        subsetLargest = [Double](repeating: -.infinity, count: subsets * count)
    }

    /// The number of thresholds at or below `value` (`inclusive`), or below it.
    @inline(__always)
    private func count(below value: Double, inclusive: Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) >> 1
            let isUnder = inclusive ? sorted[middle] <= value : sorted[middle] < value
            if isUnder { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The bucket from which `statistic` fails a threshold.
    @inline(__always)
    private func failBucket(_ statistic: Double, below: Int) -> Int {
        isStrict ? count(below: statistic, inclusive: false) : below
    }

    /// Adds a compared trace.
    mutating func add(
        statistic: Double, isMeant: Bool, cancel: (time: Double, discontinuity: Double), finish: (time: Double, discontinuity: Double),
        subsets: TraceSubsets?, trace: Int
    ) {
        let below = count(below: statistic, inclusive: true)
        let fail = failBucket(statistic, below: below)
        belowCount[below] += 1
        belowSum[below].add(statistic)
        smallest[below] = min(smallest[below], statistic)
        largest[below] = max(largest[below], statistic)
        failCount[fail] += 1
        if isMeant { failMeant[fail] += 1 }
        cancelTime[fail].add(cancel.time)
        cancelJump[fail].add(cancel.discontinuity)
        finishTime[fail].add(finish.time)
        finishJump[fail].add(finish.discontinuity)
        guard let subsets else { return }
        let stride = sorted.count + 1
        for subset in subsets.subsets(ofTrace: trace) {
            subsetFail[subset * stride + fail] += 1
            if isMeant { subsetMeant[subset * stride + fail] += 1 }
            subsetSmallest[subset * stride + below] = min(subsetSmallest[subset * stride + below], statistic)
            subsetLargest[subset * stride + below] = max(subsetLargest[subset * stride + below], statistic)
        }
    }

    /// Adds a statistic of the flip lists (``ThresholdSweep/Flip``): `plus` for one that
    /// flips while it passes, else one whose flip ends when it passes.
    mutating func addFlip(_ statistic: Double, plus: Bool) {
        let bucket = failBucket(statistic, below: count(below: statistic, inclusive: true))
        if plus { flipPlus[bucket] += 1 } else { flipMinus[bucket] += 1 }
    }

    /// Every threshold's score and subset tallies, in the caller's threshold order, with the
    /// fixed traces' part from `sweep`.
    func evaluate(_ sweep: ThresholdSweep) -> ThresholdSweep.Evaluation {
        let thresholdCount = sorted.count
        let stride = thresholdCount + 1
        let compared = failCount.reduce(0, +)
        let meantTotal = failMeant.reduce(0, +)
        var statisticTotal = ExactSum(), finishTimeTotal = ExactSum(), finishJumpTotal = ExactSum()
        for bucket in 0..<stride {
            statisticTotal.add(belowSum[bucket])
            finishTimeTotal.add(finishTime[bucket])
            finishJumpTotal.add(finishJump[bucket])
        }
        let plusTotal = flipPlus.reduce(0, +), minusTotal = flipMinus.reduce(0, +)
        // The smallest statistic at or above each threshold: a suffix minimum over the buckets.
        var above = [Double](repeating: .infinity, count: stride + 1)
        for bucket in (0..<stride).reversed() { above[bucket] = min(above[bucket + 1], smallest[bucket]) }

        let count = Double(sweep.traceCount)
        let isEmpty = sweep.traceCount == 0
        var scores = [PointScore](repeating: .empty, count: thresholdCount)
        var below = 0, failing = 0, meantFailing = 0, plusFailing = 0, minusFailing = 0
        var belowSum = ExactSum(), cancelTime = ExactSum(), cancelJump = ExactSum()
        var finishTimeBefore = ExactSum(), finishJumpBefore = ExactSum()
        var largestBelow = -Double.infinity
        for position in 0..<thresholdCount {
            let threshold = sorted[position]
            below += belowCount[position]
            belowSum.add(self.belowSum[position])
            largestBelow = max(largestBelow, largest[position])
            failing += failCount[position]
            meantFailing += failMeant[position]
            cancelTime.add(self.cancelTime[position])
            cancelJump.add(self.cancelJump[position])
            finishTimeBefore.add(finishTime[position])
            finishJumpBefore.add(finishJump[position])
            plusFailing += flipPlus[position]
            minusFailing += flipMinus[position]

            let falseCancels = sweep.fixedFalseCancels + meantFailing
            let falseFinishes = sweep.fixedFalseFinishes + (compared - failing) - (meantTotal - meantFailing)
            var margins = sweep.fixedMargins
            margins.add(statisticTotal)
            margins.add(belowSum, times: -2)
            margins.add(threshold, times: below - (compared - below))
            var times = sweep.fixedTimes
            times.add(cancelTime)
            times.add(finishTimeTotal)
            times.add(finishTimeBefore, times: -1)
            var jumps = sweep.fixedJumps
            jumps.add(cancelJump)
            jumps.add(finishJumpTotal)
            jumps.add(finishJumpBefore, times: -1)
            var nearest = Double.infinity
            if below < compared { nearest = abs(above[position + 1] - threshold) }
            if below > 0 { nearest = min(nearest, abs(largestBelow - threshold)) }
            let flipProne = sweep.usesVelocity ? sweep.flipConstant + (plusTotal - plusFailing) - (minusTotal - minusFailing) : 0
            scores[order[position]] = PointScore(
                traces: sweep.traceCount, correct: sweep.traceCount - falseCancels - falseFinishes, falseFinishes: falseFinishes,
                falseCancels: falseCancels, flipProne: flipProne, meanMargin: isEmpty ? 0 : margins.rounded() / count,
                minimumMargin: isEmpty ? 0 : min(sweep.fixedMinimumMargin, nearest),
                meanDiscontinuity: isEmpty ? 0 : jumps.rounded() / count, meanCompletionTime: isEmpty ? 0 : times.rounded() / count)
        }

        var correct = [Int32](repeating: 0, count: thresholdCount * subsetCount)
        var margins = [Double](repeating: .infinity, count: thresholdCount * subsetCount)
        for subset in 0..<subsetCount {
            let base = subset * stride
            var total = 0, meant = 0
            for bucket in 0..<stride {
                total += Int(subsetFail[base + bucket])
                meant += Int(subsetMeant[base + bucket])
            }
            var subsetAbove = [Double](repeating: .infinity, count: stride + 1)
            for bucket in (0..<stride).reversed() { subsetAbove[bucket] = min(subsetAbove[bucket + 1], subsetSmallest[base + bucket]) }
            var failing = 0, meantFailing = 0
            var largestBelow = -Double.infinity
            for position in 0..<thresholdCount {
                let threshold = sorted[position]
                failing += Int(subsetFail[base + position])
                meantFailing += Int(subsetMeant[base + position])
                largestBelow = max(largestBelow, subsetLargest[base + position])
                let index = order[position]
                // Right: meant cancels among the failing, meant finishes among the passing.
                correct[index * subsetCount + subset] = Int32(sweep.subsetFixedCorrect[subset] + (failing - meantFailing) + (meant - meantFailing))
                var nearest = sweep.subsetFixedMargin[subset]
                let next = subsetAbove[position + 1]
                if next < .infinity { nearest = min(nearest, abs(next - threshold)) }
                if largestBelow > -.infinity { nearest = min(nearest, abs(largestBelow - threshold)) }
                margins[index * subsetCount + subset] = nearest
            }
        }
        return ThresholdSweep.Evaluation(scores: scores, subsetCorrect: correct, subsetMargins: margins, subsets: subsetCount)
    }
}

/// How a threshold sweep (``ThresholdSweep``) keeps its compared traces.
package enum ThresholdStorage: Sendable {
    /// Whichever of the two takes less memory for the traces and thresholds at hand.
    case smaller
    /// One record per compared trace, sorted by statistic once all are added.
    case sortedColumns
    /// Running totals between consecutive thresholds (``ThresholdBuckets``).
    case buckets

    /// Buckets when they take less memory than the columns of `expected` compared traces
    /// (about 44 bytes each, and as much again while they are sorted).
    func usesBuckets(thresholds: Int, subsets: Int, expected: Int) -> Bool {
        switch self {
        case .smaller: (thresholds + 1) * ThresholdBuckets.bytesPerBucket(subsets: subsets) < expected * (68 + 12 * subsets)
        case .sortedColumns: false
        case .buckets: true
        }
    }
}
