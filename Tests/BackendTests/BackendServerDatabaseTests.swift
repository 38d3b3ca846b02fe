import CommandLineKit
import Foundation
import PostgresStorage
import PostgresTesting
import ServerTesting
import Storage
import Testing

/// `backend-server --database`: the server on PostgreSQL, as a person starts it.
@Suite struct BackendServerDatabaseTests {
    static var executable: String { PipedServerProcess.backendServerPath }

    @Test func aURLThatIsNotPostgres_isAUsageError() throws {
        let result = try Subprocess.run(Self.executable, ["--database", "mysql://loom@127.0.0.1/loom"])
        #expect(result.status == 2)
        #expect(result.errorText.contains("expected a PostgreSQL URL such as postgres://"))
    }

    @Test func aDatabaseAndADataDirectory_areAUsageError() throws {
        let result = try Subprocess.run(
            Self.executable, ["--database", "postgres://loom@127.0.0.1/loom", "--data-dir", "/tmp/x"])
        #expect(result.status == 2)
        #expect(result.errorText.contains("--database and --data-dir name two databases"))
    }

    @Test func aServerNobodyAnswers_failsToStart_namingIt_withoutThePassword() throws {
        let port = try SharedPostgres.freePort()
        let result = try Subprocess.run(
            Self.executable, ["--port", "0", "--database", "postgres://loom:hunter2@127.0.0.1:\(port)/loom"])
        #expect(result.status == 1)
        #expect(
            result.errorText.contains(
                "cannot connect to PostgreSQL at postgres://loom:***@127.0.0.1:\(port)/loom"))
        #expect(!result.errorText.contains("hunter2"))
    }

    @Test func onANewDatabase_itMigratesSeedsAndServes_aDemoSignInAndTheFeed() async throws {
        let url = try SharedPostgres.newDatabaseURL("backend_server_command")
        let (server, line) = try await PipedServerProcess.start(
            Self.executable, ["--port", "0", "--database", url, "--demo", "--quiet"],
            waitingFor: "listening on ")
        defer { server.kill(SIGTERM) }
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "\(line)")
        let signIn = await PipedServerProcess.exchanging(
            "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 41\r\nConnection: close\r\n\r\n"
                + #"{"handle":"ada","password":"loom-demo"}  "#, port: port)
        #expect(signIn.hasPrefix("HTTP/1.1 20"), "\(signIn.prefix(300))")
        let token = try #require(signIn.firstMatch(of: /"token":"(tok_[0-9a-f]+)"/)?.1)
        let feed = await PipedServerProcess.exchanging(
            "GET /v1/feed?limit=3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n",
            port: port)
        #expect(feed.hasPrefix("HTTP/1.1 200"), "\(feed.prefix(300))")
        #expect(feed.contains(#""nextCursor":"f"#))
        // The seeded tables have statistics at once: without them PostgreSQL planned the feed's
        // ranking walk as a scan of every post until its autovacuum analyzed them, a minute on.
        let database = try Database.postgres(url)
        defer { try? database.close() }
        let analyzed = try database.query(
            "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL AND relname IN ('posts', 'reposts', 'follows') ORDER BY relname"
        ) { try $0.string(0) }
        #expect(analyzed == ["follows", "posts", "reposts"])
    }
}

extension BackendServerDatabaseTests {
    /// A database a newer build migrated (its schema version beyond this build's last
    /// migration) is refused at start, saying so, and left as it was.
    @Test func aDatabaseFromANewerBuild_isRefused_withAClearMessage() throws {
        let url = try SharedPostgres.newDatabaseURL("newer_build")
        let database = try Database.postgres(url)
        try database.execute("CREATE TABLE storage_schema (version BIGINT NOT NULL)")
        try database.execute("INSERT INTO storage_schema (version) VALUES (99)")
        let result = try Subprocess.run(Self.executable, ["--port", "0", "--database", url])
        #expect(result.status == 1)
        #expect(
            result.errorText.contains("the database is at schema version 99, newer than this build's latest"))
        #expect(result.errorText.contains("written by a newer build"))
        #expect(
            try database.queryFirst("SELECT COUNT(*) FROM storage_schema WHERE version = 99") {
                try $0.int(0)
            } == 1)
        #expect(try database.query("SELECT to_regclass('users') IS NULL") { try $0.bool(0) } == [true])
    }
}
