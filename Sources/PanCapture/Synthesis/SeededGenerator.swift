/// A seeded random number generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every platform, which is what makes `pantrace
/// synth --seed S` byte-identical run to run (Blackman & Vigna, "Scrambled linear
/// pseudorandom number generators", 2021; SplitMix64 from Steele, Lea & Flood, 2014).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    /// Creates a generator from a 64-bit seed.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform double in [0, 1) from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A uniform double in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }
}
