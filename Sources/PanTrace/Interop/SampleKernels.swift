/// The decoder's last step through pointers: columns of ticks to samples
/// (`Codec/ChunkPayload.swift` has the format). Each column is checked against `count` before
/// the loop; no pointer leaves its closure.
extension ChunkPayload {
    /// Appends the samples of a chunk without optional columns: `count` values of each column
    /// of `s`, divided by their scales (the division, not a multiplication by the inverse, so
    /// that every value is exactly the one the writer rounded).
    static func appendPlain(
        count: Int, from s: DecodeScratch, scales: (time: Double, position: Double, velocity: Double), to samples: inout [PanSample]
    ) {
        precondition(
            s.phase.count >= count && s.time.count >= count && s.tx.count >= count && s.ty.count >= count && s.vx.count >= count
                && s.vy.count >= count, "columns sized before use")
        let start = samples.count
        // Grows geometrically, as append would: the exact size for every chunk would copy
        // every earlier sample again at each chunk.
        if samples.capacity < start + count { samples.reserveCapacity(max(start + count, 2 * samples.capacity)) }
        // The new elements start as copies of one sample (a trivial type: plain stores), then
        // each is overwritten in place.
        samples.append(contentsOf: repeatElement(PanSample(time: 0, phase: .began, translation: .zero, velocity: .zero), count: count))
        s.phase.withUnsafeBufferPointer { phase in
            s.time.withUnsafeBufferPointer { t in
                s.tx.withUnsafeBufferPointer { tx in
                    s.ty.withUnsafeBufferPointer { ty in
                        s.vx.withUnsafeBufferPointer { vx in
                            s.vy.withUnsafeBufferPointer { vy in
                                samples.withUnsafeMutableBufferPointer { all in
                                    let out = UnsafeMutableBufferPointer(rebasing: all[start...])
                                    for i in 0..<count {
                                        out[i].time = Double(t[i]) / scales.time
                                        out[i].phase = phase[i]
                                        out[i].translation = PanVector(x: Double(tx[i]) / scales.position, y: Double(ty[i]) / scales.position)
                                        out[i].velocity = PanVector(x: Double(vx[i]) / scales.velocity, y: Double(vy[i]) / scales.velocity)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
