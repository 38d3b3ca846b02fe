import Basics
import Testing

@Suite struct SplitMix64Tests {
    @Test func theSequence_isTheReferenceOne() {
        // The reference implementation's first outputs for seed 0 (Vigna's splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func aSeed_replaysTheSameDraws_andAnotherSeedDoesNot() {
        var first = SplitMix64(seed: 42)
        var again = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        let drawn = (0..<8).map { _ in first.next() }
        #expect((0..<8).map { _ in again.next() } == drawn)
        #expect((0..<8).map { _ in other.next() } != drawn)
    }

    @Test func unit_staysInTheHalfOpenInterval_andSpreadsOverIt() {
        var random = SplitMix64(seed: 7)
        let draws = (0..<10_000).map { _ in random.unit() }
        #expect(draws.allSatisfy { $0 >= 0 && $0 < 1 })
        // Each tenth of the interval gets close to its share.
        let buckets = Dictionary(grouping: draws) { Int($0 * 10) }.mapValues(\.count)
        #expect(buckets.keys.sorted() == Array(0..<10))
        #expect(buckets.values.allSatisfy { (850...1150).contains($0) })
    }
}
