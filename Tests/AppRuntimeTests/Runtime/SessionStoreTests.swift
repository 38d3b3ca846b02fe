import AppRuntime
import Foundation
import Testing

/// The saved session holds a bearer token: only its owner may read it.
@Suite struct SessionStoreTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "session-store-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func aSavedSession_isReadableByItsOwnerOnly() throws {
        // Given a data directory
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(dataDirectory: directory)

        // When a session is saved
        try store.save(SessionStore.Saved(handle: "ada", token: "secret"))

        // Then the file has mode 0600, and reads back
        #expect(try Self.mode(store.path) == 0o600)
        #expect(store.load() == SessionStore.Saved(handle: "ada", token: "secret"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(leftovers == ["session.json"], "no temporary file is left: \(leftovers)")
    }

    @Test func savingOverAnOlderReadableFile_leavesItOwnerOnly() throws {
        // Given a session file an older version left readable by everyone
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(dataDirectory: directory)
        _ = FileManager.default.createFile(
            atPath: store.path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644])

        // When a session is saved over it
        try store.save(SessionStore.Saved(handle: "grace", token: "other"))

        // Then the file is 0600 with the new session
        #expect(try Self.mode(store.path) == 0o600)
        #expect(store.load()?.handle == "grace")
    }

    @Test func aRenewableSession_roundTrips_andAFileFromBeforeExpiryLoadsAsNotRenewable() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SessionStore(dataDirectory: directory)

        // A session with its renew token and expiries reads back whole
        let saved = SessionStore.Saved(
            handle: "ada", token: "tok_a", renewToken: "ren_a", expiresAt: 1_764_000_000_000,
            renewExpiresAt: 1_766_600_000_000)
        try store.save(saved)
        #expect(store.load() == saved)
        #expect(store.load()?.isRenewable == true)

        // A file an older version wrote (handle and token only) still loads, and is not renewable
        try Data(#"{"handle":"grace","token":"seed-grace"}"#.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load() == SessionStore.Saved(handle: "grace", token: "seed-grace"))
        #expect(store.load()?.isRenewable == false)
    }
}
