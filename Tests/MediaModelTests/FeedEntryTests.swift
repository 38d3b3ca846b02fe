import MediaModel
import Testing

@Suite struct FeedEntryTests {
    @Test func sameMediaTwiceInOneList_hasDistinctEntryIdentities() {
        let entries = Fixtures.page.entries

        let shownMedia = entries.flatMap(\.mediaIDs)

        #expect(shownMedia == ["m1", "m1", "m5", "m2"])
        #expect(Set(entries.map(\.id)).count == entries.count)
    }

    @Test func replyEntry_listsItsParentFirst() {
        let entry = FeedEntry(id: "e2", media: Fixtures.reply, context: .reply(parent: Fixtures.textMedia))

        #expect(entry.mediaIDs == ["m1", "m5"])
    }
}
