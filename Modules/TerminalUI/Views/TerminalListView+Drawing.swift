extension TerminalListView {
    /// One viewport line as drawn: its content and the style of the columns it leaves empty.
    struct ComposedLine: Hashable {
        var content: StyledLine
        var fill: Style

        static let blank = ComposedLine(content: .empty, fill: .plain)
    }

    /// Draws the visible rows into `rect` of `screen` (resizing the view to the rect first)
    /// and returns which lines changed since the previous draw.
    ///
    /// Only rows in view are rendered, and only when their lines are not cached. Every line
    /// of the rect is written (the screen's frame differ sends only the changed ones).
    /// O(viewport lines + log rows), plus rendering of uncached visible rows.
    @discardableResult
    public func draw(into screen: inout ScreenBuffer, in rect: Rect) -> ListDrawStatistics {
        guard !rect.isEmpty else { return ListDrawStatistics(redrawnLines: [], renderedRows: 0) }
        resize(width: rect.width, height: rect.height)
        var rendered = 0
        let frame = composeViewport(renderedRows: &rendered)
        let sameGeometry = lastRect.map { $0.width == rect.width && $0.height == rect.height } ?? false
        let redrawn = (0..<frame.count).filter { !sameGeometry || lastFrame[$0] != frame[$0] }
        for (offset, line) in frame.enumerated() {
            let lineRect = Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: 1)
            screen.fill(lineRect, style: line.fill)
            screen.put(line.content, x: rect.x, y: rect.y + offset, clip: lineRect)
        }
        lastFrame = frame
        lastRect = rect
        let visible = visibleSections
        if visible != reportedVisibleSections {
            reportedVisibleSections = visible
            onVisibleSectionsChange?(visible)
        }
        return ListDrawStatistics(redrawnLines: redrawn, renderedRows: rendered)
    }

    /// The viewport's lines, rendering uncached visible rows.
    func composeViewport(renderedRows: inout Int) -> [ComposedLine] {
        var frame: [ComposedLine] = []
        frame.reserveCapacity(viewportHeight)
        let top = scrollOffset
        guard var flat = index.row(containingLine: top), index.totalLines > 0 else {
            return Array(repeating: .blank, count: viewportHeight)
        }
        var line = top
        let gutter = gutterWidth
        let selectedFlat = selection.flatMap { index.flatIndex(of: $0) }
        while frame.count < viewportHeight {
            guard line < index.totalLines else {
                let trailing = line - index.totalLines
                if trailing < trailer.count {
                    var composed = StyledLine()
                    if gutter > 0 { composed.append(String(repeating: " ", count: gutter)) }
                    composed.append(TextLayout.truncate(trailer[trailing], width: contentWidth, ellipsis: ""))
                    frame.append(ComposedLine(content: composed, fill: .plain))
                } else {
                    frame.append(.blank)
                }
                line += 1
                continue
            }
            while index.bottom(ofRow: flat) <= line { flat += 1 }
            guard let path = index.path(ofRow: flat) else { break }
            let lines = renderedLines(of: path, renderedRows: &renderedRows)
            let lineInRow = line - index.top(ofRow: flat)
            let content = lineInRow < lines.count ? lines[lineInRow] : .empty
            if flat == selectedFlat {
                var composed = StyledLine()
                if let marker = selectionMarker { composed.append(marker) }
                composed.append(content.mapStyles(highlighted))
                frame.append(ComposedLine(content: composed, fill: highlighted(.plain)))
            } else {
                var composed = StyledLine()
                if gutter > 0 { composed.append(String(repeating: " ", count: gutter)) }
                composed.append(content)
                frame.append(ComposedLine(content: composed, fill: .plain))
            }
            line += 1
        }
        while frame.count < viewportHeight { frame.append(.blank) }
        return frame
    }

    /// The row's lines at the content width: cached, or rendered now and cached.
    private func renderedLines(of path: ListRowPath, renderedRows: inout Int) -> [StyledLine] {
        if let lines = sections[path.section].rows[path.row].lines { return lines }
        renderedRows += 1
        let width = contentWidth
        let lines = (rowRenderer?(path, width) ?? []).map {
            TextLayout.truncate($0, width: width, ellipsis: "")
        }
        sections[path.section].rows[path.row].lines = lines
        return lines
    }

    /// `style` under the selection: the selection's colors fill only unset colors, its
    /// attributes add.
    private func highlighted(_ style: Style) -> Style {
        Style(
            foreground: style.foreground ?? selectionStyle.foreground,
            background: style.background ?? selectionStyle.background,
            isBold: style.isBold || selectionStyle.isBold, isDim: style.isDim || selectionStyle.isDim,
            isItalic: style.isItalic || selectionStyle.isItalic,
            isUnderlined: style.isUnderlined || selectionStyle.isUnderlined,
            isInverse: style.isInverse || selectionStyle.isInverse)
    }
}
