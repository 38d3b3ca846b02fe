import ListEngine
import ListEngineTesting
import Testing

// The example of ListEngine's docs (Modules/ListEngine/ListEngine.docc/AdapterAndSectionControllers.md),
// compiled and checked: a list of two model types with their section controllers. Keep the two in
// step.

struct Post: ListDiffable, Sendable {
    let id: Int
    var text: String
    var diffIdentifier: Int { id }
    func isContentEqual(to other: Post) -> Bool { text == other.text }
}

struct Photo: ListDiffable, Sendable {
    let id: Int
    var caption: String
    var diffIdentifier: Int { id }
    func isContentEqual(to other: Photo) -> Bool { caption == other.caption }
}

/// A post is one row: its text, wrapped to the width.
struct PostLayout: ListSectionLayout {
    func rowCount(for post: Post) -> Int { 1 }
    func height(ofRow row: Int, for post: Post, width: Int) -> Int {
        max(1, (post.text.count + width - 1) / max(1, width))
    }
    func row(_ row: Int, for post: Post, width: Int) -> String { post.text }
}

final class PostController: ListSectionController {
    let layout = PostLayout()
    private(set) var opened = false
    func didSelect(row: Int) { opened = true }
}

/// A photo is two rows: the picture (8 lines of half-block art), then the caption.
struct PhotoLayout: ListSectionLayout {
    func rowCount(for photo: Photo) -> Int { 2 }
    func height(ofRow row: Int, for photo: Photo, width: Int) -> Int { row == 0 ? 8 : 1 }
    func row(_ row: Int, for photo: Photo, width: Int) -> String {
        row == 0 ? "[photo \(photo.id)]" : photo.caption
    }
}

final class PhotoController: ListSectionController {
    let layout = PhotoLayout()
    private(set) var prefetching = false
    func didEnterWorkingRange() { prefetching = true }  // start loading the image
    func didExitWorkingRange() { prefetching = false }
}

final class Feed: ListAdapterDataSource {
    var posts: [Post] = []
    var photos: [Photo] = []

    func listItems() -> [AnyListItem] {
        posts.map(AnyListItem.init) + photos.map(AnyListItem.init)
    }

    func sectionController(for item: AnyListItem) -> (any ListSectionController<String>)? {
        switch item.base {
        case is Post: PostController()
        case is Photo: PhotoController()
        default: nil  // shown as a one-line fallback row, with a diagnostic
        }
    }
}

@Suite @MainActor struct ReadmeExampleTests {
    @Test func readmeExample_showsBothTypesAndUpdatesWithOnePlan() async {
        let listView = RecordingListView<String>(width: 40)
        let adapter = ListAdapter(view: listView, workingRangeSize: 2)
        let feed = Feed()
        adapter.dataSource = feed

        feed.posts = [Post(id: 1, text: "hello")]
        feed.photos = [Photo(id: 7, caption: "sunset")]
        await adapter.performUpdatesWithPreparedLayout()  // heights measured off the main actor

        feed.posts[0].text = "hello, world"
        let plan = adapter.performUpdates()  // one plan: section 0 reloaded

        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 0, to: 0)])
        #expect(listView.renderedRows() == ["hello, world", "[photo 7]", "sunset"])
        #expect(listView.renderedHeights() == [1, 8, 1])
        listView.show(sections: 0..<1)
        #expect((adapter.sectionController(at: 1) as? PhotoController)?.prefetching == true)
        listView.select(ListIndexPath(section: 0, row: 0))
        #expect((adapter.sectionController(at: 0) as? PostController)?.opened == true)
        #expect(adapter.diagnostics.isEmpty)
    }
}
