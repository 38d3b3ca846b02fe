import Foundation
import MediaModel
import Synchronization
import TerminalUI

/// Photo art grids in files of one folder (`<data-dir>/photo-art`): a least-recently-used cache
/// with a size cap that survives restarts.
///
/// Each grid is one file named by its key (`p12-80x60.art`): the four bytes `ART2`, the width
/// and height as two little-endian 16-bit numbers, the background the grid was drawn over (red,
/// green, blue, and a zero byte), then three bytes a pixel, row by row. A file is written to a
/// temporary name and renamed into place, so a reader never sees half of one; a file whose
/// length or header does not match its name (cut short by a crash, damaged, written by an older
/// build) is ignored and removed, and the art is loaded and written again. So is a file drawn over
/// another background than this cache's: a transparent photo's clear parts would show the old
/// theme's colour.
///
/// Recency is a file's modification time: a read sets it to now, and the folder is listed once
/// (the first time it is used) to learn every file's size and last use, so the order survives a
/// restart. A write that takes the folder over ``capacity`` removes the least recently used
/// files until it fits. Calls are serialized by a lock; they do file work, so call them off the
/// UI actor.
package final class PhotoArtDiskCache: Sendable {
    private struct Entry {
        var bytes: Int
        var lastUse: Double
    }

    private struct State {
        var entries: [String: Entry]?
        var lastUse: Double = 0
        var failedWrites = 0
    }

    /// The folder.
    package let directory: String
    /// The most bytes of files kept.
    package let capacity: Int
    /// What the grids written here were drawn over; grids drawn over another are not read.
    package let background: PixelImage.Color
    private let state = Mutex(State())

    static let magic: [UInt8] = Array("ART2".utf8)
    static let headerSize = 12

    /// Makes a cache in `directory` (created at the first write) holding at most `capacity`
    /// bytes of grids drawn over `background`.
    package init(
        directory: String, capacity: Int, background: PixelImage.Color = PhotoArtStore.defaultBackground
    ) {
        self.directory = directory
        self.capacity = max(capacity, 0)
        self.background = background
    }

    /// The grid stored for `key`, marked as just used; nil when there is none or its file is
    /// damaged (then the file is removed).
    package func read(_ key: PhotoArtKey) -> RGBImage? {
        guard let name = key.fileName else { return nil }
        return state.withLock { state -> RGBImage? in
            loadIndex(&state)
            guard state.entries?[name] != nil else { return nil }
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path),
                let grid = Self.grid(from: data, key: key, background: background)
            else {
                try? FileManager.default.removeItem(atPath: path)
                state.entries?[name] = nil
                return nil
            }
            touch(name, path: path, &state)
            return grid
        }
    }

    /// Stores `grid` for `key`, then removes the least recently used files while the folder holds
    /// more than ``capacity`` bytes. A grid larger than the whole capacity is not stored.
    ///
    /// A failed write leaves the art in memory only (the disk is a cache); ``failedWrites``
    /// counts them.
    package func write(_ grid: RGBImage, for key: PhotoArtKey) {
        guard let name = key.fileName, grid.width == key.pixelWidth, grid.height == key.pixelHeight else {
            return
        }
        var data = Data(Self.magic)
        data.append(contentsOf: Self.littleEndian16(grid.width) + Self.littleEndian16(grid.height))
        data.append(contentsOf: [background.red, background.green, background.blue, 0])
        data.append(contentsOf: grid.rgb)
        guard data.count <= capacity else { return }
        state.withLock { state in
            loadIndex(&state)
            let path = directory + "/" + name
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                state.failedWrites += 1
                return
            }
            state.entries?[name] = Entry(bytes: data.count, lastUse: 0)
            touch(name, path: path, &state)
            evict(&state)
        }
    }

    /// The bytes of files kept now.
    package var totalBytes: Int {
        state.withLock { state in
            loadIndex(&state)
            return state.entries?.values.reduce(0) { $0 + $1.bytes } ?? 0
        }
    }

    /// The file names kept now, least recently used first.
    package var fileNames: [String] {
        state.withLock { state in
            loadIndex(&state)
            return (state.entries ?? [:]).sorted { ($0.value.lastUse, $0.key) < ($1.value.lastUse, $1.key) }
                .map(
                    \.key)
        }
    }

    /// How many writes failed (the folder could not be made or written).
    package var failedWrites: Int { state.withLock { $0.failedWrites } }

    // MARK: - Internals

    /// Lists the folder once: every `.art` file with its size and modification time.
    private func loadIndex(_ state: inout State) {
        guard state.entries == nil else { return }
        var entries: [String: Entry] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasSuffix(".art") {
            // stat(2) itself: FileManager's attributes also look up the owner's and the group's
            // names, reading /etc/passwd and /etc/group again for every file.
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            entries[name] = Entry(bytes: Int(info.st_size), lastUse: modified)
            state.lastUse = max(state.lastUse, modified)
        }
        state.entries = entries
    }

    /// Marks `name` as just used, in the index and in its file's modification time. Uses are
    /// strictly ordered even within one clock tick.
    private func touch(_ name: String, path: String, _ state: inout State) {
        let now = max(Date().timeIntervalSince1970, state.lastUse + 0.001)
        state.lastUse = now
        state.entries?[name]?.lastUse = now
        // The time only orders uses after a restart; a file whose time cannot be set keeps the
        // time of its write.
        try? FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: now)], ofItemAtPath: path)
    }

    /// Removes the least recently used files until the folder fits ``capacity``.
    private func evict(_ state: inout State) {
        guard var entries = state.entries else { return }
        var total = entries.values.reduce(0) { $0 + $1.bytes }
        guard total > capacity else { return }
        let oldestFirst = entries.sorted { ($0.value.lastUse, $0.key) < ($1.value.lastUse, $1.key) }
        for (name, entry) in oldestFirst where total > capacity {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
            entries[name] = nil
            total -= entry.bytes
        }
        state.entries = entries
    }

    /// The grid in `data` if it is a whole file for `key`, drawn over `background`.
    static func grid(from data: Data, key: PhotoArtKey, background: PixelImage.Color) -> RGBImage? {
        let bytes = [UInt8](data)
        guard bytes.count == headerSize + key.byteCount, Array(bytes[0..<4]) == magic,
            Int(bytes[4]) | Int(bytes[5]) << 8 == key.pixelWidth,
            Int(bytes[6]) | Int(bytes[7]) << 8 == key.pixelHeight,
            Array(bytes[8..<12]) == [background.red, background.green, background.blue, 0]
        else { return nil }
        return try? RGBImage(width: key.pixelWidth, height: key.pixelHeight, rgb: Array(bytes[headerSize...]))
    }

    static func littleEndian16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}
