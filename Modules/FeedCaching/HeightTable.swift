import MediaModel

/// Every cached entry's row heights at one width, in feed order: what a list needs to size
/// its content and scroll bar before it has loaded the entries themselves.
///
/// Index 0 is the top of the feed. An entry whose heights were never stored at this width (or
/// were stored for an older version of it) has none: `rows(at:)` is nil.
public struct HeightTable: Hashable, Sendable {
    /// The width the heights were computed for.
    public let width: Int
    private let versions: [Int64]
    private let rowCounts: [UInt8]
    private let offsets: [UInt32]
    private let heights: [UInt16]
    private let idBytes: [UInt8]
    private let idOffsets: [UInt32]
    /// Where each entry is, by id (an id the table holds twice maps to its first place): made
    /// once with the table, off the UI actor where the cache is read, so looking up every
    /// entry of a long Home is O(n), not O(n²).
    public let positions: [FeedEntryID: Int]

    /// The marker of an entry without heights in `rowCounts`.
    static let unknown: UInt8 = 0xFF

    /// Tables are equal when they hold the same heights and ids: `positions` is made from them.
    public static func == (lhs: HeightTable, rhs: HeightTable) -> Bool {
        lhs.width == rhs.width && lhs.versions == rhs.versions && lhs.rowCounts == rhs.rowCounts
            && lhs.offsets == rhs.offsets && lhs.heights == rhs.heights && lhs.idBytes == rhs.idBytes
            && lhs.idOffsets == rhs.idOffsets
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(versions)
        hasher.combine(rowCounts)
        hasher.combine(offsets)
        hasher.combine(heights)
        hasher.combine(idBytes)
        hasher.combine(idOffsets)
    }

    init(
        width: Int, versions: [Int64], rowCounts: [UInt8], offsets: [UInt32], heights: [UInt16],
        idBytes: [UInt8],
        idOffsets: [UInt32]
    ) {
        self.width = width
        self.versions = versions
        self.rowCounts = rowCounts
        self.offsets = offsets
        self.heights = heights
        self.idBytes = idBytes
        self.idOffsets = idOffsets
        var positions: [FeedEntryID: Int] = [:]
        positions.reserveCapacity(idOffsets.count)
        for index in idOffsets.indices {
            let id = Self.entryID(at: index, idBytes: idBytes, idOffsets: idOffsets)
            if positions[id] == nil { positions[id] = index }
        }
        self.positions = positions
    }

    /// A table of `count` entries with no heights known (nothing was stored at this width).
    init(width: Int, unknownCount count: Int) {
        self.init(
            width: width, versions: [], rowCounts: Array(repeating: Self.unknown, count: count),
            offsets: Array(repeating: 0, count: count), heights: [], idBytes: [], idOffsets: [])
    }

    /// How many entries the feed holds.
    public var count: Int { rowCounts.count }

    /// The row heights of the entry at `index` (0 = top), or nil when unknown.
    ///
    /// Complexity: O(rows of the entry).
    public func rows(at index: Int) -> [Int]? {
        guard rowCounts.indices.contains(index), rowCounts[index] != Self.unknown else { return nil }
        let start = Int(offsets[index])
        return heights[start..<(start + Int(rowCounts[index]))].map(Int.init)
    }

    /// The total height of the entry at `index`, or nil when unknown.
    public func height(at index: Int) -> Int? {
        guard rowCounts.indices.contains(index), rowCounts[index] != Self.unknown else { return nil }
        let start = Int(offsets[index])
        var total = 0
        for row in heights[start..<(start + Int(rowCounts[index]))] { total += Int(row) }
        return total
    }

    /// The content version of the entry at `index`, when the table knows it.
    public func version(at index: Int) -> Int64? {
        versions.indices.contains(index) ? versions[index] : nil
    }

    /// The id of the entry at `index`, when the table knows it.
    public func entryID(at index: Int) -> FeedEntryID? {
        guard idOffsets.indices.contains(index) else { return nil }
        return Self.entryID(at: index, idBytes: idBytes, idOffsets: idOffsets)
    }

    /// The id at `index` (a valid one) of the packed ids.
    private static func entryID(at index: Int, idBytes: [UInt8], idOffsets: [UInt32]) -> FeedEntryID {
        let start = Int(idOffsets[index])
        let end = index + 1 < idOffsets.count ? Int(idOffsets[index + 1]) : idBytes.count
        return FeedEntryID(String(decoding: idBytes[start..<end], as: UTF8.self))
    }

    /// The row heights of an entry by id, when stored for `version`.
    ///
    /// Complexity: O(rows of the entry).
    public func rows(for id: FeedEntryID, version: Int64) -> [Int]? {
        positions[id].flatMap { rows(at: $0, version: version) }
    }

    /// The row heights of the entry at `index` when they were stored for `version`, else nil.
    ///
    /// Complexity: O(rows of the entry).
    public func rows(at index: Int, version: Int64) -> [Int]? {
        self.version(at: index) == version ? rows(at: index) : nil
    }

    /// How many entries have heights.
    public var knownCount: Int { rowCounts.count { $0 != Self.unknown } }

    /// The sum of every known height.
    public var knownHeight: Int { heights.reduce(0) { $0 + Int($1) } }

    /// How many entries from the top fill `rows` screen rows, counting an entry of unknown height
    /// as `estimate` rows (at least 1), so the first screen is always filled. An entry known to
    /// take no rows (one the app does not show) counts as none.
    ///
    /// Complexity: O(k) for the k entries returned.
    public func entriesFilling(rows: Int, estimate: Int = 1) -> Int {
        var filled = 0
        var index = 0
        while index < count && filled < rows {
            filled += height(at: index) ?? Swift.max(estimate, 1)
            index += 1
        }
        return index
    }
}
