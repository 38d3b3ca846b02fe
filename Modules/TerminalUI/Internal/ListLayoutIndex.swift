/// Flattened row positions of a list: every row's first line, and section ↔ flat index.
///
/// Built in O(rows); answers "which row holds line L" in O(log rows) and path ↔ flat index in
/// O(1) / O(log sections).
struct ListLayoutIndex {
    /// The flat index of each section's first row; one extra entry: the row count.
    private(set) var sectionStarts: [Int] = [0]
    /// The first line of each flat row; one extra entry: the total line count.
    private(set) var rowTops: [Int] = [0]

    init() {}

    /// Builds the index from each section's row heights.
    init(sections: [[Int]]) {
        sectionStarts = [0]
        sectionStarts.reserveCapacity(sections.count + 1)
        rowTops = [0]
        var line = 0
        for heights in sections {
            for height in heights {
                line += height
                rowTops.append(line)
            }
            sectionStarts.append(rowTops.count - 1)
        }
    }

    /// The number of rows.
    var rowCount: Int { rowTops.count - 1 }
    /// The number of lines of all rows.
    var totalLines: Int { rowTops[rowTops.count - 1] }

    /// The first line of flat row `flat`.
    func top(ofRow flat: Int) -> Int { rowTops[flat] }
    /// The line after flat row `flat`.
    func bottom(ofRow flat: Int) -> Int { rowTops[flat + 1] }
    /// The height of flat row `flat`.
    func height(ofRow flat: Int) -> Int { rowTops[flat + 1] - rowTops[flat] }

    /// The flat index of `path`, nil outside the list.
    func flatIndex(of path: ListRowPath) -> Int? {
        guard path.section >= 0, path.section < sectionStarts.count - 1 else { return nil }
        let flat = sectionStarts[path.section] + path.row
        guard path.row >= 0, flat < sectionStarts[path.section + 1] else { return nil }
        return flat
    }

    /// The path of flat row `flat`, nil outside the list. O(log sections).
    func path(ofRow flat: Int) -> ListRowPath? {
        guard flat >= 0, flat < rowCount else { return nil }
        let section = lastIndex(in: sectionStarts, notAbove: flat, limit: sectionStarts.count - 1)
        return ListRowPath(section: section, row: flat - sectionStarts[section])
    }

    /// The flat row holding line `line` (clamped into the content); nil when there are no
    /// rows. O(log rows).
    func row(containingLine line: Int) -> Int? {
        guard rowCount > 0 else { return nil }
        let clampedLine = min(max(line, 0), totalLines - 1)
        return lastIndex(in: rowTops, notAbove: clampedLine, limit: rowCount)
    }

    /// The largest index i < limit with values[i] <= target, for ascending values (ties: the
    /// last, so empty sections are skipped).
    private func lastIndex(in values: [Int], notAbove target: Int, limit: Int) -> Int {
        var low = 0
        var high = limit
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }
}
