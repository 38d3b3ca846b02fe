import ListEngine
import ListEngineTesting
import Synchronization
import Testing

/// A model with its own content version, like a cached feed entry.
private struct VersionedNote: ListDiffable, ListContentVersioned, Sendable {
    var id: Int
    var text: String
    var contentVersion: Int

    var diffIdentifier: Int { id }
    func isContentEqual(to other: VersionedNote) -> Bool { contentVersion == other.contentVersion }
}

private final class MeasureCount: Sendable {
    let count = Mutex(0)
}

private struct VersionedNoteLayout: ListSectionLayout {
    let measured: MeasureCount

    func rowCount(for note: VersionedNote) -> Int { 1 }
    func height(ofRow row: Int, for note: VersionedNote, width: Int) -> Int {
        measured.count.withLock { $0 += 1 }
        return 1 + note.text.count / max(width, 1)
    }
    func row(_ row: Int, for note: VersionedNote, width: Int) -> String { note.text }
}

@MainActor
private final class VersionedNoteController: ListSectionController {
    let layout: VersionedNoteLayout
    init(_ layout: VersionedNoteLayout) { self.layout = layout }
}

@MainActor
private final class VersionedNotes: ListAdapterDataSource {
    var notes: [VersionedNote] = []
    let measured = MeasureCount()

    func listItems() -> [AnyListItem] { notes.map(AnyListItem.init) }
    func sectionController(for item: AnyListItem) -> (any ListSectionController<String>)? {
        VersionedNoteController(VersionedNoteLayout(measured: measured))
    }
}

@Suite @MainActor struct ContentVersionTests {
    @Test func heightsStoredForAModelsOwnVersion_areUsedWithoutMeasuring() {
        // Given heights stored ahead (as an app does from its cache on disk)
        let source = VersionedNotes()
        source.notes = [
            VersionedNote(id: 1, text: "a", contentVersion: 7),
            VersionedNote(id: 2, text: "b", contentVersion: 3),
        ]
        let cache = ListLayoutCache()
        for note in source.notes {
            cache.store(
                [5],
                for: ListLayoutCache.Key(
                    identifier: AnyListItem(note).diffIdentifier, version: note.contentVersion, width: 40))
        }
        let view = RecordingListView<String>(width: 40)
        let adapter = ListAdapter(view: view, layoutCache: cache)
        adapter.dataSource = source

        // When the list first shows
        adapter.performUpdates()

        // Then the stored heights are used and nothing is measured
        #expect(view.renderedHeights() == [5, 5])
        #expect(source.measured.count.withLock { $0 } == 0)
    }

    @Test func aNewContentVersion_isMeasuredAgain() {
        let source = VersionedNotes()
        source.notes = [VersionedNote(id: 1, text: "a", contentVersion: 1)]
        let cache = ListLayoutCache()
        cache.store(
            [5],
            for: ListLayoutCache.Key(
                identifier: AnyListItem(source.notes[0]).diffIdentifier, version: 1, width: 40))
        let view = RecordingListView<String>(width: 40)
        let adapter = ListAdapter(view: view, layoutCache: cache)
        adapter.dataSource = source
        adapter.performUpdates()

        source.notes = [VersionedNote(id: 1, text: "a", contentVersion: 2)]
        adapter.performUpdates()

        #expect(view.renderedHeights() == [1])
        #expect(source.measured.count.withLock { $0 } == 1)
        #expect(AnyListItem(source.notes[0]).contentVersion == 2)
        #expect(AnyListItem(SamplePhoto(id: 1)).contentVersion == nil)
    }
}
