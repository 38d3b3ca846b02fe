import Foundation

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
