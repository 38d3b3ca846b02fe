import Basics
import ListEngine
import Synchronization
import TerminalUI
import TerminalUITesting
import Testing

/// A post: a header row (1 line) and a body row (its text wrapped to the width).
struct Post: ListDiffable, Sendable {
    var id: Int
    var text: String
    var diffIdentifier: Int { id }
    func isContentEqual(to other: Post) -> Bool { text == other.text }
}

/// A note: one row per line, each with its own identity (row-level changes).
struct Note: ListDiffable, Sendable {
    struct Line: ListDiffable, Sendable {
        var id: Int
        var text: String
        var diffIdentifier: Int { id }
        func isContentEqual(to other: Line) -> Bool { text == other.text }
    }
    var id: String
    var lines: [Line]
    var diffIdentifier: String { id }
    func isContentEqual(to other: Note) -> Bool {
        lines.map(\.id) == other.lines.map(\.id) && lines.map(\.text) == other.lines.map(\.text)
    }
}

/// A model nobody claims.
struct Poll: ListDiffable, Sendable, CustomStringConvertible {
    var id: Int
    var diffIdentifier: Int { id }
    func isContentEqual(to other: Poll) -> Bool { true }
    var description: String { "a poll" }
}

/// Counts rendered rows across layouts (they run on any task).
final class RenderCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

struct PostLayout: ListSectionLayout {
    let counter: RenderCounter
    func rowCount(for post: Post) -> Int { 2 }
    func height(ofRow row: Int, for post: Post, width: Int) -> Int {
        row == 0 ? 1 : TextLayout.wrap(post.text, width: width).count
    }
    func row(_ row: Int, for post: Post, width: Int) -> StyledRow {
        counter.increment()
        if row == 0 { return StyledRow(lines: [StyledLine("post \(post.id)", style: .plain.bold())]) }
        return StyledRow(lines: TextLayout.wrap(post.text, width: width).map { StyledLine($0) })
    }
}

struct NoteLayout: ListSectionLayout {
    let counter: RenderCounter
    func rowCount(for note: Note) -> Int { note.lines.count }
    func height(ofRow row: Int, for note: Note, width: Int) -> Int { 1 }
    func row(_ row: Int, for note: Note, width: Int) -> StyledRow {
        counter.increment()
        return StyledRow(lines: [StyledLine("\(note.id): \(note.lines[row].text)")])
    }
}

@MainActor
final class PostController: ListSectionController {
    let layout: PostLayout
    var selectedRows: [Int] = []
    var workingRangeEvents: [String] = []
    var post: Post?
    init(counter: RenderCounter) { layout = PostLayout(counter: counter) }
    func didUpdate(to model: Post) { post = model }
    func didSelect(row: Int) { selectedRows.append(row) }
    func didEnterWorkingRange() { workingRangeEvents.append("enter") }
    func didExitWorkingRange() { workingRangeEvents.append("exit") }
}

@MainActor
final class NoteController: ListSectionController {
    let layout: NoteLayout
    init(counter: RenderCounter) { layout = NoteLayout(counter: counter) }
    func rowChanges(from old: Note, to new: Note) -> ListDiffResult? {
        ListDiff.diff(old: old.lines, new: new.lines)
    }
}

@MainActor
final class Feed: ListAdapterDataSource {
    var items: [AnyListItem] = []
    let counter = RenderCounter()
    var postControllers: [Int: PostController] = [:]

    func listItems() -> [AnyListItem] { items }

    func sectionController(for item: AnyListItem) -> (any ListSectionController<StyledRow>)? {
        if let post = item.model(as: Post.self) {
            let controller = PostController(counter: counter)
            postControllers[post.id] = controller
            return controller
        }
        if item.model(as: Note.self) != nil { return NoteController(counter: counter) }
        return nil
    }
}

@MainActor
@Suite struct TerminalListViewAdapterTests {
    func posts(_ ids: Range<Int>) -> [AnyListItem] {
        ids.map { AnyListItem(Post(id: $0, text: "text of \($0)")) }
    }

