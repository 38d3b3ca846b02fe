import AppTesting
import Features
import Foundation
import MediaModel
import TerminalUI
import Testing

@Suite struct PhotoArtDiskCacheTests {
    static func grid(_ key: PhotoArtKey, shade: UInt8) throws -> RGBImage {
        try RGBImage(
            width: key.pixelWidth, height: key.pixelHeight,
            rgb: Array(repeating: shade, count: key.byteCount))
    }

    static func key(_ id: String) -> PhotoArtKey { PhotoArtKey(photoID: id, pixelWidth: 20, pixelHeight: 10) }

    @Test func pastItsCap_theLeastRecentlyUsedFileGoes_andTheOrderSurvivesARestart() throws {
        // Given a cache with room for two grids of 20x10 (600 bytes and a 12-byte header each)
        let directory = try TestPhotos.folder() + "/photo-art"
        let cache = PhotoArtDiskCache(directory: directory, capacity: 2 * 612 + 100)
        let (a, b, c, d) = (Self.key("p1"), Self.key("p2"), Self.key("p3"), Self.key("p4"))
        cache.write(try Self.grid(a, shade: 1), for: a)
        cache.write(try Self.grid(b, shade: 2), for: b)

        // When p1 is read (so p2 is the least recently used) and a third grid is written
        #expect(cache.read(a)?.rgb.first == 1)
        cache.write(try Self.grid(c, shade: 3), for: c)

        // Then p2 is gone, p1 and p3 are kept, within the cap
        #expect(cache.fileNames == ["p1-20x10.art", "p3-20x10.art"])
        #expect(cache.read(b) == nil)
        #expect(cache.totalBytes == 2 * 612)
        #expect(FileManager.default.fileExists(atPath: directory + "/p2-20x10.art") == false)

        // And after a restart the order is the one left: p1 is now the oldest, so a fourth grid
        // removes it
        let restarted = PhotoArtDiskCache(directory: directory, capacity: 2 * 612 + 100)
        #expect(restarted.fileNames == ["p1-20x10.art", "p3-20x10.art"])
        restarted.write(try Self.grid(d, shade: 4), for: d)
        #expect(restarted.fileNames == ["p3-20x10.art", "p4-20x10.art"])
        #expect(restarted.read(c)?.rgb.first == 3)
    }

    @Test func aFileCutShort_isIgnoredAndRemoved_andTheNextWriteIsReadWhole() throws {
        // Given a grid on disk whose file was cut short (a crash mid-copy, a full disk)
        let directory = try TestPhotos.folder() + "/photo-art"
        let key = Self.key("p7")
        PhotoArtDiskCache(directory: directory, capacity: 1 << 20).write(
            try Self.grid(key, shade: 9), for: key)
        let path = directory + "/p7-20x10.art"
        let whole = try #require(FileManager.default.contents(atPath: path))
        try whole.prefix(whole.count - 5).write(to: URL(fileURLWithPath: path))

        // When a new process reads it
        let cache = PhotoArtDiskCache(directory: directory, capacity: 1 << 20)
        let read = cache.read(key)

        // Then it is no art (not a crash, not garbage), and the file is gone
        #expect(read == nil)
        #expect(FileManager.default.fileExists(atPath: path) == false)
        #expect(cache.totalBytes == 0)

        // And written again, it reads back whole
        cache.write(try Self.grid(key, shade: 11), for: key)
        #expect(cache.read(key)?.rgb == Array(repeating: 11, count: key.byteCount))
    }

    @Test func artDrawnOverAnotherBackground_isNotShown_andIsDrawnAgain() throws {
        // Given art stored by an app whose theme's background was black (a transparent PNG's
        // clear parts are drawn over it)
        let directory = try TestPhotos.folder() + "/photo-art"
        let key = Self.key("p8")
        let black = PixelImage.Color(red: 0, green: 0, blue: 0)
        let warm = PixelImage.Color(red: 0x1C, green: 0x1A, blue: 0x17)
        PhotoArtDiskCache(directory: directory, capacity: 1 << 20, background: black).write(
            try Self.grid(key, shade: 5), for: key)

        // When a build whose background is another colour reads it
        let cache = PhotoArtDiskCache(directory: directory, capacity: 1 << 20, background: warm)

        // Then it is not shown (it would show black where the theme is warm), and the file goes
        #expect(cache.read(key) == nil)
        #expect(FileManager.default.fileExists(atPath: directory + "/p8-20x10.art") == false)
        // And drawn again over this background, it is kept and read back
        cache.write(try Self.grid(key, shade: 6), for: key)
        #expect(cache.read(key)?.rgb.first == 6)
        #expect(
            PhotoArtDiskCache(directory: directory, capacity: 1 << 20, background: warm).read(key)?.rgb.first
                == 6)
    }
}
