import Foundation

/// A small deterministic random number generator (SplitMix64) for replayable random tests.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeds random tests run with: a few fixed ones, plus one from `LIST_ENGINE_SEED` when
/// set (to replay a failure) or else a fresh one each run (to keep exploring).
///
/// Every random test prints the seed in its failure message; run it again with
/// `LIST_ENGINE_SEED=<seed> swift test --filter <test>` to replay the case.
public enum TestSeeds {
    /// The seeds to run.
    public static let all: [UInt64] = [1, 0x5EED, 0xDEAD_BEEF] + [explored]

    /// The seed from the environment, or a fresh random one.
    public static let explored: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["LIST_ENGINE_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 0...UInt64.max)
    }()
}
