import Foundation
import Storage
import Testing
import Wire

@_spi(Testing) @testable import Backend

/// Opening a database made before identity (schema 2: plaintext tokens in `users`).
@Suite struct IdentityMigrationTests {
    /// A schema-2 database with two seed accounts (tokens `seed-<handle>`), an account made with
    /// the key "signup-zoe" (its response, token included, recorded as an anonymous mutation), and
    /// posts, likes and events pointing at the users.
    static func databaseBeforeIdentity() throws -> String {
        let directory = try BackendServer.makeTemporaryDirectory("before-identity")
        let database = try Database(
            path: (directory as NSString).appendingPathComponent(BackendServer.databaseFileName))
        try database.migrate(Array(BackendSchema.migrations.prefix(2)))
        try database.withConnection { db in
            try db.executeScript(
                """
                INSERT INTO meta (key, value) VALUES ('seed', '1');
                INSERT INTO users (id, handle, display_name, bio, token, created_at, json) VALUES
                    (1, 'ada', 'Ada', '', 'seed-ada', 1, '{"id":"u1","handle":"ada"}'),
                    (2, 'grace', 'Grace', '', 'seed-grace', 2, '{"id":"u2","handle":"grace"}'),
                    (3, 'zoe', 'Zoe', '', 'tok_00000000000000000000000000000042', 3, '{"id":"u3","handle":"zoe"}');
                INSERT INTO posts (id, author, created_at, json) VALUES (1, 2, 10, '{}'), (2, 3, 11, '{}');
                INSERT INTO likes (user, post, created_at) VALUES (1, 2, 12);
                INSERT INTO events (recipient, kind, actor, post, created_at) VALUES (3, 'like', 1, 2, 12);
                INSERT INTO mutations (user, token, fingerprint, status, body, created_at) VALUES
                    (0, 'signup-zoe', 'f', 201,
                     CAST('{"account":{"clientToken":"signup-zoe","token":"tok_00000000000000000000000000000042","user":{"id":"u3","handle":"zoe"}},"version":1}' AS BLOB), 3),
                    (1, 'like-1', 'f', 200, CAST('{}' AS BLOB), 12);
                """)
        }
        try database.close()
        return directory
    }

    @Test func migrating_dropsEveryStoredToken_marksTheSeedAccountsDemo_andKeepsTheRows() async throws {
        // Given a database from before identity
        let directory = try Self.databaseBeforeIdentity()

        // When a backend in demo mode opens it
        let server = try BackendServer(directory: directory, clock: ManualClock(), demoMode: true)
        defer { server.close() }

        // Then no token is stored, the seed accounts are demo accounts with the demo password, and
        // the account made with a key keeps that key (but not its response, which held a token)
        let columns = try server.database.query("SELECT name FROM pragma_table_info('users')") {
            try $0.string(0)
        }
        #expect(!columns.contains("token"))
        let users = try server.database.query(
            "SELECT handle, demo, password_hash IS NOT NULL FROM users ORDER BY id"
        ) {
            "\(try $0.string(0)) demo=\(try $0.int(1)) password=\(try $0.bool(2))"
        }
        #expect(
            users == ["ada demo=1 password=true", "grace demo=1 password=true", "zoe demo=0 password=false"])
        #expect(
            try server.database.query("SELECT key, user FROM account_keys") {
                "\(try $0.string(0)) \(try $0.int(1))"
            } == ["signup-zoe 3"])
        #expect(
            try server.database.query("SELECT user, token FROM mutations") {
                "\(try $0.int(0)) \(try $0.string(1))"
            } == ["1 like-1"])
        #expect(
            try server.database.query("SELECT COUNT(*) FROM pragma_foreign_key_check") { try $0.int(0) } == [
                0
            ])
        #expect(try server.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) } == [2])

        // and the demo password signs ada in; the old tokens and zoe (who has no password) get nothing
        let signIn = await server.handle(
            Request(.post, "/v1/sessions", body: Data(#"{"handle": "ada", "password": "loom-demo"}"#.utf8)))
        #expect(signIn.status == 200)
        let zoe = await server.handle(
            Request(
                .post, "/v1/sessions", body: Data(#"{"handle": "zoe", "password": "anything at all"}"#.utf8)))
        #expect(zoe.status == 401)
        for token in ["seed-ada", "tok_00000000000000000000000000000042"] {
            let me = await server.handle(
                Request(.get, "/v1/me", headers: ["Authorization": "Bearer \(token)"]))
            #expect(me.status == 401, "\(token)")
        }
    }
}
