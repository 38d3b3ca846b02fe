/// SplitMix64: small, fast and seedable, so seed data is the same for the same seed number.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (empty ranges give the lower bound).
    mutating func int(_ range: Range<Int>) -> Int {
        guard range.count > 1 else { return range.lowerBound }
        return range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool { Double(next() >> 11) * 0x1.0p-53 < chance }

    /// An element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}

/// FNV-1a, 64 bits: a stable fingerprint of request bytes (not a security hash).
enum FNV1a {
    static func hash(_ parts: [some Sequence<UInt8>]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part {
                hash ^= UInt64(byte)
                hash &*= 0x0100_0000_01b3
            }
            hash ^= 0xFF
            hash &*= 0x0100_0000_01b3
        }
        return hash
    }
}
