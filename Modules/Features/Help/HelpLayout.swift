import TerminalUI

/// Where the `?` overlay's lines go in a content area: a box centred in it, the heading on its
/// first line, the keys in one column or, when one column is taller than the area, in two
/// columns side by side (separated by a `│` gutter), and how to close it on its last line.
///
/// In one column the box is 56 wide, as narrow as the lines allow. In two columns it takes the
/// area's width less a column each side; a line too long for its column is wrapped at a space,
/// and goes on under what the keys do (column ``HelpOverlay/doesColumn``), so the key column
/// stays clear. The keys are split where the two columns are closest in height, at the blank
/// line between the screen's keys and the shell's when that fits; a column never ends with that
/// blank line (it starts the second column instead), so the lines read the same, in order,
/// column after column. Where two columns are too narrow (a narrow, short screen such as 50x20),
/// the one column is cut into pages; where they are too short (more keys than two columns of
/// the screen hold), the keys fill pages of two columns; pages are turned with space, and
/// nothing is dropped. Laying out
/// is O(n) in the lines' length.
struct HelpLayout {
    /// The gutter between two columns.
    static let gutter = " │ "
    /// The widest box a single column gets.
    static let oneColumnWidth = 56

    /// The box, rules included.
    var box: Rect
    /// The first line: which screen's keys these are.
    var heading: String
    /// The rows of each column, wrapped to `columnWidth`.
    var columns: [[String]]
    /// The width of a column.
    var columnWidth: Int
    /// The last line: how to close the overlay (on a page, which page it is, and how to turn it).
    var closing: String
    /// How many pages the keys take: more than one when one column is too tall and two are too
    /// narrow (a narrow, short screen: each page a screenful of the one column), or when even two
    /// columns are too short (each page two columns' worth).
    var pageCount = 1

    /// The rows between the heading and the closing line.
    var bodyHeight: Int { columns.map(\.count).max() ?? 0 }

    /// Lays out `lines` (heading, keys, closing line, as ``HelpOverlay/lines(title:screen:shell:)``
    /// makes them) in `rect`, showing `page` (counted from 0, kept in range) when the keys take
    /// more than one; nil when the area is too small for any box.
    init?(_ lines: [String], in rect: Rect, page: Int = 0) {
        guard lines.count >= 2 else { return nil }
        heading = lines[0]
        closing = lines[lines.count - 1]
        let body = Array(lines.dropFirst().dropLast())
        let rows = rect.height - 4
        // One column, as narrow as it can be, when it fits the height.
        let narrow = min(rect.width - 4, Self.oneColumnWidth)
        guard narrow > 10, rows >= 1 else { return nil }
        let single = body.flatMap { Self.wrap($0, width: narrow - 4) }
        let wide = rect.width - 2
        let twoColumnWidth = (wide - 4 - Self.gutter.count) / 2
        if single.count <= rows || twoColumnWidth < HelpOverlay.doesColumn + 8 {
            // Too many for one column and too narrow for two: pages of one column.
            pageCount = max((single.count + rows - 1) / rows, 1)
            let page = min(max(page, 0), pageCount - 1)
            if pageCount > 1 {
                closing =
                    "page \(page + 1) of \(pageCount) · space: " + (page + 1 < pageCount ? "next" : "close")
            }
            columns = [Array(single.dropFirst(page * rows).prefix(rows))]
            columnWidth = narrow - 4
            box = Rect(
                x: rect.x + (rect.width - narrow) / 2, y: rect.y, width: narrow,
                height: min(rect.height, columns[0].count + 4))
            return
        }
        // Two columns, split where they are closest in height.
        let wrapped = body.map { Self.wrap($0, width: twoColumnWidth) }
        let split = Self.split(wrapped.map(\.count), body: body, rows: rows)
        columns = [Array(wrapped[..<split].joined()), Array(wrapped[split...].joined())]
        if columns.contains(where: { $0.count > rows }) {
            // Taller than two columns: pages of two, filled line by line, nothing dropped.
            let filled = Self.fill(wrapped, rows: rows)
            pageCount = (filled.count + 1) / 2
            let page = min(max(page, 0), pageCount - 1)
            if pageCount > 1 {
                closing =
                    "page \(page + 1) of \(pageCount) · space: " + (page + 1 < pageCount ? "next" : "close")
            }
            columns = [filled[2 * page], 2 * page + 1 < filled.count ? filled[2 * page + 1] : []]
        }
        columnWidth = twoColumnWidth
        let height = (columns.map(\.count).max() ?? 0) + 4
        box = Rect(
            x: rect.x + (rect.width - wide) / 2, y: rect.y, width: wide, height: min(rect.height, height))
    }

    /// `lines` (each wrapped into rows) in columns of at most `rows` rows, a line split between
    /// two only when it is taller than a column, and no column starting with a blank line.
    static func fill(_ lines: [[String]], rows: Int) -> [[String]] {
        var columns: [[String]] = [[]]
        for line in lines {
            if columns[columns.count - 1].count + line.count > rows, !columns[columns.count - 1].isEmpty {
                columns.append([])
            }
            if columns[columns.count - 1].isEmpty && line == [""] { continue }
            for row in line {
                if columns[columns.count - 1].count == rows { columns.append([]) }
                columns[columns.count - 1].append(row)
            }
        }
        return columns
    }

    /// Where the second column starts: at the blank line between the screen's keys and the
    /// shell's when both columns then fit `rows`, else where their heights are closest. The
    /// first column never ends with a blank line.
    static func split(_ heights: [Int], body: [String], rows: Int) -> Int {
        guard body.count > 1 else { return body.count }
        let total = heights.reduce(0, +)
        var best = body.count - 1
        var bestTaller = Int.max
        var above = 0
        for index in 1..<body.count {
            above += heights[index - 1]
            guard !body[index - 1].isEmpty else { continue }
            let taller = max(above, total - above)
            if body[index].isEmpty && taller <= rows { return index }
            if taller < bestTaller { (best, bestTaller) = (index, taller) }
        }
        return best
    }

    /// `line` in rows of at most `width` columns: broken at the last space that fits (after the
    /// key column), each further row indented to where what the keys do starts.
    static func wrap(_ line: String, width: Int) -> [String] {
        guard line.displayWidth > width else { return [line] }
        let indent = String(repeating: " ", count: HelpOverlay.doesColumn)
        var rows: [String] = []
        var rest = Substring(line)
        var first = true
        while true {
            let prefix = first ? "" : indent
            let room = width - prefix.count
            if rest.displayWidth <= room || room < 1 {
                rows.append(prefix + rest)
                return rows
            }
            // The last space within `room` columns, past the key column on the first row.
            var column = 0
            var cut: Substring.Index?
            var hard = rest.endIndex
            for index in rest.indices {
                let character = rest[index]
                if column + character.displayWidth > room {
                    hard = index
                    break
                }
                if character == " " && (!first || column >= HelpOverlay.doesColumn) { cut = index }
                column += character.displayWidth
            }
            let end = cut ?? (hard == rest.startIndex ? rest.index(after: hard) : hard)
            rows.append(prefix + rest[..<end])
            rest = rest[end...].drop { $0 == " " }
            first = false
        }
    }
}
