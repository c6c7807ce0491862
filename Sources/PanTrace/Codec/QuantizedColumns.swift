/// The samples of one chunk as integer columns on the grid, ready to encode.
///
/// Quantization happens once, when a sample is appended, so invalid values are rejected at
/// the call that supplied them rather than later when the chunk is flushed.
struct QuantizedColumns {
    var phase: [UInt8] = []
    var time: [Int64] = []
    var tx: [Int64] = []
    var ty: [Int64] = []
    var vx: [Int64] = []
    var vy: [Int64] = []
    /// Per sample: bit 0, a location follows; bit 1, a touch count follows.
    var mask: [UInt8] = []
    var lx: [Int64] = []
    var ly: [Int64] = []
    var touches: [Int64] = []

    var count: Int { time.count }
    var isEmpty: Bool { time.isEmpty }
    var hasOptionalColumns: Bool { mask.contains { $0 != 0 } }

    mutating func removeAll() {
        phase.removeAll(keepingCapacity: true)
        time.removeAll(keepingCapacity: true)
        tx.removeAll(keepingCapacity: true)
        ty.removeAll(keepingCapacity: true)
        vx.removeAll(keepingCapacity: true)
        vy.removeAll(keepingCapacity: true)
        mask.removeAll(keepingCapacity: true)
        lx.removeAll(keepingCapacity: true)
        ly.removeAll(keepingCapacity: true)
        touches.removeAll(keepingCapacity: true)
    }

    /// Replaces the columns with `samples` (whose first is sample `firstIndex` of the trace):
    /// the same result as appending them one by one, and the same error for the first invalid
    /// value, but each column is sized once and filled through a pointer.
    mutating func fill(_ samples: ArraySlice<PanSample>, grid: SampleGrid, firstIndex: Int) throws(PanTraceError) {
        removeAll()
        if samples.allSatisfy({ $0.location == nil && $0.touches == nil }) {
            let t = grid.timeTicksPerSecond, p = Double(grid.positionTicksPerPoint), v = Double(grid.velocityTicksPerPointPerSecond)
            mask.append(contentsOf: repeatElement(0, count: samples.count))
            let ok = appendPlain(samples, time: t, position: p, velocity: v)  // Interop/QuantizerKernels.swift
            if ok { return }
            removeAll()
        }
        // Optional columns, or an invalid value to name: the one-by-one path.
        for (offset, sample) in samples.enumerated() { try append(sample, grid: grid, sample: firstIndex + offset) }
    }

    /// `scaled.rounded()` (half away from zero) as ticks; clears `ok` for a value off the grid.
    @inline(__always)
    static func ticks(_ scaled: Double, _ ok: inout Bool) -> Int64 {
        // NaN fails the comparisons too; checked before any conversion, which would trap.
        guard abs(scaled) < 0x1p51 else { return largeTicks(scaled, &ok) }
        // Adding 1.5 × 2⁵² rounds to an integer (ties to even) and leaves it in the low bits of
        // the sum's bit pattern: no conversion, no branch on the fraction (a coin toss for
        // noisy data). Both subtractions are exact.
        let shifted = scaled + 0x1.8p52
        var ticks = Int64(bitPattern: shifted.bitPattern) &- Int64(bitPattern: (0x1.8p52 as Double).bitPattern)
        // A tie went to even; rounded() takes it away from zero, so undo one that went toward it.
        let tie = scaled - (shifted - 0x1.8p52)
        if tie == 0.5, scaled > 0 { ticks &+= 1 } else if tie == -0.5, scaled < 0 { ticks &-= 1 }
        return ticks
    }

    /// ``ticks(_:_:)`` from 2⁵¹ on: truncate, then round on the fraction (exact below 2⁵³).
    private static func largeTicks(_ scaled: Double, _ ok: inout Bool) -> Int64 {
        guard abs(scaled) < SampleGrid.tickLimit else {
            ok = false
            return 0
        }
        var ticks = Int64(scaled)
        let fraction = scaled - Double(ticks)
        ticks &+= Int64(fraction + fraction)
        if abs(ticks) >= Int64(SampleGrid.tickLimit) { ok = false }
        return ticks
    }

    /// Appends `sample` on `grid`; throws naming the field and the sample's `index` if a value
    /// is not finite or out of range.
    mutating func append(_ sample: PanSample, grid: SampleGrid, sample index: Int) throws(PanTraceError) {
        do {
            try append(sample, grid: grid)
        } catch {
            var located = error
            located.sample = index
            throw located
        }
    }

    private mutating func append(_ sample: PanSample, grid: SampleGrid) throws(PanTraceError) {
        func q(_ value: Double, _ scale: Double, _ field: String) throws(PanTraceError) -> Int64 {
            guard value.isFinite else {
                throw PanTraceError(.invalidSample("\(field) is \(value); only finite numbers can be recorded"))
            }
            var ok = true
            let ticks = Self.ticks(value * scale, &ok)
            guard ok else { throw PanTraceError(.invalidSample("\(field) \(value) is outside the grid's range")) }
            return ticks
        }
        let p = Double(grid.positionTicksPerPoint), v = Double(grid.velocityTicksPerPointPerSecond)
        let t = try q(sample.time, grid.timeTicksPerSecond, "time")
        let x = try q(sample.translation.x, p, "translation.x"), y = try q(sample.translation.y, p, "translation.y")
        let vX = try q(sample.velocity.x, v, "velocity.x"), vY = try q(sample.velocity.y, v, "velocity.y")
        var bits: UInt8 = 0
        var loc: (Int64, Int64)?
        if let location = sample.location {
            loc = (try q(location.x, p, "location.x"), try q(location.y, p, "location.y"))
            bits |= 1
        }
        if let touches = sample.touches {
            guard (0...1000).contains(touches) else {
                throw PanTraceError(.invalidSample("touches \(touches) is outside 0…1000"))
            }
            bits |= 2
        }
        phase.append(sample.phase.rawValue)
        time.append(t)
        tx.append(x)
        ty.append(y)
        vx.append(vX)
        vy.append(vY)
        mask.append(bits)
        if let (a, b) = loc {
            lx.append(a)
            ly.append(b)
        }
        if let touches = sample.touches { self.touches.append(Int64(touches)) }
    }
}
