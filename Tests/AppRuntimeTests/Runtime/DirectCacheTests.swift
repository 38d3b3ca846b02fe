import DirectMessages
import Foundation
import MediaModel
import ServerAPI
import Testing

/// The inbox kept for the next launch is written only when it changed: every launch reads the
/// same inbox back from the server, and an atomic write costs a sync and a rename.
@Suite struct DirectCacheTests {
    /// The file's inode: an atomic write makes a new file and renames it over the old one.
    private func inode(_ path: String) throws -> UInt64 {
        var info = stat()
        #expect(stat(path, &info) == 0, "no file at \(path)")
        return UInt64(info.st_ino)
    }

    @Test func theSameInboxAgain_isNotWritten_andAChangedOneIs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "direct-cache-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ada = User(id: "u1", handle: "ada", displayName: "Ada")
        let grace = User(id: "u2", handle: "grace", displayName: "Grace")
        let date = Date(timeIntervalSince1970: 1_714_000_000)
        let inbox = [Conversation(id: "c1", members: [ada, grace], createdAt: date, updatedAt: date)]
        let cache = DirectCache(dataDirectory: directory, handle: "ada")
        let path = cache.directory + "/inbox.json"

        cache.save(conversations: inbox)
        cache.flush()
        let written = try inode(path)

        // The next launch, the same inbox: the file is the one written before.
        let next = DirectCache(dataDirectory: directory, handle: "ada")
        next.save(conversations: next.conversations() ?? [])
        next.flush()
        #expect(try inode(path) == written)
        #expect(next.conversations()?.map(\.id) == ["c1"])

        // A conversation read since: written, and read back.
        var changed = inbox
        changed[0].unreadCount = 2
        next.save(conversations: changed)
        next.flush()
        #expect(try inode(path) != written)
        #expect(next.conversations()?.map(\.unreadCount) == [2])
    }

    @Test func anInboxNeverKept_isNil_andOneKeptEmpty_isEmpty() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "direct-cache-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = DirectCache(dataDirectory: directory, handle: "ada")
        #expect(cache.conversations() == nil)
        cache.save(conversations: [])
        cache.flush()
        #expect(DirectCache(dataDirectory: directory, handle: "ada").conversations()?.isEmpty == true)
        #expect(DirectCache(dataDirectory: directory, handle: "grace").conversations() == nil)
    }
}
