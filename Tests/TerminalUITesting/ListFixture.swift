import TerminalUI

/// A list model for list view tests: items with identities and row heights, a renderer that
/// names every line after its item (so content follows identity across updates), and a count
/// of render calls.
@MainActor
public final class ListFixture {
    /// One item: its identity and its rows' heights.
    public struct Item: Hashable, Sendable {
        /// The identity shown in every line.
        public var id: String
        /// Each row's height.
        public var rowHeights: [Int]
        /// Bumped to change the item's content.
        public var version: Int

        /// Makes an item.
        public init(_ id: String, rowHeights: [Int] = [1], version: Int = 0) {
            self.id = id
            self.rowHeights = rowHeights
            self.version = version
        }
    }

    /// The items, in list order.
    public var items: [Item]
    /// How many times the renderer ran.
    public private(set) var renderCount = 0

    /// Makes a fixture of `items`.
    public init(_ items: [Item]) {
        self.items = items
    }

    /// Items `prefix0` … with `rowHeights` each.
    public convenience init(count: Int, prefix: String = "item", rowHeights: [Int] = [1]) {
        self.init((0..<count).map { Item("\(prefix)\($0)", rowHeights: rowHeights) })
    }

    /// The layouts of the current items.
    public var layouts: [[ListRowLayout]] {
        items.map { $0.rowHeights.map { ListRowLayout(height: $0) } }
    }

    /// The text of line `line` of row `row` of `item`.
    public static func text(_ item: Item, row: Int, line: Int) -> String {
        "\(item.id) r\(row) l\(line)" + (item.version > 0 ? " v\(item.version)" : "")
    }

    /// A renderer reading the current items.
    public var renderer: @MainActor (ListRowPath, Int) -> [StyledLine] {
        { [self] path, _ in
            renderCount += 1
            let item = items[path.section]
            return (0..<item.rowHeights[path.row]).map {
                StyledLine(Self.text(item, row: path.row, line: $0))
            }
        }
    }

    /// A list view of `width` × `height` (no selection marker) wired to this fixture and
    /// loaded with its items.
    public func makeListView(width: Int = 30, height: Int = 6) -> TerminalListView {
        let list = TerminalListView(width: width, height: height, selectionMarker: nil)
        list.rowRenderer = renderer
        list.reloadData(layouts: layouts)
        return list
    }

    /// Draws `list` alone into a buffer of its size and returns the buffer's plain text lines
    /// and the draw statistics.
    public func draw(_ list: TerminalListView) -> (lines: [String], statistics: ListDrawStatistics) {
        var buffer = ScreenBuffer(width: list.viewportWidth, height: list.viewportHeight)
        let statistics = list.draw(into: &buffer, in: buffer.bounds)
        return (HeadlessRenderer.lines(of: buffer), statistics)
    }
}

extension ListFixture {
    /// Replaces the items with `newItems` and returns the batch update that turns the old
    /// list into the new one: deletes, inserts, moves (items outside one longest run that
    /// kept its order) and reloads (items whose version or row count changed). Identities
    /// must be unique. O(n²), for tests.
    public func update(to newItems: [Item]) -> ListViewUpdate {
        let oldItems = items
        let oldIndex = Dictionary(uniqueKeysWithValues: oldItems.enumerated().map { ($1.id, $0) })
        let newIndex = Dictionary(uniqueKeysWithValues: newItems.enumerated().map { ($1.id, $0) })
        let deletes = oldItems.indices.filter { newIndex[oldItems[$0].id] == nil }
        let inserts = newItems.indices.filter { oldIndex[newItems[$0].id] == nil }
        // Common items in new order, by old index; keep a longest increasing run in place.
        let common = newItems.indices.compactMap { new in
            oldIndex[newItems[new].id].map { (old: $0, new: new) }
        }
        var lengths = [Int](repeating: 1, count: common.count)
        var previous = [Int?](repeating: nil, count: common.count)
        for i in common.indices {
            for j in 0..<i where common[j].old < common[i].old && lengths[j] + 1 > lengths[i] {
                lengths[i] = lengths[j] + 1
                previous[i] = j
            }
        }
        var kept = Set<Int>()
        var cursor = lengths.indices.max { lengths[$0] < lengths[$1] }
        while let index = cursor {
            kept.insert(index)
            cursor = previous[index]
        }
        let moves = common.indices.filter { !kept.contains($0) }.map {
            ListViewUpdate.Move(from: common[$0].old, to: common[$0].new)
        }
        let reloads = common.filter { oldItems[$0.old] != newItems[$0.new] }.map(\.old)
        items = newItems
        return ListViewUpdate(
            deletedSections: deletes, insertedSections: inserts, movedSections: moves,
            reloadedSections: reloads)
    }
}
