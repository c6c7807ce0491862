extension QuantizedColumns {
    /// Appends the plain columns (phase, time, translation, velocity) of `samples`, each value
    /// `value × scale` on the grid (``ticks(_:_:)``); false if any is not finite or off the
    /// grid (the columns then hold placeholders, and the caller starts over one sample at a
    /// time to name it).
    ///
    /// Through pointers, in one pass: the columns are sized once and written without a bounds
    /// or uniqueness check per value, which were a sixth of encoding a short trace
    /// (BENCHMARKS.md).
    mutating func appendPlain(_ samples: ArraySlice<PanSample>, time t: Double, position p: Double, velocity v: Double) -> Bool {
        let start = count, n = samples.count
        phase.append(contentsOf: repeatElement(0, count: n))
        phase.withUnsafeMutableBufferPointer { codes in
            var i = start
            for sample in samples {
                codes[i] = sample.phase.rawValue
                i += 1
            }
        }
        time.append(contentsOf: repeatElement(0, count: n))
        tx.append(contentsOf: repeatElement(0, count: n))
        ty.append(contentsOf: repeatElement(0, count: n))
        vx.append(contentsOf: repeatElement(0, count: n))
        vy.append(contentsOf: repeatElement(0, count: n))
        var ok = true
        Self.withPointers(&time, &tx, &ty, &vx, &vy) { time, tx, ty, vx, vy in
            var i = start
            for sample in samples {
                time[i] = Self.ticks(sample.time * t, &ok)
                tx[i] = Self.ticks(sample.translation.x * p, &ok)
                ty[i] = Self.ticks(sample.translation.y * p, &ok)
                vx[i] = Self.ticks(sample.velocity.x * v, &ok)
                vy[i] = Self.ticks(sample.velocity.y * v, &ok)
                i += 1
            }
        }
        return ok
    }

    /// Calls `body` with a pointer to each of five columns at once.
    private static func withPointers(
        _ a: inout [Int64], _ b: inout [Int64], _ c: inout [Int64], _ d: inout [Int64], _ e: inout [Int64],
        _ body: (
            UnsafeMutableBufferPointer<Int64>, UnsafeMutableBufferPointer<Int64>, UnsafeMutableBufferPointer<Int64>,
            UnsafeMutableBufferPointer<Int64>, UnsafeMutableBufferPointer<Int64>
        ) -> Void
    ) {
        a.withUnsafeMutableBufferPointer { a in
            b.withUnsafeMutableBufferPointer { b in
                c.withUnsafeMutableBufferPointer { c in
                    d.withUnsafeMutableBufferPointer { d in
                        e.withUnsafeMutableBufferPointer { e in body(a, b, c, d, e) }
                    }
                }
            }
        }
    }
}
