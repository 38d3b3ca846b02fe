/// SplitMix64: a small, fast random number generator whose whole state is one 64-bit word, so a
/// seed gives the same sequence in every process, on every machine and in every release. Seed
/// data, fault draws, backoff jitter, generated pictures and randomized tests all draw from it,
/// so a seed printed by a failing run replays that run exactly. Not for secrets.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &random)
/// let lost = random.unit() < 0.2
/// ```
///
/// Complexity: O(1) per draw.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// A generator starting from `seed` (any value, 0 included).
    @inlinable public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1), from the next value's top 53 bits.
    @inlinable public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}