    func draw(_ list: TerminalListView) -> (lines: [String], statistics: ListDrawStatistics) {
        var buffer = ScreenBuffer(width: list.viewportWidth, height: list.viewportHeight)
        let statistics = list.draw(into: &buffer, in: buffer.bounds)
        return (HeadlessRenderer.lines(of: buffer), statistics)
    }

    func makeList(_ feed: Feed, height: Int = 6) -> (TerminalListView, ListAdapter<TerminalListView>) {
        let list = TerminalListView(width: 21, height: height, selectionMarker: StyledSpan(">"))
        let adapter = ListAdapter(view: list, workingRangeSize: 1)
        adapter.dataSource = feed
        return (list, adapter)
    }

    @Test func adapter_showsTwoModelTypesThroughTheirControllers() {
        let feed = Feed()
        feed.items = [
            AnyListItem(Post(id: 1, text: "hello")),
            AnyListItem(Note(id: "n", lines: [.init(id: 0, text: "a"), .init(id: 1, text: "b")])),
        ]
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        #expect(list.rowCount == 4)
        #expect(list.width == 20)
        #expect(draw(list).lines == [" post 1", " hello", " n: a", " n: b", "", ""])
        #expect(adapter.diagnostics.isEmpty)
    }

    @Test func unclaimedItems_renderTheFallbackRow() {
        let feed = Feed()
        feed.items = posts(0..<1) + [AnyListItem(Poll(id: 7))]
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        let lines = draw(list).lines
        #expect(lines[2] == " Poll(7): a poll")
        #expect(adapter.diagnostics.count == 1)
    }

    @Test func insertsAboveTheViewport_keepTheScreenAndTheSelection() {
        let feed = Feed()
        feed.items = posts(0..<40)
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        list.select(ListRowPath(section: 10, row: 0))
        let before = draw(list)
        #expect(before.lines.contains(">post 10"))
        feed.items = posts(100..<150) + feed.items
        let plan = adapter.performUpdates()
        #expect(plan.sectionInserts == Array(0..<50))
        let after = draw(list)
        #expect(after.lines == before.lines)
        #expect(after.statistics.redrawnLineCount == 0)
        #expect(after.statistics.renderedRows == 0)
        #expect(list.selection == ListRowPath(section: 60, row: 0))
        #expect(adapter.diagnostics.isEmpty)
    }

    @Test func changedPost_rendersOnlyItsRowsAgain() {
        let feed = Feed()
        feed.items = posts(0..<5)
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        _ = draw(list)
        let rendered = feed.counter.value
        feed.items[1] = AnyListItem(Post(id: 1, text: "edited"))
        adapter.performUpdates()
        let after = draw(list)
        #expect(after.lines[3] == " edited")
        #expect(feed.counter.value - rendered == 2)
        #expect(after.statistics.redrawnLines == [3])
    }

    @Test func rowLevelChanges_renderOnlyTheChangedRows() {
        let feed = Feed()
        let note = Note(
            id: "n", lines: [.init(id: 0, text: "a"), .init(id: 1, text: "b"), .init(id: 2, text: "c")])
        feed.items = [AnyListItem(note)]
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        list.select(ListRowPath(section: 0, row: 2))
        _ = draw(list)
        let rendered = feed.counter.value
        feed.items = [
            AnyListItem(
                Note(
                    id: "n",
                    lines: [
                        .init(id: 9, text: "new"), .init(id: 0, text: "a"), .init(id: 1, text: "b"),
                        .init(id: 2, text: "c"),
                    ]))
        ]
        let plan = adapter.performUpdates()
        #expect(plan.sectionReloads.first?.rows != nil)
        #expect(list.selection == ListRowPath(section: 0, row: 3))
        let after = draw(list)
        #expect(after.lines.prefix(4) == [" n: new", " n: a", " n: b", ">n: c"])
        #expect(feed.counter.value - rendered == 1)
    }

