import ListEngine
import ListEngineTesting
import Testing

@Suite @MainActor struct ListLayoutCacheTests {
    @Test func heightsAskedTwice_missThenHit() {
        let list = SampleListFixture([])
        list.show([photo(1, "a caption"), photo(2)])
        let before = list.adapter.layoutCache.statistics

        let first = list.view.renderedHeights()
        let second = list.view.renderedHeights()

        #expect(first == [3, 1, 3, 1])
        #expect(second == first)
        let after = list.adapter.layoutCache.statistics
        #expect(after.misses - before.misses == 2)
        #expect(after.hits - before.hits == 6)
    }

    @Test func preparedLayout_isMeasuredOffTheMainThreadAndOnlyHitsAfterwards() async {
        let list = SampleListFixture([])
        list.dataSource.items = [photo(1, "one"), photo(2, "two"), note("a", ["x"])]

        await list.adapter.performUpdatesWithPreparedLayout()
        let heights = list.view.renderedHeights()

        #expect(heights == [3, 1, 3, 1, 1])
        let statistics = list.adapter.layoutCache.statistics
        #expect(statistics.misses == 0)
        #expect(statistics.hits == 5)
        #expect(statistics.prepared == 3)
        #expect(list.dataSource.probe.onMainThread == 0)
        #expect(list.dataSource.probe.offMainThread == 4)
    }

    @Test func changedItem_isMeasuredAgainAndUnchangedOnesStayCached() {
        let list = SampleListFixture([])
        list.show([photo(1, "short"), photo(2, "short")])
        _ = list.view.renderedHeights()
        let before = list.adapter.layoutCache.statistics

        list.show([photo(1, "short"), photo(2, String(repeating: "long ", count: 20))])
        let heights = list.view.renderedHeights()

        #expect(heights == [3, 1, 3, 3])
        let after = list.adapter.layoutCache.statistics
        #expect(after.misses - before.misses == 1)
        #expect(after.hits - before.hits == 3)
    }

    @Test func newWidth_isANewKeyAndPrepareLayoutFillsIt() async {
        let list = SampleListFixture([])
        list.show([photo(1, String(repeating: "x", count: 60))])
        #expect(list.view.renderedHeights() == [3, 2])

        list.view.width = 20
        await list.adapter.prepareLayout()
        let before = list.adapter.layoutCache.statistics
        #expect(list.view.renderedHeights() == [3, 3])
        #expect(list.adapter.layoutCache.statistics.misses == before.misses)
    }

    @Test func removedItems_leaveTheCache() {
        let list = SampleListFixture([])
        list.show([photo(1), photo(2)])
        _ = list.view.renderedHeights()
        #expect(list.adapter.layoutCache.statistics.entries == 2)

        list.show([photo(2)])

        #expect(list.adapter.layoutCache.statistics.entries == 1)
    }

    /// Versions name content; they are not ordered (a model's own are hashes, as posts' are): the
    /// heights stored last are the item's, whichever number is larger. When a smaller number was
    /// refused, a post that gained a line kept the heights of before under the old version, and
    /// those were what the app stored for its next launch: the post came back cut by a line.
    @Test func storingAnotherVersion_replacesTheOneHeld_whicheverNumberIsLarger() {
        let cache = ListLayoutCache(widthsPerItem: 2)
        let identifier = photo(1).diffIdentifier
        cache.store([1], for: .init(identifier: identifier, version: 1, width: 10))
        cache.store([2], for: .init(identifier: identifier, version: 2, width: 10))
        #expect(cache.heights(for: .init(identifier: identifier, version: 2, width: 10)) == [2])

        cache.store([9], for: .init(identifier: identifier, version: -7, width: 10))

        #expect(cache.heights(for: .init(identifier: identifier, version: -7, width: 10)) == [9])
        #expect(cache.heights(for: .init(identifier: identifier, version: 2, width: 10)) == nil)
        #expect(cache.version(of: identifier, width: 10) == -7)
        #expect(cache.statistics.entries == 1)
    }

    @Test func versionOfAnItem_isTheLatestStoredAtThatWidth_andCountsNoLookUp() {
        // Given heights of one item stored for version 1, then version 2, at width 10
        let cache = ListLayoutCache(widthsPerItem: 2)
        let identifier = photo(1).diffIdentifier
        cache.store([1], for: .init(identifier: identifier, version: 1, width: 10))
        cache.store([2], for: .init(identifier: identifier, version: 2, width: 10))

        // Then the cache holds version 2 there, none at another width or for another item
        #expect(cache.version(of: identifier, width: 10) == 2)
        #expect(cache.version(of: identifier, width: 20) == nil)
        #expect(cache.version(of: photo(2).diffIdentifier, width: 10) == nil)
        // And asking is no look-up of heights
        #expect(cache.statistics.hits == 0)
        #expect(cache.statistics.misses == 0)
    }

    @Test func widthsBeyondTheLimit_evictTheOldest() {
        let cache = ListLayoutCache(widthsPerItem: 2)
        let identifier = photo(1).diffIdentifier
        for width in [10, 20, 30] {
            cache.store([width], for: .init(identifier: identifier, version: 0, width: width))
        }

        #expect(cache.heights(for: .init(identifier: identifier, version: 0, width: 10)) == nil)
        #expect(cache.heights(for: .init(identifier: identifier, version: 0, width: 30)) == [30])
        #expect(cache.statistics.entries == 2)
        cache.removeAll()
        #expect(cache.statistics.entries == 0)
    }
}
