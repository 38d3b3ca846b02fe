/// A scrolling list of rows on the UI actor: the terminal's table view.
///
/// A list has sections (one per item) of rows; a row is several lines tall. Heights come
/// from outside (`ListRowLayout`, computed by the layout cache off the UI actor); the list
/// view only asks `rowRenderer` for the lines of rows it is about to show, and keeps them
/// until the row is reloaded or the width changes.
///
/// It applies batch updates (`apply(_:layouts:)`), keeping the selected row and the scroll
/// anchor (the row at the top of the viewport, and how far into it) on the same content when
/// rows are inserted or deleted above them; moves the selection (`selectNext`,
/// `selectPrevious`, `pageDown`, `pageUp`), scrolling just enough to keep it visible; reports
/// which sections are visible (for the adapter's working range); and counts, at each
/// `draw`, the lines whose content changed.
///
/// ```swift
/// let list = TerminalListView(width: 80, height: 20)
/// list.rowRenderer = { path, width in controllers[path.section].lines(row: path.row, width: width) }
/// list.reloadData(layouts: heights)            // [[ListRowLayout]], one array per section
/// list.select(ListRowPath(section: 0, row: 0))
/// let stats = list.draw(into: &screen.buffer, in: bodyRect)
/// ```
@MainActor
public final class TerminalListView {
    /// Draws one row: its lines at `width` columns (the list's `contentWidth`). Called only
    /// for rows about to be shown whose lines are not cached. Lines beyond the row's height
    /// are cut; missing lines are blank.
    public var rowRenderer: (@MainActor (ListRowPath, Int) -> [StyledLine])?

    /// Called when the selection moves (by `select`, `selectNext`, paging, or an update that
    /// removed the selected row), with the new selection.
    public var onSelectionChange: (@MainActor (ListRowPath?) -> Void)?

    /// Called by `activateSelection()` (the app maps Enter to it) with the selected row.
    public var onActivate: (@MainActor (ListRowPath) -> Void)?

    /// Called after a draw when the visible sections changed (for the adapter's working range).
    public var onVisibleSectionsChange: (@MainActor (Range<Int>) -> Void)?

    /// Laid over the selected row's cells: its colors fill only cells that have none (photo
    /// art keeps its colors), its attributes add to theirs; its background also fills the
    /// row's empty columns.
    public var selectionStyle = Style(background: RGBColor(red: 38, green: 44, blue: 58))

    /// Drawn at the left of every line of the selected row, in a gutter as wide as the marker
    /// that every row gets (nil: no gutter). Without color (`ColorMode.none`) the selection
    /// shows only through the marker and the style's attributes, so keep one there.
    public var selectionMarker: StyledSpan? {
        didSet { if selectionMarker?.displayWidth != oldValue?.displayWidth { widthDidChange() } }
    }

    /// Columns the view spans.
    public private(set) var viewportWidth: Int
    /// Lines the view shows.
    public private(set) var viewportHeight: Int

    /// The sections' rows: layout and cached lines.
    var sections: [SectionState] = []
    /// Flattened positions of the rows (rebuilt after structural changes).
    var index = ListLayoutIndex()
    /// The selected row.
    public internal(set) var selection: ListRowPath? {
        didSet { if selection != oldValue { onSelectionChange?(selection) } }
    }
    /// The visible sections last reported to `onVisibleSectionsChange`.
    var reportedVisibleSections: Range<Int>?
    /// The row at the top of the viewport (nil: the list is empty).
    var anchor: ListRowPath?
    /// How many lines of the anchor row are above the viewport.
    var anchorOffset = 0
    /// What the last draw showed, to count changed lines.
    var lastFrame: [ComposedLine] = []
    /// The rect of the last draw.
    var lastRect: Rect?

    /// One section's rows.
    struct SectionState {
        var rows: [RowState]
    }

    /// One row: its layout and, once drawn, its lines at the current content width.
    struct RowState {
        var layout: ListRowLayout
        var lines: [StyledLine]?
    }

    /// Makes an empty list view of `width` × `height` cells.
    public init(width: Int, height: Int, selectionMarker: StyledSpan? = StyledSpan("▌")) {
        self.viewportWidth = max(width, 1)
        self.viewportHeight = max(height, 1)
        self.selectionMarker = selectionMarker
    }

    /// The width rows are laid out and rendered at: the view's width minus the marker gutter.
    /// Heights given to the list must be for this width.
    public var contentWidth: Int { max(viewportWidth - gutterWidth, 1) }

    /// Columns of the selection-marker gutter.
    var gutterWidth: Int { selectionMarker?.displayWidth ?? 0 }

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The number of rows in all sections.
    public var totalRowCount: Int { index.rowCount }

