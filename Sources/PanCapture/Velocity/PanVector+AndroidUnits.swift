internal import PanTrace

extension PanVector {
    /// Android's `VelocityTracker::getComputedVelocity(units, maxVelocity)` applied to this
    /// velocity: each component scaled to `units` (1000 = per second, 1 = per millisecond)
    /// and clamped to `±maxVelocity`, in `float`.
    ///
    /// Source: AOSP `libs/input/VelocityTracker.cpp` (blob `613a0df0`):
    /// `std::clamp(*velocity * units / 1000, -maxVelocity, maxVelocity)`, where `units` is an
    /// `int32_t` promoted to `float`. This is what `VelocityTracker.computeCurrentVelocity`
    /// gives Android apps, and the per-axis clamp gate D10 refers to.
    func androidComputed(units: Int32, maxVelocity: Float) -> PanVector {
        func scale(_ component: Double) -> Double {
            let scaled = Float(component) * Float(units) / 1000
            // `std::clamp(v, lo, hi)`: `lo` if `v < lo`, `hi` if `hi < v`, else `v`.
            if scaled < -maxVelocity {
                return Double(-maxVelocity)
            }
            if maxVelocity < scaled {
                return Double(maxVelocity)
            }
            return Double(scaled)
        }
        return PanVector(x: scale(x), y: scale(y))
    }
}
