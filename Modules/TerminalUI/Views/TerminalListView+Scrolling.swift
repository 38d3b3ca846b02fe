extension TerminalListView {
    /// The flat rows intersecting the viewport.
    var visibleFlatRows: Range<Int> {
        let top = scrollOffset
        guard let first = index.row(containingLine: top),
            let last = index.row(containingLine: min(top + viewportHeight, index.totalLines) - 1)
        else { return 0..<0 }
        return first..<(last + 1)
    }

    /// The rows intersecting the viewport, top to bottom.
    public var visibleRows: [ListRowPath] {
        visibleFlatRows.compactMap { index.path(ofRow: $0) }
    }

    /// The sections with at least one line in the viewport (for the working range).
    public var visibleSections: Range<Int> {
        let rows = visibleFlatRows
        guard let first = index.path(ofRow: rows.lowerBound),
            let last = index.path(ofRow: rows.upperBound - 1)
        else { return 0..<0 }
        return first.section..<(last.section + 1)
    }

    /// Reports the selected row to `onActivate` (what Enter does); false with no selection.
    @discardableResult
    public func activateSelection() -> Bool {
        guard let selection else { return false }
        onActivate?(selection)
        return true
    }

    /// Selects `path` (nil: nothing) and scrolls to show it. A path outside the list or on an
    /// unselectable row moves to the nearest selectable row.
    public func select(_ path: ListRowPath?) {
        selection = path.flatMap(clampedSelectable)
        if let selection, let flat = index.flatIndex(of: selection) { scrollToShow(flat) }
    }

    /// Moves the selection to the next selectable row, scrolling as little as possible to
    /// show it. A selected row taller than what is visible of it scrolls through first (half
    /// a viewport at a time). With no selection, selects the first selectable row in view.
    /// Returns whether anything changed.
    @discardableResult
    public func selectNext() -> Bool {
        guard index.rowCount > 0 else { return false }
        guard let current = selection.flatMap({ index.flatIndex(of: $0) }) else {
            return selectFirstVisible()
        }
        let viewportBottom = scrollOffset + viewportHeight
        if index.top(ofRow: current) < viewportBottom, index.bottom(ofRow: current) > viewportBottom {
            scroll(by: min(index.bottom(ofRow: current) - viewportBottom, max(viewportHeight / 2, 1)))
            return true
        }
        guard current + 1 < index.rowCount, let next = nearestSelectable(from: current + 1, forward: true)
        else {
            return false
        }
        selection = index.path(ofRow: next)
        scrollToShow(next)
        return true
    }

    /// Moves the selection to the previous selectable row (see `selectNext`).
    @discardableResult
    public func selectPrevious() -> Bool {
        guard index.rowCount > 0 else { return false }
        guard let current = selection.flatMap({ index.flatIndex(of: $0) }) else {
            return selectFirstVisible()
        }
        let viewportTop = scrollOffset
        if index.bottom(ofRow: current) > viewportTop, index.top(ofRow: current) < viewportTop {
            scroll(by: -min(viewportTop - index.top(ofRow: current), max(viewportHeight / 2, 1)))
            return true
        }
        guard current > 0, let previous = nearestSelectable(from: current - 1, forward: false) else {
            return false
        }
        selection = index.path(ofRow: previous)
        scrollToShow(previous)
        return true
    }

    /// Scrolls down a viewport and moves the selection as far (to the row at the same place
    /// on screen, or the last row at the end), at least to the next row (a row taller than
    /// the viewport is paged past, not through), scrolling to show it. Returns whether
    /// anything changed.
    @discardableResult
    public func pageDown() -> Bool { page(by: viewportHeight) }

    /// Scrolls up a viewport and moves the selection as far (see `pageDown`).
    @discardableResult
    public func pageUp() -> Bool { page(by: -viewportHeight) }

    /// Scrolls by `lines` (negative: up), clamped to the content; the selection stays.
    public func scroll(by lines: Int) {
        setScrollOffset(scrollOffset + lines)
    }

    /// Scrolls so the content's line `offset` is at the top (clamped).
    public func setScrollOffset(_ offset: Int) {
        let maximum = max(contentHeight - viewportHeight, 0)
        let line = min(max(offset, 0), maximum)
        guard let flat = index.row(containingLine: line) else {
            anchor = nil
            anchorOffset = 0
            return
        }
        anchor = index.path(ofRow: flat)
        anchorOffset = line - index.top(ofRow: flat)
    }

    /// Keeps the scroll inside the content (after updates and resizes).
    func clampScroll() {
        guard index.rowCount > 0 else {
            anchor = nil
            anchorOffset = 0
            return
        }
        if let current = anchor, let flat = index.flatIndex(of: current) {
            anchorOffset = min(max(anchorOffset, 0), index.height(ofRow: flat) - 1)
        } else {
            anchor = index.path(ofRow: 0)
            anchorOffset = 0
        }
        let maximum = max(contentHeight - viewportHeight, 0)
        if scrollOffset > maximum { setScrollOffset(maximum) }
    }

    /// Whether a line of the selected row is on screen.
    var selectionIsVisible: Bool {
        guard let selection, let flat = index.flatIndex(of: selection) else { return false }
        return index.bottom(ofRow: flat) > scrollOffset
            && index.top(ofRow: flat) < scrollOffset + viewportHeight
    }

    /// Scrolls as little as possible to show the selected row (its top, when it is taller than
    /// the screen).
    func keepSelectionVisible() {
        guard let selection, let flat = index.flatIndex(of: selection), !selectionIsVisible else { return }
        scrollToShow(flat)
    }

    /// Scrolls as little as possible to show flat row `flat` (its top, when taller than the
    /// viewport); the last row brings the trailer with it.
    func scrollToShow(_ flat: Int) {
        let top = index.top(ofRow: flat)
        let bottom = index.bottom(ofRow: flat) + (flat == index.rowCount - 1 ? trailer.count : 0)
        let offset = scrollOffset
        if top < offset {
            setScrollOffset(top)
        } else if bottom > offset + viewportHeight {
            setScrollOffset(min(top, bottom - viewportHeight))
        }
    }

    private func selectFirstVisible() -> Bool {
        guard let first = index.row(containingLine: scrollOffset),
            let row = nearestSelectable(from: first, forward: true)
                ?? nearestSelectable(from: first, forward: false)
        else { return false }
        selection = index.path(ofRow: row)
        scrollToShow(row)
        return true
    }

    private func page(by lines: Int) -> Bool {
        guard index.rowCount > 0 else { return false }
        let before = (scrollOffset, selection)
        let current = selection.flatMap { index.flatIndex(of: $0) }
        scroll(by: lines)
        if let current, let target = index.row(containingLine: index.top(ofRow: current) + lines) {
            // A row taller than the page would keep the selection: move on at least one row.
            let forward = lines > 0
            let moved =
                target != current ? target : min(max(current + (forward ? 1 : -1), 0), index.rowCount - 1)
            let row =
                nearestSelectable(from: moved, forward: forward)
                ?? nearestSelectable(from: moved, forward: !forward)
            if let row {
                selection = index.path(ofRow: row)
                scrollToShow(row)
            }
        }
        return before.0 != scrollOffset || before.1 != selection
    }
}
