internal import TransitionEngine

// The sweep's inner loops (the radix sort and the scoring walks), over raw buffers: the one
// place the sweep reads and writes memory without bounds checks.
extension ThresholdSweep {
    /// The order of `statistics` (finite) ascending, as positions: a least-significant-digit
    /// radix sort on the statistics' bits read as ordered integers, 11 bits a pass, passing
    /// over a digit every key shares. Equal statistics may come in any order; every tally
    /// treats them alike.
    static func sortedOrder(of statistics: [Double]) -> [Int32] {
        let count = statistics.count
        guard count > 256 else {
            return statistics.indices.sorted { statistics[$0] < statistics[$1] }.map { Int32($0) }
        }
        // Non-negative doubles order as their bits with the sign set; negative ones as the complement.
        var keys = statistics.map { statistic -> UInt64 in
            let bits = statistic.bitPattern
            return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
        }
        var positions = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = Int32(index) }
            initialized = count
        }
        var otherKeys = keys, otherPositions = positions
        var counts = [Int](repeating: 0, count: 2048)
        for shift in stride(from: UInt64(0), to: 64, by: 11) {
            let scattered = keys.withUnsafeBufferPointer { keys in
                positions.withUnsafeBufferPointer { positions in
                    otherKeys.withUnsafeMutableBufferPointer { otherKeys in
                        otherPositions.withUnsafeMutableBufferPointer { otherPositions in
                            counts.withUnsafeMutableBufferPointer { counts in
                                for digit in 0..<2048 { counts[digit] = 0 }
                                for key in keys { counts[Int((key >> shift) & 2047)] += 1 }
                                guard counts[Int((keys[0] >> shift) & 2047)] != count else { return false }
                                var total = 0
                                for digit in 0..<2048 {
                                    let here = counts[digit]
                                    counts[digit] = total
                                    total += here
                                }
                                for index in 0..<count {
                                    let digit = Int((keys[index] >> shift) & 2047)
                                    let target = counts[digit]
                                    counts[digit] = target + 1
                                    otherKeys[target] = keys[index]
                                    otherPositions[target] = positions[index]
                                }
                                return true
                            }
                        }
                    }
                }
            }
            if scattered {
                swap(&keys, &otherKeys)
                swap(&positions, &otherPositions)
            }
        }
        return positions
    }

    /// The smallest `|s − θ|` over sorted `values`, from the neighbours of index `below`
    /// (the count of values under θ): `s − θ` rounds monotonically in `s`.
    @inline(__always)
    private static func nearestMargin(_ values: [Double], below: Int, threshold: Double) -> Double {
        var margin = Double.infinity
        if below < values.count { margin = abs(values[below] - threshold) }
        if below > 0 { margin = min(margin, abs(values[below - 1] - threshold)) }
        return margin
    }

    /// Every threshold's score, and each subset's correct decisions and smallest margin.
    struct Evaluation {
        /// One per threshold, in the order given.
        var scores: [PointScore]
        /// Per threshold, `subsets` values: threshold `i`'s are at `i · subsets ..< (i + 1) · subsets`.
        var subsetCorrect: [Int32]
        var subsetMargins: [Double]
        var subsets: Int
    }

    /// Scores every threshold, and (with subsets) each subset's correct decisions and
    /// smallest margin.
    ///
    /// When every statistic, threshold and metric fits one integer scale (``FixedSum``), the
    /// running sums are 128-bit integers; otherwise they are superaccumulators. Both round
    /// the same exact sums once, so they give the same bits.
    func evaluate() -> Evaluation {
        if let buckets { return buckets.evaluate(self) }
        let order: [Int]
        if zip(thresholds, thresholds.dropFirst()).allSatisfy({ $0 <= $1 }) {
            order = Array(thresholds.indices)
        } else {
            order = thresholds.indices.sorted { thresholds[$0] < thresholds[$1] }
        }
        // `order` visits every index once, so every score is initialized.
        let scores = [PointScore](unsafeUninitializedCapacity: thresholds.count) { buffer, initialized in
            if let units = fixedUnits(thresholds: thresholds) {
                scoreFixed(thresholds: thresholds, order: order, units: units, into: buffer)
            } else {
                scoreExact(thresholds: thresholds, order: order, into: buffer)
            }
            initialized = thresholds.count
        }
        let subsetCount = subsetStatistics.count
        var correct = [Int32](repeating: 0, count: thresholds.count * subsetCount)
        var margins = [Double](repeating: .infinity, count: thresholds.count * subsetCount)
        for subset in 0..<subsetCount {
            tallySubset(subset, thresholds: thresholds, order: order, correct: &correct, margins: &margins)
        }
        return Evaluation(scores: scores, subsetCorrect: correct, subsetMargins: margins, subsets: subsetCount)
    }

    /// The integer scales of the margin, time and discontinuity sums, or nil when one does not fit.
    private func fixedUnits(thresholds: [Double]) -> (margin: Int, time: Int, jump: Int)? {
        func unit(_ arrays: [[Double]], _ sums: [ExactSum], count: Int) -> Int? {
            // Bounds from the exponent fields alone (a value of field e lies in units of
            // 2^(max(e, 1) − 1075), below 2^(e − 1022)); zeros count for nothing.
            var lowField = 0x7ff, highField = 0
            for array in arrays {
                array.withUnsafeBufferPointer { values in
                    for value in values {
                        let bits = value.bitPattern
                        let field = Int((bits >> 52) & 0x7ff)
                        let isZero = bits << 1 == 0
                        lowField = min(lowField, isZero ? 0x7ff : max(field, 1))
                        highField = max(highField, isZero ? 0 : field)
                    }
                }
            }
            guard highField < 0x7ff else { return nil }
            var low = lowField == 0x7ff ? Int.max : lowField - 1075
            var high = lowField == 0x7ff ? Int.min : max(highField, 1) - 1022
            for sum in sums {
                if let bits = sum.bitBounds {
                    low = min(low, bits.low)
                    high = max(high, bits.high)
                }
            }
            guard low <= high else { return 0 }
            guard let unit = FixedSum.unit(low: low, high: high, count: count) else { return nil }
            for sum in sums where sum.fixedPoint(unit: unit) == nil { return nil }
            return unit
        }
        let count = 2 * traceCount + 2
        guard let margin = unit([statistics, thresholds], [fixedMargins], count: count),
            let time = unit([cancelTimes, finishTimes], [fixedTimes], count: count),
            let jump = unit([cancelJumps, finishJumps], [fixedJumps], count: count)
        else { return nil }
        return (margin, time, jump)
    }

    /// The flip-prone count at each threshold, by walking the sorted noisy statistics.
    private struct FlipWalk {
        var plusFailing = 0, minusFailing = 0

        @inline(__always)
        mutating func count(_ sweep: ThresholdSweep, threshold: Double, isStrict: Bool) -> Int {
            guard sweep.usesVelocity else { return 0 }
            let plus = sweep.flipPlus, minus = sweep.flipMinus
            while plusFailing < plus.count && (plus[plusFailing] < threshold || (isStrict && plus[plusFailing] == threshold)) {
                plusFailing += 1
            }
            while minusFailing < minus.count && (minus[minusFailing] < threshold || (isStrict && minus[minusFailing] == threshold)) {
                minusFailing += 1
            }
            return sweep.flipConstant + (plus.count - plusFailing) - (minus.count - minusFailing)
        }
    }

    /// The scores with integer sums.
    private func scoreFixed(
        thresholds: [Double], order: [Int], units: (margin: Int, time: Int, jump: Int), into scores: UnsafeMutableBufferPointer<PointScore>
    ) {
        let compared = statistics.count
        let isStrict = comparison == .greaterThan
        let meantTotal = Int(meantBefore[compared])
        let fixedMarginSum = fixedMargins.fixedPoint(unit: units.margin)!
        let fixedTimeSum = fixedTimes.fixedPoint(unit: units.time)!
        let fixedJumpSum = fixedJumps.fixedPoint(unit: units.jump)!
        let count = Double(traceCount)
        let isEmpty = traceCount == 0
        let marginScale = FixedSum.scale(unit: units.margin)
        let timeScale = FixedSum.scale(unit: units.time)
        let jumpScale = FixedSum.scale(unit: units.jump)
        var flips = FlipWalk()
        statistics.withUnsafeBufferPointer { statistics in
            meantBefore.withUnsafeBufferPointer { meantBefore in
                var statisticSum: Int128 = 0, finishTimeSum: Int128 = 0, finishJumpSum: Int128 = 0
                for index in 0..<compared {
                    statisticSum += FixedSum.integer(statistics[index], unit: units.margin)
                    finishTimeSum += FixedSum.integer(finishTimes[index], unit: units.time)
                    finishJumpSum += FixedSum.integer(finishJumps[index], unit: units.jump)
                }
                var below = 0, failing = 0
                var belowSum: Int128 = 0
                var cancelTime: Int128 = 0, finishTimeBefore: Int128 = 0, cancelJump: Int128 = 0, finishJumpBefore: Int128 = 0
                for index in order {
                    let threshold = thresholds[index]
                    while below < compared && statistics[below] < threshold {
                        belowSum += FixedSum.integer(statistics[below], unit: units.margin)
                        below += 1
                    }
                    while failing < compared && (statistics[failing] < threshold || (isStrict && statistics[failing] == threshold)) {
                        cancelTime += FixedSum.integer(cancelTimes[failing], unit: units.time)
                        cancelJump += FixedSum.integer(cancelJumps[failing], unit: units.jump)
                        finishTimeBefore += FixedSum.integer(finishTimes[failing], unit: units.time)
                        finishJumpBefore += FixedSum.integer(finishJumps[failing], unit: units.jump)
                        failing += 1
                    }
                    let meantFailing = Int(meantBefore[failing])
                    let falseCancels = fixedFalseCancels + meantFailing
                    let falseFinishes = fixedFalseFinishes + (compared - failing) - (meantTotal - meantFailing)
                    let margins =
                        fixedMarginSum + statisticSum - 2 * belowSum
                        + FixedSum.integer(threshold, unit: units.margin) * Int128(below - (compared - below))
                    let times = fixedTimeSum + cancelTime + finishTimeSum - finishTimeBefore
                    let jumps = fixedJumpSum + cancelJump + finishJumpSum - finishJumpBefore
                    var nearest = Double.infinity
                    if below < compared { nearest = abs(statistics[below] - threshold) }
                    if below > 0 { nearest = min(nearest, abs(statistics[below - 1] - threshold)) }
                    (scores.baseAddress! + index).initialize(
                        to: PointScore(
                            traces: traceCount, correct: traceCount - falseCancels - falseFinishes, falseFinishes: falseFinishes,
                            falseCancels: falseCancels, flipProne: flips.count(self, threshold: threshold, isStrict: isStrict),
                            meanMargin: isEmpty ? 0 : FixedSum.rounded(margins, scale: marginScale) / count,
                            minimumMargin: isEmpty ? 0 : min(fixedMinimumMargin, nearest),
                            meanDiscontinuity: isEmpty ? 0 : FixedSum.rounded(jumps, scale: jumpScale) / count,
                            meanCompletionTime: isEmpty ? 0 : FixedSum.rounded(times, scale: timeScale) / count))
                }
            }
        }
    }

    /// One subset's correct decisions and smallest margin at every threshold, walking its
    /// sorted statistics along the sorted thresholds.
    private func tallySubset(_ subset: Int, thresholds: [Double], order: [Int], correct: inout [Int32], margins: inout [Double]) {
        let isStrict = comparison == .greaterThan
        let stride = subsetStatistics.count
        let fixedCorrect = subsetFixedCorrect[subset]
        let fixedMargin = subsetFixedMargin[subset]
        subsetStatistics[subset].withUnsafeBufferPointer { values in
            subsetMeantBefore[subset].withUnsafeBufferPointer { meant in
                let meantTotal = Int(meant[values.count])
                var below = 0, failing = 0
                for index in order {
                    let threshold = thresholds[index]
                    while below < values.count && values[below] < threshold { below += 1 }
                    failing = max(failing, below)
                    if isStrict {
                        while failing < values.count && values[failing] == threshold { failing += 1 }
                    }
                    let meantFailing = Int(meant[failing])
                    // Right: meant cancels among the failing, meant finishes among the passing.
                    correct[index * stride + subset] = Int32(fixedCorrect + (failing - meantFailing) + (meantTotal - meantFailing))
                    var nearest = fixedMargin
                    if below < values.count { nearest = min(nearest, abs(values[below] - threshold)) }
                    if below > 0 { nearest = min(nearest, abs(values[below - 1] - threshold)) }
                    margins[index * stride + subset] = nearest
                }
            }
        }
    }

    /// The scores with superaccumulators, for values no integer scale holds.
    private func scoreExact(thresholds: [Double], order: [Int], into scores: UnsafeMutableBufferPointer<PointScore>) {
        let compared = statistics.count
        let isStrict = comparison == .greaterThan
        let meantTotal = Int(meantBefore[compared])
        // `below`: statistics under θ (they add θ − s to the margins, the rest s − θ);
        // `failing`: statistics that do not pass θ (cancelled), the same unless `>` and ties.
        var below = 0, failing = 0
        var belowSum = ExactSum()
        // Metric sums over the failing prefix: cancel metrics there, finish metrics after.
        var cancelTime = ExactSum(), finishTimeBefore = ExactSum(), cancelJump = ExactSum(), finishJumpBefore = ExactSum()
        var flips = FlipWalk()
        let count = Double(traceCount)
        var statisticTotal = ExactSum(), finishTimeTotal = ExactSum(), finishJumpTotal = ExactSum()
        for index in 0..<compared {
            statisticTotal.add(statistics[index])
            finishTimeTotal.add(finishTimes[index])
            finishJumpTotal.add(finishJumps[index])
        }
        for index in order {
            let threshold = thresholds[index]
            while below < compared && statistics[below] < threshold {
                belowSum.add(statistics[below])
                below += 1
            }
            while failing < compared && (statistics[failing] < threshold || (isStrict && statistics[failing] == threshold)) {
                cancelTime.add(cancelTimes[failing])
                cancelJump.add(cancelJumps[failing])
                finishTimeBefore.add(finishTimes[failing])
                finishJumpBefore.add(finishJumps[failing])
                failing += 1
            }
            let meantFailing = Int(meantBefore[failing])
            let falseCancels = fixedFalseCancels + meantFailing
            let falseFinishes = fixedFalseFinishes + (compared - failing) - (meantTotal - meantFailing)
            var margins = fixedMargins
            margins.add(statisticTotal)
            margins.add(belowSum, times: -2)
            margins.add(threshold, times: below - (compared - below))
            var times = fixedTimes
            times.add(cancelTime)
            times.add(finishTimeTotal)
            times.add(finishTimeBefore, times: -1)
            var jumps = fixedJumps
            jumps.add(cancelJump)
            jumps.add(finishJumpTotal)
            jumps.add(finishJumpBefore, times: -1)
            let isEmpty = traceCount == 0
            (scores.baseAddress! + index).initialize(
                to: PointScore(
                    traces: traceCount, correct: traceCount - falseCancels - falseFinishes, falseFinishes: falseFinishes,
                    falseCancels: falseCancels, flipProne: flips.count(self, threshold: threshold, isStrict: isStrict),
                    meanMargin: isEmpty ? 0 : margins.rounded() / count,
                    minimumMargin: isEmpty ? 0 : min(fixedMinimumMargin, Self.nearestMargin(statistics, below: below, threshold: threshold)),
                    meanDiscontinuity: isEmpty ? 0 : jumps.rounded() / count,
                    meanCompletionTime: isEmpty ? 0 : times.rounded() / count))
        }
    }
}
