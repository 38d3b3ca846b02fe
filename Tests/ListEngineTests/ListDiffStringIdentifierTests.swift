import Basics
import ListEngineTesting
import Testing

@testable import ListEngine

/// Identifiers behind a pointer (long strings) are matched by their 64-bit hash, and every
/// matched pair is then checked against the identifiers themselves. These tests hold that path
/// to the same answers as matching the identifiers, including when different identifiers share
/// a hash and when equal strings differ in their bytes.
@Suite struct ListDiffStringIdentifierTests {
    /// An item with a String identifier longer than 15 bytes (so stored behind a pointer).
    struct StringItem: ListDiffable, CustomStringConvertible {
        var id: String
        var version: Int
        var diffIdentifier: String { id }
        func isContentEqual(to other: StringItem) -> Bool { version == other.version }
        var description: String { version == 0 ? id : "\(id)v\(version)" }
    }

    /// A String identifier whose hash is its length alone, so most identifiers share one.
    struct CollidingIdentifier: Hashable, CustomStringConvertible {
        var text: String
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
        func hash(into hasher: inout Hasher) { hasher.combine(text.utf8.count) }
        var description: String { text }
    }

    /// An item whose identifiers mostly share a hash.
    struct CollidingItem: ListDiffable, CustomStringConvertible {
        var id: CollidingIdentifier
        var version: Int
        var diffIdentifier: CollidingIdentifier { id }
        func isContentEqual(to other: CollidingItem) -> Bool { version == other.version }
        var description: String { version == 0 ? id.text : "\(id.text)v\(version)" }
    }

    /// A 36-byte identifier for `id`, made fresh each call (separate storage, as decoded ones).
    static func text(_ id: Int) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, 36 - digits.count)) + digits
    }

    static func strings(_ items: [DiffTestItem]) -> [StringItem] {
        items.map { StringItem(id: text($0.id), version: $0.version) }
    }

    @Test(arguments: TestSeeds.all)
    func diffOfStringIdentifiers_matchesTheOneKeepingIdentifiers(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<300 {
            let (oldItems, newItems) = RandomListPair.make(
                maximumCount: index < 297 ? 60 : 10_000, duplicates: index % 3 == 0, using: &random)
            let old = Self.strings(oldItems)
            let new = Self.strings(newItems)
            let hashed = ListDiff.diffMatching(
                old: old, new: new, key: HeckelHashKey<StringItem>.self, indexType: Int32.self,
                keepsMatches: true)
            let identifiers = ListDiff.diffMatching(
                old: old, new: new, key: HeckelIdentifierKey<StringItem>.self, indexType: Int32.self,
                keepsMatches: true)
            #expect(
                hashed.result == identifiers.result, "seed \(seed), case \(index): old \(old), new \(new)")
            #expect(hashed.matches == identifiers.matches, "seed \(seed), case \(index)")
            let problems = ListDiffContract.violations(
                of: ListDiff.diff(old: old, new: new), old: old, new: new)
            #expect(problems.isEmpty, "seed \(seed), case \(index): \(problems.prefix(5))")
        }
    }

    @Test(arguments: TestSeeds.all)
    func diffWhenDifferentIdentifiersShareAHash_matchesTheIdentifiersThemselves(seed: UInt64) {
        // Given identifiers of 36 bytes whose hash is their length: all share one hash
        var random = SplitMix64(seed: seed)
        for index in 0..<100 {
            let (oldItems, newItems) = RandomListPair.make(
                maximumCount: 40, duplicates: index % 3 == 0, using: &random)
            let old = oldItems.map {
                CollidingItem(id: CollidingIdentifier(text: Self.text($0.id)), version: $0.version)
            }
            let new = newItems.map {
                CollidingItem(id: CollidingIdentifier(text: Self.text($0.id)), version: $0.version)
            }

            // When diffed (by hash first, as for any identifier behind a pointer)
            let result = ListDiff.diff(old: old, new: new)

            // Then the answer is the one matching the identifiers gives
            let identifiers = ListDiff.diffMatching(
                old: old, new: new, key: HeckelIdentifierKey<CollidingItem>.self, indexType: Int32.self,
                keepsMatches: false)
            let untrimmed = ListDiff.diffMatching(old: old, new: new, indexType: Int32.self).result
            #expect(untrimmed == identifiers.result, "seed \(seed), case \(index): old \(old), new \(new)")
            let problems = ListDiffContract.violations(of: result, old: old, new: new)
            #expect(problems.isEmpty, "seed \(seed), case \(index): \(problems.prefix(5))")
        }
    }

    @Test func diffWhenEqualStringsDifferInTheirBytes_matchesThem() {
        // Given "é" precomposed in old and as "e" plus a combining accent in new: equal Strings
        let padding = String(repeating: "x", count: 30)
        let old = ["a", "caf\u{E9}", "b", "c"].map { StringItem(id: padding + $0, version: 0) }
        let new = ["c", "cafe\u{301}", "d", "a"].map { StringItem(id: padding + $0, version: 0) }
        #expect(old[1].id == new[1].id)

        // When diffed
        let result = ListDiff.diff(old: old, new: new)

        // Then the café is kept (not deleted and inserted), b goes and d comes
        #expect(result.deletes == [2])
        #expect(result.inserts == [2])
        #expect(result.moves.count == 2)
        #expect(result.newIndex(for: padding + "cafe\u{301}") == 1)
        #expect(ListDiffContract.violations(of: result, old: old, new: new) == [])
    }
}
