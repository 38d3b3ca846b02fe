@_spi(Testing) import Backend
import Foundation
import PhotoTesting
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

/// The backend on PostgreSQL answers exactly as on SQLite (issue 33): one script of requests
/// covering every route that writes or reads (sign-in and renewal, posts with a photo, replies,
/// likes, reposts, follows, deletes, profiles, threads, the account list and search, events,
/// conversations and messages, idempotent retries and refusals) runs against a backend of each,
/// and every status and body matches once the random parts (tokens, photo names) are masked.
@Suite struct BackendOnPostgresTests {
    /// One request of the script: who sends it, what, and the statuses it may get.
    struct Step {
        var who: String
        var method: HTTPMethod
        var path: String
        var query: [String: String] = [:]
        var body: String?
        var key: String?
        var expected: ClosedRange<Int> = 200...299
    }

    static func script() throws -> [Step] {
        let photo = try PhotoBytes.jpeg(width: 640, height: 480)
        return [
            Step(
                who: "-", method: .post, path: "/v1/sessions",
                body: #"{"handle":"ada","password":"loom-demo"}"#),
            Step(
                who: "-", method: .post, path: "/v1/sessions", body: #"{"handle":"ada","password":"wrong"}"#,
                expected: 401...401),
            Step(who: "ada", method: .get, path: "/v1/feed", query: ["limit": "5"]),
            Step(who: "ada", method: .post, path: "/v1/posts", body: #"{"text": "on postgres"}"#, key: "p1"),
            Step(who: "ada", method: .post, path: "/v1/posts", body: #"{"text": "on postgres"}"#, key: "p1"),
            Step(
                who: "ada", method: .post, path: "/v1/posts",
                body: PhotoUploadTests.body("harbour", [(photo, "boats")]), key: "p2"),
            Step(who: "grace", method: .put, path: "/v1/posts/m1/like", key: "l1"),
            Step(who: "grace", method: .put, path: "/v1/posts/m1/like", key: "l2"),
            Step(who: "grace", method: .put, path: "/v1/posts/m2/repost", key: "r1"),
            Step(
                who: "grace", method: .post, path: "/v1/posts/m1/replies", body: #"{"text": "a reply"}"#,
                key: "re1"),
            Step(who: "grace", method: .put, path: "/v1/users/u1/follow", key: "f1"),
            Step(who: "ada", method: .delete, path: "/v1/posts/m2/like", key: "l3"),
            Step(who: "ada", method: .get, path: "/v1/posts/m1/thread"),
            Step(who: "ada", method: .get, path: "/v1/users/u2"),
            Step(who: "ada", method: .get, path: "/v1/me"),
            Step(
                who: "ada", method: .put, path: "/v1/me/profile",
                body: #"{"displayName": "Ada L.", "bio": "engines"}"#, key: "e1"),
            Step(who: "ada", method: .get, path: "/v1/accounts", query: ["limit": "4"]),
            Step(who: "ada", method: .get, path: "/v1/accounts", query: ["handle": "grace"]),
            Step(who: "ada", method: .get, path: "/v1/events", query: ["wait": "0"]),
            Step(who: "ada", method: .post, path: "/v1/conversations", body: #"{"members": ["u2", "u3"]}"#),
            Step(
                who: "ada", method: .post, path: "/v1/conversations/c1/messages",
                body: #"{"text": "hello both"}"#, key: "dm1"),
            Step(who: "grace", method: .get, path: "/v1/conversations"),
            Step(who: "grace", method: .get, path: "/v1/conversations/c1/messages"),
            Step(
                who: "grace", method: .put, path: "/v1/conversations/c1/read", body: #"{"messageID": "dm1"}"#),
            Step(who: "ada", method: .delete, path: "/v1/posts/m99999", key: "d0", expected: 404...404),
            Step(who: "ada", method: .get, path: "/v1/feed", query: ["limit": "20"]),
            Step(who: "grace", method: .get, path: "/v1/feed", query: ["limit": "20"]),
            Step(who: "ada", method: .delete, path: "/v1/sessions/current"),
            Step(who: "ada", method: .get, path: "/v1/me", expected: 401...401),
        ]
    }

    @Test func everyRoute_answersOnPostgres_asOnSQLite() async throws {
        let script = try Self.script()
        let onSQLite = try await Self.run(
            script, on: BackendServer.seededCopy(clock: ManualClock(), demoMode: true))
        let url = try SharedPostgres.newDatabaseURL("every_route")
        let onPostgres = try await Self.run(
            script,
            on: BackendServer(
                opening: { try Database.postgres(url, readOnly: $0) }, clock: ManualClock(), demoMode: true,
                sessionPolicy: BackendServer.SessionPolicy(passwordCost: .minimal)))
        #expect(onSQLite.count == script.count && onPostgres.count == script.count)
        for (index, (sqlite, postgres)) in zip(onSQLite, onPostgres).enumerated() {
            let step = script[index]
            #expect(
                step.expected.contains(sqlite.status),
                "SQLite, step \(index) \(step.method) \(step.path): \(sqlite)")
            #expect(sqlite == postgres, "step \(index) \(step.method) \(step.path)")
        }
    }

    /// Runs the script on `server` and returns each answer, masked.
    static func run(_ script: [Step], on server: BackendServer) async throws -> [Answer] {
        defer { server.close() }
        var tokens = ["grace": server.testToken(forHandle: "grace")]
        var answers: [Answer] = []
        for step in script {
            var headers: Headers = [:]
            if let token = tokens[step.who] { headers["Authorization"] = "Bearer \(token)" }
            if let key = step.key { headers["Idempotency-Key"] = key }
            let query = step.query.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) }
            let response = await server.handle(
                Request(
                    step.method, step.path, query: query, headers: headers, body: Data((step.body ?? "").utf8)
                ))
            let body = String(decoding: response.body, as: UTF8.self)
            if step.path == "/v1/sessions", (200...201).contains(response.status),
                let token = body.firstMatch(of: /"token":"(tok_[^"]+)"/)?.1
            {
                tokens["ada"] = String(token)
            }
            answers.append(Answer(status: response.status, body: Self.masked(body)))
        }
        return answers
    }

    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var body: String
        var description: String { "\(status) \(body.prefix(600))" }
    }

    /// The body with what is random in every run (tokens, renew tokens, photo names) masked.
    static func masked(_ body: String) -> String {
        body.replacing(/tok_[A-Za-z0-9_-]+/, with: "tok_*").replacing(/ren_[A-Za-z0-9_-]+/, with: "ren_*")
            .replacing(/p[0-9a-f]{32}/, with: "p*")
    }
}
