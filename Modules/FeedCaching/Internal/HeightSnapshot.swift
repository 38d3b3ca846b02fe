import Basics

/// The packed form of a `HeightTable` stored per width in `feed_height_snapshots`: flat,
/// little-endian arrays a cold start copies straight into memory.
///
/// ```
/// [format u8] [count u32] [heights u32] [id bytes u32]
/// [versions count × i64] [row counts count × u8 (0xFF: unknown)] [heights heights × u16]
/// [id lengths count × u16] [id bytes]
/// ```
///
/// Offsets into the heights and ids are prefix sums computed at load, which keeps the blob
/// (read on every cold start) to about 15 bytes per entry.
enum HeightSnapshot {
    static let format: UInt8 = 3

    /// One entry's part of a snapshot.
    struct Entry {
        var id: String
        var version: Int64
        /// The stored heights blob (UInt16s, little-endian), or nil when unknown.
        var rows: [UInt8]?
    }

    static func encode(_ entries: [Entry]) -> [UInt8] {
        var versions: [Int64] = []
        var rowCounts: [UInt8] = []
        var heights: [UInt16] = []
        var idLengths: [UInt16] = []
        var idBytes: [UInt8] = []
        for entry in entries {
            versions.append(entry.version)
            if let rows = entry.rows, rows.count / 2 < Int(HeightTable.unknown) {
                rowCounts.append(UInt8(rows.count / 2))
                for index in stride(from: 0, to: rows.count - 1, by: 2) {
                    heights.append(UInt16(rows[index]) | UInt16(rows[index + 1]) << 8)
                }
            } else {
                rowCounts.append(HeightTable.unknown)
            }
            // An id too long to record is left out; its entry is still found by index.
            let id = entry.id.utf8.count <= Int(UInt16.max) ? Array(entry.id.utf8) : []
            idLengths.append(UInt16(id.count))
            idBytes.append(contentsOf: id)
        }
        var writer = ByteWriter(capacity: 13 + entries.count * 11 + heights.count * 2 + idBytes.count)
        writer.byte(format)
        for value in [entries.count, heights.count, idBytes.count] { writer.uint32(UInt32(value)) }
        for value in versions { writer.uint64(UInt64(bitPattern: value)) }
        for value in rowCounts { writer.byte(value) }
        for value in heights { writer.uint16(value) }
        for value in idLengths { writer.uint16(value) }
        for value in idBytes { writer.byte(value) }
        return writer.bytes
    }

    /// Unpacks a snapshot: bulk copies after checking every size against the blob, then two
    /// prefix sums for the offsets.
    ///
    /// Complexity: O(n) in the entries, a few instructions each.
    static func decode(_ bytes: [UInt8], width: Int) throws(ByteDecodingError) -> HeightTable {
        guard bytes.count >= 13, bytes[0] == format else {
            throw ByteDecodingError(offset: 0, problem: "not a height snapshot of format \(format)")
        }
        let count = Int(readUInt32(bytes, at: 1))
        let heightCount = Int(readUInt32(bytes, at: 5))
        let idByteCount = Int(readUInt32(bytes, at: 9))
        let expected = 13 + count * (8 + 1 + 2) + heightCount * 2 + idByteCount
        guard bytes.count == expected else {
            throw ByteDecodingError(
                offset: 13,
                problem: "a snapshot of \(count) entries needs \(expected) bytes, found \(bytes.count)")
        }
        var offset = 13
        let versions: [Int64] = copy(bytes, &offset, count)
        let rowCounts: [UInt8] = copy(bytes, &offset, count)
        let heights: [UInt16] = copy(bytes, &offset, heightCount)
        let idLengths: [UInt16] = copy(bytes, &offset, count)
        let idBytes: [UInt8] = copy(bytes, &offset, idByteCount)
        var offsets = [UInt32](repeating: 0, count: count)
        var idOffsets = [UInt32](repeating: 0, count: count)
        var nextHeight = 0
        var nextID = 0
        for index in 0..<count {
            offsets[index] = UInt32(truncatingIfNeeded: nextHeight)
            idOffsets[index] = UInt32(truncatingIfNeeded: nextID)
            if rowCounts[index] != HeightTable.unknown { nextHeight += Int(rowCounts[index]) }
            nextID += Int(idLengths[index])
        }
        guard nextHeight == heightCount, nextID == idByteCount else {
            throw ByteDecodingError(
                offset: 13,
                problem:
                    "the snapshot's rows (\(nextHeight)) or id bytes (\(nextID)) disagree with its header "
                    + "(\(heightCount), \(idByteCount))")
        }
        return HeightTable(
            width: width, versions: versions, rowCounts: rowCounts, offsets: offsets, heights: heights,
            idBytes: idBytes,
            idOffsets: idOffsets)
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// Copies `count` little-endian values of `T` from `bytes` at `offset` (sizes already checked).
    private static func copy<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: inout Int, _ count: Int) -> [T]
    {
        let size = MemoryLayout<T>.size
        let start = offset
        offset += count * size
        #if _endian(little)
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                bytes.withUnsafeBytes { source in
                    if count > 0 {
                        UnsafeMutableRawBufferPointer(buffer).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count * size)]))
                    }
                }
                initialized = count
            }
        #else
            return (0..<count).map { index in
                var value: T = 0
                for byte in 0..<size { value |= T(bytes[start + index * size + byte]) << (8 * byte) }
                return value
            }
        #endif
    }
}
