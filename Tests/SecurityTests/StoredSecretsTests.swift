@_spi(Testing) import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// What a copy of the server's database gives away.
@Suite struct StoredSecretsTests {
    @Test func theDatabaseHoldsNoTokenAndNoPassword() async throws {
        // Given a sign-in, a renewal and a new account with its password
        let target = try AttackTarget()
        let ada = try await target.session("ada")
        let renewed = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(ada.renewToken)"}"#)
        #expect(renewed.status == 200)
        let password = "zoe's long secret"
        let created = try await target.createAccount("zoe", password: password, key: "signup-zoe")
        let zoe = try #require(Session(created.json["account"]))
        var secrets = [ada.token, zoe.token, password]
        if let second = Session(renewed.json["session"]) { secrets += [second.token, second.renewToken] }
        secrets += [ada.renewToken, zoe.renewToken].filter { !$0.isEmpty }

        // When someone reads every row of every table
        let database = target.backend.database
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            try $0.string(0)
        }
        var text = ""
        for table in tables {
            for row in try database.query("SELECT * FROM \"\(table)\"") {
                text += row.values.map { "\($0)" }.joined(separator: "|") + "\n"
            }
        }
        // Then no secret is there, and no seed-style token either
        #expect(tables.contains("sessions"))
        #expect(text.contains("zoe"))
        for secret in secrets { #expect(!text.contains(secret), "\(secret.prefix(8))… is stored") }
        #expect(!text.contains("seed-"))
        // nor in the file's bytes (the database and its write-ahead log)
        let path = target.backend.databasePath
        for file in [path, path + "-wal"] {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file)") }
        }
        await target.stop()
    }

    @Test func passwordsAreScryptHashes_withASaltOfTheirOwn() async throws {
        // Given two accounts with the same password
        let target = try AttackTarget()
        for handle in ["zoe", "yann_2"] {
            let created = try await target.createAccount(
                handle, password: "same password", key: "signup-\(handle)")
            #expect(created.status == 201)
        }
        // When their stored hashes are read
        let hashes = try target.backend.database.query(
            "SELECT password_hash FROM users WHERE handle IN ('zoe', 'yann_2') ORDER BY handle"
        ) { try $0.string(0) }
        // Then each is scrypt with its parameters, a 16-byte salt and a 32-byte hash, and they differ
        #expect(hashes.count == 2)
        for hash in hashes {
            let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
            #expect(parts.count == 5)
            #expect(parts.dropFirst().first == "scrypt")
            #expect(parts.dropFirst(2).first == "ln=15,r=8,p=1")
            #expect(Data(base64Encoded: String(parts.last ?? "") + "=")?.count == 32)
            #expect(Data(base64Encoded: String(parts.dropLast().last ?? "") + "==")?.count == 16)
        }
        #expect(Set(hashes).count == 2)
        #expect(Set(hashes.map { $0.split(separator: "$").dropLast().last }).count == 2, "the salts repeat")
        await target.stop()
    }
}