    @Test func activation_reachesTheRowsController() {
        let feed = Feed()
        feed.items = posts(0..<3)
        let (list, adapter) = makeList(feed)
        adapter.performUpdates()
        list.select(ListRowPath(section: 2, row: 1))
        list.activateSelection()
        #expect(feed.postControllers[2]?.selectedRows == [1])
    }

    @Test func workingRange_followsWhatIsDrawn() {
        let feed = Feed()
        feed.items = posts(0..<30)
        let (list, adapter) = makeList(feed, height: 4)
        adapter.performUpdates()
        _ = draw(list)  // posts 0–1 visible: 0–2 in range
        #expect(feed.postControllers[2]?.workingRangeEvents == ["enter"])
        #expect(feed.postControllers[5]?.workingRangeEvents == [])
        list.setScrollOffset(20)  // posts 10–11 visible
        _ = draw(list)
        #expect(feed.postControllers[0]?.workingRangeEvents == ["enter", "exit"])
        #expect(feed.postControllers[12]?.workingRangeEvents == ["enter"])
    }

    @Test func resize_relayoutFromTheCacheKeepsTheAnchor() async {
        let feed = Feed()
        feed.items =
            [AnyListItem(Post(id: 0, text: "a b c d e f g h i j k l m n o p q r s t"))] + posts(1..<20)
        let (list, adapter) = makeList(feed, height: 4)
        await adapter.performUpdatesWithPreparedLayout()
        list.setScrollOffset(list.contentHeight / 2)
        let anchor = list.scrollAnchor?.row
        list.resize(width: 9, height: 4)
        await adapter.prepareLayout()
        list.relayout(from: adapter)
        #expect(list.scrollAnchor?.row == anchor)
        #expect(
            list.layout(of: ListRowPath(section: 0, row: 1))?.height
                == TextLayout.wrap("a b c d e f g h i j k l m n o p q r s t", width: 8).count)
        #expect(adapter.diagnostics.isEmpty)
    }

    @Test func randomFeedChanges_keepTheViewInStepWithTheAdapter() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let feed = Feed()
        var nextID = 0
        func newPost() -> AnyListItem {
            nextID += 1
            let words = Int.random(in: 1...8, using: &random)
            return AnyListItem(Post(id: nextID, text: String(repeating: "word ", count: words)))
        }
        feed.items = (0..<20).map { _ in newPost() }
        let (list, adapter) = makeList(feed, height: 8)
        adapter.performUpdates()
        list.select(ListRowPath(section: 3, row: 0))
        for step in 0..<100 {
            _ = draw(list)
            let selected = list.selection.flatMap { adapter.identifier(ofSection: $0.section) }
            var items = feed.items
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where items.count > 1:
                    items.remove(at: Int.random(in: 0..<items.count, using: &random))
                case 1: items.insert(newPost(), at: Int.random(in: 0...items.count, using: &random))
                case 2 where items.count > 1:
                    items.swapAt(
                        Int.random(in: 0..<items.count, using: &random),
                        Int.random(in: 0..<items.count, using: &random))
                default:
                    let index = Int.random(in: 0..<items.count, using: &random)
                    if let post = items[index].model(as: Post.self) {
                        items[index] = AnyListItem(Post(id: post.id, text: post.text + "more "))
                    }
                }
            }
            feed.items = items
            adapter.performUpdates()
            #expect(adapter.diagnostics.isEmpty, "seed \(seed), step \(step): \(adapter.diagnostics)")
            #expect(list.rowCount == adapter.totalRowCount, "seed \(seed), step \(step)")
            if let selected,
                let section = (0..<adapter.sectionCount).first(where: {
                    adapter.identifier(ofSection: $0) == selected
                })
            {
                #expect(list.selection?.section == section, "seed \(seed), step \(step)")
            }
            if Bool.random(using: &random) { list.selectNext() }
        }
    }
}
