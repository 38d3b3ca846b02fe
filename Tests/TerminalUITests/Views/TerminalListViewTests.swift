import Basics
import TerminalUI
import TerminalUITesting
import Testing

@MainActor
@Suite struct TerminalListViewTests {
    typealias Item = ListFixture.Item

    @Test func firstDraw_rendersOnlyVisibleRows() {
        let fixture = ListFixture(count: 100, rowHeights: [2])
        let list = fixture.makeListView(height: 5)
        let (lines, statistics) = fixture.draw(list)
        #expect(lines == ["item0 r0 l0", "item0 r0 l1", "item1 r0 l0", "item1 r0 l1", "item2 r0 l0"])
        #expect(statistics.renderedRows == 3)
        #expect(statistics.redrawnLineCount == 5)
        #expect(fixture.renderCount == 3)
        #expect(list.visibleSections == 0..<3)
        #expect(list.contentHeight == 200)
    }

    @Test func drawingAgainWithoutChanges_redrawsAndRendersNothing() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 4)
        _ = fixture.draw(list)
        let (_, statistics) = fixture.draw(list)
        #expect(statistics.redrawnLineCount == 0)
        #expect(statistics.renderedRows == 0)
    }

    @Test func selectNext_movesDownAndScrollsOnlyWhenNeeded() {
        let fixture = ListFixture(count: 10, rowHeights: [2])
        let list = fixture.makeListView(height: 5)
        list.select(ListRowPath(section: 0, row: 0))
        _ = fixture.draw(list)
        list.selectNext()
        #expect(list.selection == ListRowPath(section: 1, row: 0))
        #expect(list.scrollOffset == 0)
        list.selectNext()  // item2 spans lines 4–5: scroll one line to show it whole
        #expect(list.selection == ListRowPath(section: 2, row: 0))
        #expect(list.scrollOffset == 1)
        let (lines, statistics) = fixture.draw(list)
        #expect(lines.first == "item0 r0 l1")
        #expect(statistics.redrawnLineCount == 5)
        list.selectPrevious()
        list.selectPrevious()
        list.selectPrevious()
        #expect(list.selection == ListRowPath(section: 0, row: 0))
        #expect(list.scrollOffset == 0)
        #expect(!list.selectPrevious())
    }

    @Test func selectionChange_redrawsOnlyTheTwoRowsLines() {
        let fixture = ListFixture(count: 10, rowHeights: [2])
        let list = fixture.makeListView(height: 8)
        list.select(ListRowPath(section: 1, row: 0))
        _ = fixture.draw(list)
        list.selectNext()
        let (_, statistics) = fixture.draw(list)
        #expect(statistics.redrawnLines == [2, 3, 4, 5])
        #expect(statistics.renderedRows == 0)
    }

    @Test func insertsAboveTheViewport_keepTheScreenAndTheSelection() {
        let fixture = ListFixture(count: 30, rowHeights: [2])
        let list = fixture.makeListView(height: 6)
        list.select(ListRowPath(section: 12, row: 0))
        list.setScrollOffset(20)  // item10 at the top
        let (before, _) = fixture.draw(list)
        let newItems = (0..<50).map { Item("new\($0)", rowHeights: [3]) } + fixture.items
        let update = fixture.update(to: newItems)
        #expect(list.apply(update, layouts: fixture.layouts) == nil)
        let (after, statistics) = fixture.draw(list)
        #expect(after == before)
        #expect(statistics.redrawnLineCount == 0)
        #expect(statistics.renderedRows == 0)
        #expect(list.selection == ListRowPath(section: 62, row: 0))
        #expect(list.scrollOffset == 150 + 20)
    }

    @Test func insertsInsideTheViewport_redrawOnlyTheLinesThatChanged() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 6)
        _ = fixture.draw(list)
        var items = fixture.items
        items.insert(Item("fresh"), at: 4)
        list.apply(fixture.update(to: items), layouts: fixture.layouts)
        let (lines, statistics) = fixture.draw(list)
        #expect(
            lines == [
                "item0 r0 l0", "item1 r0 l0", "item2 r0 l0", "item3 r0 l0", "fresh r0 l0", "item4 r0 l0",
            ])
        #expect(statistics.redrawnLines == [4, 5])
        #expect(statistics.renderedRows == 1)
    }

    @Test func deletingTheSelectedRow_selectsTheNextSurvivor() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 4)
        list.select(ListRowPath(section: 3, row: 0))
        var items = fixture.items
        items.removeSubrange(3...4)
        list.apply(fixture.update(to: items), layouts: fixture.layouts)
        #expect(list.selection == ListRowPath(section: 3, row: 0))
        #expect(fixture.items[3].id == "item5")
    }

    @Test func deletingTheLastRows_whileSelected_selectsThePreviousSurvivor() {
        let fixture = ListFixture(count: 5)
        let list = fixture.makeListView(height: 4)
        list.select(ListRowPath(section: 4, row: 0))
        list.apply(fixture.update(to: Array(fixture.items.prefix(2))), layouts: fixture.layouts)
        #expect(list.selection == ListRowPath(section: 1, row: 0))
    }

    @Test func deletesAboveTheViewport_keepTheScreen() {
        let fixture = ListFixture(count: 20)
        let list = fixture.makeListView(height: 4)
        list.setScrollOffset(10)
        let (before, _) = fixture.draw(list)
        list.apply(fixture.update(to: Array(fixture.items.dropFirst(5))), layouts: fixture.layouts)
        let (after, statistics) = fixture.draw(list)
        #expect(after == before)
        #expect(statistics.redrawnLineCount == 0)
        #expect(list.scrollOffset == 5)
    }

    @Test func deletingTheAnchorRow_letsItsSuccessorTakeTheTop() {
        let fixture = ListFixture(count: 20, rowHeights: [3])
        let list = fixture.makeListView(height: 4)
        list.setScrollOffset(31)  // item10, one line scrolled past
        var items = fixture.items
        items.remove(at: 10)
        list.apply(fixture.update(to: items), layouts: fixture.layouts)
        let (lines, _) = fixture.draw(list)
        #expect(lines.first == "item11 r0 l0")
        #expect(list.scrollOffset == 30)
    }

    @Test func moves_carryTheSelectionAndTheRenderedLines() {
        let fixture = ListFixture(count: 6)
        let list = fixture.makeListView(height: 6)
        list.select(ListRowPath(section: 1, row: 0))
        _ = fixture.draw(list)
        var items = fixture.items
        items.swapAt(1, 4)
        let update = fixture.update(to: items)
        #expect(!update.movedSections.isEmpty)
        list.apply(update, layouts: fixture.layouts)
        #expect(list.selection == ListRowPath(section: 4, row: 0))
        let (lines, statistics) = fixture.draw(list)
        #expect(
            lines == [
                "item0 r0 l0", "item4 r0 l0", "item2 r0 l0", "item3 r0 l0", "item1 r0 l0", "item5 r0 l0",
            ])
        #expect(statistics.renderedRows == 0)
        #expect(statistics.redrawnLines == [1, 4])
    }

    @Test func reloads_renderTheSectionAgainAndRedrawItsLines() {
        let fixture = ListFixture(count: 6, rowHeights: [2])
        let list = fixture.makeListView(height: 6)
        _ = fixture.draw(list)
        var items = fixture.items
        items[1].version = 1
        list.apply(fixture.update(to: items), layouts: fixture.layouts)
        let (lines, statistics) = fixture.draw(list)
        #expect(lines[2] == "item1 r0 l0 v1")
        #expect(statistics.renderedRows == 1)
        #expect(statistics.redrawnLines == [2, 3])
    }

    @Test func reloadThatGrowsASection_keepsTheSelectionOnIt() {
        let fixture = ListFixture(count: 6, rowHeights: [1])
        let list = fixture.makeListView(height: 6)
        list.select(ListRowPath(section: 2, row: 0))
        var items = fixture.items
        items[2].rowHeights = [1, 2]
        items[2].version = 1
        list.apply(fixture.update(to: items), layouts: fixture.layouts)
        #expect(list.selection == ListRowPath(section: 2, row: 0))
        #expect(list.numberOfRows(inSection: 2) == 2)
        #expect(list.contentHeight == 8)
    }

    @Test func rowChanges_insideASection_mapTheSelectedRow() {
        let fixture = ListFixture([Item("a", rowHeights: [1, 1, 1]), Item("b")])
        let list = fixture.makeListView(height: 6)
        list.select(ListRowPath(section: 0, row: 2))
        _ = fixture.draw(list)
        fixture.items[0].rowHeights = [1, 1, 1, 1]
        let update = ListViewUpdate(rowChanges: [.init(section: 0, insertedRows: [0])])
        #expect(list.apply(update, layouts: fixture.layouts) == nil)
        #expect(list.selection == ListRowPath(section: 0, row: 3))
        let (_, statistics) = fixture.draw(list)
        #expect(statistics.renderedRows == 1)  // only the inserted row
    }

    @Test func rowMoves_insideASection_carryTheSelection() {
        let fixture = ListFixture([Item("a", rowHeights: [1, 1, 1])])
        let list = fixture.makeListView(height: 3)
        list.select(ListRowPath(section: 0, row: 0))
        let update = ListViewUpdate(rowChanges: [.init(section: 0, movedRows: [.init(from: 0, to: 2)])])
        #expect(list.apply(update, layouts: fixture.layouts) == nil)
        #expect(list.selection == ListRowPath(section: 0, row: 2))
    }

    @Test func callbacks_reportSelectionActivationAndVisibleSections() {
        let fixture = ListFixture(count: 20)
        let list = fixture.makeListView(height: 5)
        var selections: [ListRowPath?] = []
        var activated: [ListRowPath] = []
        var visible: [Range<Int>] = []
        list.onSelectionChange = { selections.append($0) }
        list.onActivate = { activated.append($0) }
        list.onVisibleSectionsChange = { visible.append($0) }
        #expect(!list.activateSelection())
        list.selectNext()
        list.selectNext()
        #expect(list.activateSelection())
        _ = fixture.draw(list)
        _ = fixture.draw(list)
        list.pageDown()
        _ = fixture.draw(list)
        #expect(
            selections == [
                ListRowPath(section: 0, row: 0), ListRowPath(section: 1, row: 0),
                ListRowPath(section: 6, row: 0),
            ])
        #expect(activated == [ListRowPath(section: 1, row: 0)])
        #expect(visible == [0..<5, 5..<10])
        #expect(list.totalRowCount == 20)
    }

    @Test func styledRow_plainTextIsOneCutLine() {
        #expect(
            StyledRow(plainText: "unknown kind 'poll'\nsecond", width: 10) == StyledRow(lines: ["unknown k…"])
        )
    }

    @Test func inconsistentUpdate_reportsAnIssueAndReloads() {
        let fixture = ListFixture(count: 5)
        let list = fixture.makeListView(height: 4)
        let issue = list.apply(ListViewUpdate(insertedSections: [0]), layouts: fixture.layouts)
        #expect(
            issue?.message
                == "invalid number of sections: 5 before, 0 deleted and 1 inserted should leave 6, but the data source has 5"
        )
        #expect(list.numberOfSections == 5)
        let outOfRange = list.apply(ListViewUpdate(deletedSections: [9]), layouts: fixture.layouts)
        #expect(outOfRange?.message == "deleted section 9 is out of 0..<5 or listed twice")
    }

    @Test func pageDownAndUp_moveByAViewport() {
        let fixture = ListFixture(count: 40)
        let list = fixture.makeListView(height: 10)
        list.select(ListRowPath(section: 2, row: 0))
        list.pageDown()
        #expect(list.scrollOffset == 10)
        #expect(list.selection == ListRowPath(section: 12, row: 0))
        list.pageDown()
        list.pageDown()
        list.pageDown()  // clamped at the end: 40 rows, 10 visible
        #expect(list.scrollOffset == 30)
        #expect(list.selection == ListRowPath(section: 39, row: 0))
        list.pageUp()
        #expect(list.scrollOffset == 20)
        #expect(list.selection == ListRowPath(section: 29, row: 0))
        for _ in 0..<5 { list.pageUp() }
        #expect(list.scrollOffset == 0)
        #expect(list.selection == ListRowPath(section: 0, row: 0))
    }

    @Test func tallSelectedRow_scrollsThroughBeforeMovingOn() {
        let fixture = ListFixture([Item("tall", rowHeights: [12]), Item("next")])
        let list = fixture.makeListView(height: 4)
        list.select(ListRowPath(section: 0, row: 0))
        var offsets: [Int] = []
        while list.selection == ListRowPath(section: 0, row: 0) {
            list.selectNext()
            offsets.append(list.scrollOffset)
        }
        #expect(offsets == [2, 4, 6, 8, 9])
        #expect(list.selection == ListRowPath(section: 1, row: 0))
    }

    @Test func pageDownOverRowsTallerThanTheViewport_movesOnARowEachTime() {
        let fixture = ListFixture((0..<4).map { Item("tall\($0)", rowHeights: [12]) })
        let list = fixture.makeListView(height: 4)
        list.select(ListRowPath(section: 0, row: 0))
        var selections: [Int?] = []
        for _ in 0..<4 {
            list.pageDown()
            selections.append(list.selection?.section)
            #expect(list.visibleSections.contains(list.selection?.section ?? -1))
        }
        #expect(selections == [1, 2, 3, 3])
        list.pageUp()
        #expect(list.selection == ListRowPath(section: 2, row: 0))
        #expect(list.scrollOffset == 24, "the top of the row paged to")
    }

    @Test func trailer_followsTheLastRowAndIsShownWithIt() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 4)
        list.trailer = ["the end"]
        #expect(list.contentHeight == 11)
        #expect(fixture.draw(list).lines.filter { $0.contains("the end") }.isEmpty)
        list.select(ListRowPath(section: 9, row: 0))
        let lines = fixture.draw(list).lines
        #expect(list.scrollOffset == 7)
        #expect(lines.suffix(2).map { $0.split(separator: " ").joined() } == ["item9r0l0", "theend"])
        list.trailer = []
        #expect(list.scrollOffset == 6, "without it the scroll is clamped back")
    }

    @Test func unselectableRows_areSkipped() {
        let fixture = ListFixture(count: 3, rowHeights: [1, 1])
        let list = TerminalListView(width: 20, height: 6, selectionMarker: nil)
        list.rowRenderer = fixture.renderer
        list.reloadData(
            layouts: fixture.items.map { _ in
                [ListRowLayout(height: 1, isSelectable: false), ListRowLayout(height: 1)]
            })
        list.selectNext()
        #expect(list.selection == ListRowPath(section: 0, row: 1))
        list.selectNext()
        #expect(list.selection == ListRowPath(section: 1, row: 1))
        list.select(ListRowPath(section: 2, row: 0))
        #expect(list.selection == ListRowPath(section: 2, row: 1))
    }

    @Test func selectedRow_isHighlightedWithTheMarkerAndStyle() {
        let fixture = ListFixture(count: 3)
        let list = TerminalListView(width: 12, height: 3, selectionMarker: StyledSpan(">"))
        list.rowRenderer = { path, width in
            [StyledLine("row\(path.section) w\(width)")]
        }
        list.reloadData(layouts: fixture.layouts)
        list.select(ListRowPath(section: 1, row: 0))
        var buffer = ScreenBuffer(width: 12, height: 3)
        list.draw(into: &buffer, in: buffer.bounds)
        #expect(HeadlessRenderer.lines(of: buffer) == [" row0 w11", ">row1 w11", " row2 w11"])
        #expect(buffer[1, 1].style.background == list.selectionStyle.background)
        #expect(buffer[11, 1].style.background == list.selectionStyle.background)  // padding too
        #expect(buffer[1, 0].style.background == nil)
        #expect(list.contentWidth == 11)
    }

    @Test func selection_keepsCellsThatHaveTheirOwnColors() {
        let art = Style(foreground: RGBColor(hex: 0xFF0000), background: RGBColor(hex: 0x0000FF))
        let list = TerminalListView(width: 4, height: 1, selectionMarker: nil)
        list.rowRenderer = { _, _ in [StyledLine("▀", style: art) + StyledSpan("x")] }
        list.reloadData(layouts: [[ListRowLayout(height: 1)]])
        list.select(ListRowPath(section: 0, row: 0))
        var buffer = ScreenBuffer(width: 4, height: 1)
        list.draw(into: &buffer, in: buffer.bounds)
        #expect(buffer[0, 0].style == art)
        #expect(buffer[1, 0].style.background == list.selectionStyle.background)
    }

    @Test func widthChange_rendersAgain_andNewHeightsKeepTheAnchor() {
        let fixture = ListFixture(count: 20, rowHeights: [2])
        let list = fixture.makeListView(width: 30, height: 4)
        list.setScrollOffset(10)  // item5 on top
        _ = fixture.draw(list)
        var buffer = ScreenBuffer(width: 20, height: 4)
        let statistics = list.draw(into: &buffer, in: buffer.bounds)
        #expect(statistics.renderedRows == 2)
        #expect(statistics.redrawnLineCount == 4)
        // The layout cache brings heights for the new width: every row is now 3 lines.
        list.updateLayouts(fixture.items.map { _ in [ListRowLayout(height: 3)] })
        #expect(list.scrollAnchor?.row == ListRowPath(section: 5, row: 0))
        #expect(list.scrollOffset == 15)
    }

    @Test func resizeToTheEnd_clampsTheScroll() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 4)
        list.setScrollOffset(100)
        #expect(list.scrollOffset == 6)
        list.resize(width: 30, height: 8)
        #expect(list.scrollOffset == 2)
        #expect(list.visibleSections == 2..<10)
    }

    /// The terminal made very short with the selection low on screen: the selection stays on
    /// screen (it had scrolled off, leaving the person's place out of sight).
    @Test func shrinkingTheTerminal_keepsTheSelectionOnScreen() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 8)
        list.select(ListRowPath(section: 6, row: 0))
        #expect(list.visibleSections == 0..<8)
        list.resize(width: 30, height: 3)
        #expect(list.visibleSections.contains(6), "\(list.visibleSections)")
        #expect(list.selection == ListRowPath(section: 6, row: 0))
    }

    /// Heights for a new width that push the selected row below the screen scroll to it; new
    /// heights while the selection is already off screen (the person scrolled away) keep the
    /// anchor.
    @Test func newHeightsAtANewWidth_keepAVisibleSelectionOnScreen() {
        let fixture = ListFixture(count: 10)
        let list = fixture.makeListView(height: 6)
        list.select(ListRowPath(section: 4, row: 0))
        list.updateLayouts(fixture.items.map { _ in [ListRowLayout(height: 3)] })
        #expect(list.visibleSections.contains(4), "\(list.visibleSections)")

        list.setScrollOffset(24)  // the selection (lines 12 to 14) scrolled away
        list.updateLayouts(fixture.items.map { _ in [ListRowLayout(height: 2)] })
        #expect(!list.visibleSections.contains(4))
    }

    @Test func emptyList_drawsBlankAndIgnoresMoves() {
        let list = TerminalListView(width: 10, height: 3)
        #expect(!list.selectNext())
        #expect(!list.pageDown())
        #expect(list.visibleSections == 0..<0)
        var buffer = ScreenBuffer(width: 10, height: 3)
        let statistics = list.draw(into: &buffer, in: buffer.bounds)
        #expect(HeadlessRenderer.text(of: buffer) == "\n\n")
        #expect(statistics.renderedRows == 0)
    }

    @Test func randomUpdates_keepContentSelectionAndAnchorConsistent() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        var nextID = 0
        func newItem() -> Item {
            nextID += 1
            return Item(
                "n\(nextID)",
                rowHeights: (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    Int.random(in: 1...3, using: &random)
                })
        }
        let fixture = ListFixture((0..<30).map { _ in newItem() })
        let list = fixture.makeListView(width: 24, height: 7)
        list.select(ListRowPath(section: 5, row: 0))
        for step in 0..<150 {
            _ = fixture.draw(list)
            let selectedID = list.selection.map { fixture.items[$0.section].id }
            let anchor = list.scrollAnchor
            let anchorID = anchor.map { fixture.items[$0.row.section].id }
            // Random edit: deletes, inserts, moves, reloads.
            var items = fixture.items
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where items.count > 1:
                    items.remove(at: Int.random(in: 0..<items.count, using: &random))
                case 1: items.insert(newItem(), at: Int.random(in: 0...items.count, using: &random))
                case 2 where items.count > 1:
                    let from = Int.random(in: 0..<items.count, using: &random)
                    let moved = items.remove(at: from)
                    items.insert(moved, at: Int.random(in: 0...items.count, using: &random))
                default:
                    if !items.isEmpty { items[Int.random(in: 0..<items.count, using: &random)].version += 1 }
                }
            }
            let update = fixture.update(to: items)
            let issue = list.apply(update, layouts: fixture.layouts)
            #expect(issue == nil, "seed \(seed), step \(step): \(String(describing: issue))")
            // The selected item, if it survived, is still selected.
            if let selectedID, let index = fixture.items.firstIndex(where: { $0.id == selectedID }) {
                #expect(list.selection?.section == index, "seed \(seed), step \(step)")
            }
            // The anchor item, if it survived and the scroll is not clamped, is still on top.
            let maximum = max(list.contentHeight - list.viewportHeight, 0)
            if let anchorID, let anchor, let index = fixture.items.firstIndex(where: { $0.id == anchorID }),
                list.scrollOffset < maximum
            {
                #expect(list.scrollAnchor?.row.section == index, "seed \(seed), step \(step)")
                #expect(list.scrollAnchor?.hiddenLines == anchor.hiddenLines, "seed \(seed), step \(step)")
            }
            // What is drawn equals a freshly loaded list at the same scroll offset.
            let fresh = ListFixture(fixture.items).makeListView(width: 24, height: 7)
            fresh.setScrollOffset(list.scrollOffset)
            #expect(
                fixture.draw(list).lines == ListFixture(fixture.items).draw(fresh).lines,
                "seed \(seed), step \(step)")
            if Bool.random(using: &random) { list.selectNext() } else { list.pageUp() }
        }
    }
}
