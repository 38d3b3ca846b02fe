import Basics
import MediaModel
import Testing

/// A list surface as a screen keeps it: its entries, whose facts it reads from the store.
private struct Surface {
    let entries: [FeedEntry]

    /// The ids of `changed` this surface shows (the rows a re-merge would redraw).
    func shown(of changed: Set<MediaID>) -> Set<MediaID> {
        changed.intersection(entries.flatMap(\.mediaIDs))
    }

    /// The like counts the surface would show, in row order.
    func likeCounts(in store: MediaStore) -> [Int] {
        entries.flatMap(\.mediaIDs).map { store.facts(for: $0)?.likeCount ?? 0 }
    }
}

@Suite struct MediaStoreTests {
    @Test func changeToAMedia_showsOnEverySurfaceThatShowsIt() {
        // Given a feed that shows m1 twice (as a post and as a reply's parent) and a thread showing m1
        let store = MediaStore()
        store.apply(Fixtures.pageFacts)
        let feed = Surface(entries: Fixtures.page.entries)
        let thread = Surface(entries: [
            FeedEntry(id: "t1", media: Fixtures.textMedia, seenReplyCount: 1),
            FeedEntry(id: "t2", media: Fixtures.reply, context: .reply(parent: Fixtures.textMedia)),
        ])

        // When the viewer's like of m1 comes back from the server
        let changed = store.apply([
            "m1": MediaFacts(likeCount: 4, viewerLiked: true, replyCount: 1, revision: 5)
        ])

        // Then both surfaces have m1 to redraw and read the same new count from the store
        #expect(changed == ["m1"])
        #expect(feed.shown(of: changed) == ["m1"])
        #expect(thread.shown(of: changed) == ["m1"])
        #expect(feed.likeCounts(in: store) == [4, 4, 0, 10])
        #expect(thread.likeCounts(in: store) == [4, 4, 0])
    }

    @Test func surfaceReplyCount_neverOverwritesTheSharedCount() throws {
        // Given a page whose entry saw 0 replies, while the server's shared count is 5
        let entry = FeedEntry(id: "e1", media: Fixtures.textMedia, seenReplyCount: 0)
        let envelope = FeedPageEnvelope(
            FeedPage(entries: [entry]), facts: ["m1": MediaFacts(likeCount: 1, replyCount: 5, revision: 1)])
        let decoded = try WireFormat.decode(FeedPage.self, from: WireFormat.encode(envelope))

        // When the page is ingested
        let store = MediaStore()
        store.apply(decoded.facts)

        // Then the store keeps the shared count and the entry keeps what its surface saw
        #expect(store.facts(for: "m1")?.replyCount == 5)
        #expect(decoded.payload.entries.first?.seenReplyCount == 0)
    }

    @Test func olderRevision_isIgnoredAndEqualFactsChangeNothing() {
        let store = MediaStore()
        store.apply(["m1": MediaFacts(likeCount: 7, replyCount: 0, revision: 9)])

        let stale = store.apply(["m1": MediaFacts(likeCount: 2, replyCount: 0, revision: 3)])
        let same = store.apply(["m1": MediaFacts(likeCount: 7, replyCount: 0, revision: 9)])

        #expect(stale.isEmpty)
        #expect(same.isEmpty)
        #expect(store.facts(for: "m1")?.likeCount == 7)
    }

    @Test func editedCaption_isASharedFact() {
        let store = MediaStore()

        store.apply(["m2": MediaFacts(likeCount: 0, replyCount: 0, caption: "Sunset, edited", revision: 1)])

        #expect(store.facts(for: "m2")?.caption == "Sunset, edited")
    }

    @Test func applyAndRemove_sayWhichIDsChanged() {
        let store = MediaStore()

        let first = store.apply(["m1": MediaFacts(likeCount: 1, replyCount: 0)])
        let second = store.apply([
            "m2": MediaFacts(likeCount: 1, replyCount: 0), "m3": MediaFacts(likeCount: 2, replyCount: 0),
        ])
        let removed = store.remove(["m1", "m404"])

        #expect(first == ["m1"])
        #expect(second == ["m2", "m3"])
        #expect(removed == ["m1"])
        #expect(store.facts(for: "m1") == nil)
        #expect(store.count == 2)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func concurrentApplies_keepTheNewestRevision(seed: UInt64) async {
        // Given revisions 1...200 applied from 8 tasks in a shuffled order
        var generator = SplitMix64(seed: seed)
        let revisions = Array(Int64(1)...200).shuffled(using: &generator)
        let store = MediaStore()

        await withTaskGroup(of: Void.self) { group in
            for chunk in 0..<8 {
                let mine = revisions.enumerated().filter { $0.offset % 8 == chunk }.map(\.element)
                group.addTask {
                    for revision in mine {
                        store.apply([
                            "m1": MediaFacts(likeCount: Int(revision), replyCount: 0, revision: revision)
                        ])
                    }
                }
            }
        }

        // Then the store holds the newest one, whatever the interleaving
        #expect(store.facts(for: "m1")?.revision == 200, "seed \(seed)")
        #expect(store.facts(for: "m1")?.likeCount == 200, "seed \(seed)")
    }
}