    /// The number of rows in `section` (0 outside the list).
    public func numberOfRows(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].rows.count : 0
    }

    /// Lines drawn after the last row and scrolled with the rows (an end-of-list note, say);
    /// empty: none. They are not selectable; showing the last row shows them too.
    public var trailer: [StyledLine] = [] {
        didSet { clampScroll() }
    }

    /// All rows' lines, then the trailer's (when there are rows): the scrollable height.
    public var contentHeight: Int { index.totalLines + (index.rowCount > 0 ? trailer.count : 0) }

    /// The line of the content at the top of the viewport.
    public var scrollOffset: Int {
        guard let anchor, let flat = index.flatIndex(of: anchor) else { return 0 }
        return index.top(ofRow: flat) + anchorOffset
    }

    /// The row at the top of the viewport, and how many of its lines are scrolled past.
    public var scrollAnchor: (row: ListRowPath, hiddenLines: Int)? {
        anchor.map { ($0, anchorOffset) }
    }

    /// Sets the view's size. A new width drops every row's rendered lines (they render again
    /// at the new `contentWidth` when shown); heights stay until `updateLayouts` brings the
    /// ones for the new width. A selection that was on screen stays on screen.
    public func resize(width newWidth: Int, height newHeight: Int) {
        let newWidth = max(newWidth, 1)
        let newHeight = max(newHeight, 1)
        guard newWidth != viewportWidth || newHeight != viewportHeight else { return }
        let selectionShown = selectionIsVisible
        let widthChanged = newWidth != viewportWidth
        viewportWidth = newWidth
        viewportHeight = newHeight
        if widthChanged { widthDidChange() }
        clampScroll()
        if selectionShown { keepSelectionVisible() }
    }

    /// Replaces all rows, keeping the selection and anchor paths where they still exist
    /// (clamped into the new list). Every row renders again.
    public func reloadData(layouts: [[ListRowLayout]]) {
        sections = layouts.map { SectionState(rows: $0.map { RowState(layout: $0, lines: nil) }) }
        rebuildIndex()
        selection = selection.flatMap(clampedSelectable)
        anchor = anchor.flatMap(clamped)
        if anchor == nil { anchorOffset = 0 }
        clampScroll()
    }

    /// Takes new heights for the same rows (after a relayout: a resize, or the layout cache
    /// replacing estimates). Rows whose height changed render again; the anchor stays on its
    /// row, unless that would take a selection that was on screen off it. A different shape
    /// than the current rows reloads instead.
    public func updateLayouts(_ layouts: [[ListRowLayout]]) {
        guard layouts.count == sections.count,
            zip(layouts, sections).allSatisfy({ $0.count == $1.rows.count })
        else {
            reloadData(layouts: layouts)
            return
        }
        let selectionShown = selectionIsVisible
        defer { if selectionShown { keepSelectionVisible() } }
        for (section, rows) in layouts.enumerated() {
            for (row, layout) in rows.enumerated() where sections[section].rows[row].layout != layout {
                sections[section].rows[row] = RowState(layout: layout, lines: nil)
            }
        }
        rebuildIndex()
        selection = selection.flatMap(clampedSelectable)
        clampScroll()
    }

    /// Marks rows as changed: they render again at the next draw. Out-of-range paths are
    /// ignored.
    public func reloadRows(_ paths: [ListRowPath]) {
        for path in paths where sections.indices.contains(path.section) {
            if sections[path.section].rows.indices.contains(path.row) {
                sections[path.section].rows[path.row].lines = nil
            }
        }
    }

    /// The layout of the row at `path`, nil outside the list.
    public func layout(of path: ListRowPath) -> ListRowLayout? {
        guard sections.indices.contains(path.section), sections[path.section].rows.indices.contains(path.row)
        else { return nil }
        return sections[path.section].rows[path.row].layout
    }

    func widthDidChange() {
        for section in sections.indices {
            for row in sections[section].rows.indices { sections[section].rows[row].lines = nil }
        }
        lastRect = nil
    }

    func rebuildIndex() {
        index = ListLayoutIndex(sections: sections.map { $0.rows.map { max($0.layout.height, 1) } })
    }

    /// `path` moved into the list: the same row if it exists, else the nearest one.
    func clamped(_ path: ListRowPath) -> ListRowPath? {
        guard index.rowCount > 0 else { return nil }
        if sections.indices.contains(path.section), !sections[path.section].rows.isEmpty {
            return ListRowPath(
                section: path.section, row: min(max(path.row, 0), sections[path.section].rows.count - 1))
        }
        // Past the end or an empty section: the next row after it, else the last row.
        let startSection = min(max(path.section, 0), sections.count)
        for section in startSection..<sections.count where !sections[section].rows.isEmpty {
            return ListRowPath(section: section, row: 0)
        }
        return index.path(ofRow: index.rowCount - 1)
    }

    /// `path` clamped, then moved to the nearest selectable row (after it, else before).
    func clampedSelectable(_ path: ListRowPath) -> ListRowPath? {
        guard let clamped = clamped(path), let flat = index.flatIndex(of: clamped) else { return nil }
        if let next = nearestSelectable(from: flat, forward: true)
            ?? nearestSelectable(from: flat, forward: false)
        {
            return index.path(ofRow: next)
        }
        return nil
    }

    /// The first selectable flat row from `flat` (included) going forward or backward.
    func nearestSelectable(from flat: Int, forward: Bool) -> Int? {
        var row = flat
        while row >= 0 && row < index.rowCount {
            if let path = index.path(ofRow: row), sections[path.section].rows[path.row].layout.isSelectable {
                return row
            }
            row += forward ? 1 : -1
        }
        return nil
    }
}
