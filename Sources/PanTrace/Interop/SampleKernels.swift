/// The decoder's last step through pointers: columns of ticks to samples
/// (`Codec/ChunkPayload.swift` has the format). Each column is checked against `count` before
/// the loop; no pointer leaves its closure.
extension ChunkPayload {
    /// Appends the samples of a chunk without optional columns: `count` values of each column
    /// of `s`, divided by their scales (the division, not a multiplication by the inverse, so
    /// that every value is exactly the one the writer rounded).
    ///
    /// The times are checked on the way, in loops of their own: returns whether every
    /// new time is valid and none goes back (from the sample before the chunk on), so that
    /// ``TraceReader``'s own check, which names the failing sample, is needed only when not.
    static func appendPlain(
        count: Int, from s: DecodeScratch, scales: (time: Double, position: Double, velocity: Double), to samples: inout [PanSample]
    ) -> Bool {
        precondition(
            s.phase.count >= count && s.time.count >= count && s.tx.count >= count && s.ty.count >= count && s.vx.count >= count
                && s.vy.count >= count, "columns sized before use")
        let start = samples.count
        // Checked on the ticks: a division by a positive scale keeps their order, and ticks
        // within half the time limit's ticks give times well within it. When this quick check
        // fails (a time out of order, or merely a large one) the reader checks the times
        // themselves and names the sample.
        var ordered = count == 0
        s.time.withUnsafeBufferPointer { t in
            guard count > 0 else { return }
            let bound = UInt64(ValueLimits.timeMagnitude / 2 * scales.time)
            var largest: UInt64 = 0
            var steps: Int64 = 0  // negative when some step goes back (no overflow below `bound`)
            for i in 0..<count { largest = max(largest, t[i].magnitude) }
            for i in 1..<count { steps |= t[i] &- t[i - 1] }
            let previous = start > 0 ? samples[start - 1].time : -Double.infinity
            ordered = largest <= bound && steps >= 0 && Double(t[0]) / scales.time >= previous
        }
        // Writes the chunk's samples into `out`, uninitialized or not: `PanSample` is a trivial
        // type, so initializing over a sample already there leaves nothing behind.
        @inline(__always) func write(_ out: UnsafeMutableBufferPointer<PanSample>) {
            s.phase.withUnsafeBufferPointer { phase in
                s.time.withUnsafeBufferPointer { t in
                    s.tx.withUnsafeBufferPointer { tx in
                        s.ty.withUnsafeBufferPointer { ty in
                            s.vx.withUnsafeBufferPointer { vx in
                                s.vy.withUnsafeBufferPointer { vy in
                                    for i in 0..<count {
                                        (out.baseAddress! + i).initialize(
                                            to: PanSample(
                                                time: Double(t[i]) / scales.time, phase: phase[i],
                                                translation: PanVector(x: Double(tx[i]) / scales.position, y: Double(ty[i]) / scales.position),
                                                velocity: PanVector(x: Double(vx[i]) / scales.velocity, y: Double(vy[i]) / scales.velocity)))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard start > 0 || samples.capacity >= count else {
            // A trace's first chunk (a short trace's only one) in an array too small for it (a
            // corpus hands each gesture's array over): a new array of its size, each sample
            // written once.
            samples = [PanSample](unsafeUninitializedCapacity: count) { buffer, initialized in
                write(buffer)
                initialized = count
            }
            return ordered
        }
        // Grows geometrically, as append would: the exact size for every chunk would copy
        // every earlier sample again at each chunk.
        if samples.capacity < start + count { samples.reserveCapacity(max(start + count, 2 * samples.capacity)) }
        // Otherwise the new elements start as copies of one sample (a trivial type: plain
        // stores), then each is overwritten in place.
        samples.append(contentsOf: repeatElement(PanSample(time: 0, phase: .began, translation: .zero, velocity: .zero), count: count))
        samples.withUnsafeMutableBufferPointer { all in write(UnsafeMutableBufferPointer(rebasing: all[start...])) }
        return ordered
    }

    /// Whether some value of `column[0..<count]` may reach `bound` (a power of two, 2 or
    /// more) in magnitude: false only when none does. Each value is offset by half the bound
    /// and or-ed in: every value within ±bound/2 stays below the bound, and every value whose
    /// magnitude reaches it sets a bit at or above it (two instructions a value, and no branch,
    /// where `contains(where:)` on a slice took four).
    static func mayExceed(_ column: [Int64], count: Int, bound: UInt64) -> Bool {
        precondition(count <= column.count && bound >= 2 && bound.nonzeroBitCount == 1, "a power of two, and a sized column")
        return column.withUnsafeBufferPointer { v in
            let half = Int64(bitPattern: bound / 2)
            var bits: UInt64 = 0
            for i in 0..<count { bits |= UInt64(bitPattern: v[i] &+ half) }
            return bits >= bound
        }
    }
}
