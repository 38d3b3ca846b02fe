import CommandLineKit
import Foundation
import PostgresStorage
import ServerTesting
import Storage
import Testing

/// `tools/deploy-local`: PostgreSQL, two backend-server processes and HAProxy on this machine,
/// as a person runs them; the apps' requests keep working when one server is killed.
@Suite struct DeployLocalTests {
    @Test func help_andBadOptions() throws {
        let help = try Subprocess.run(LocalDeployment.script, ["--help"])
        #expect(help.status == 0)
        let text = String(decoding: help.output, as: UTF8.self)
        #expect(text.contains("usage: tools/deploy-local [--servers N]") && text.contains("--demo"))
        let bad = try Subprocess.run(LocalDeployment.script, ["--servers", "0"])
        #expect(bad.status == 2)
        #expect(bad.errorText.contains("invalid value '0' for '--servers'; expected 1 to 16"))
    }

    /// Two servers behind HAProxy: a sign-in and a like go through; five wrong passwords spread
    /// over both lock the account on both; then one server is killed
    /// (SIGKILL) and every one of the next requests (reads and likes, each with its own key)
    /// still answers through the other; ctrl-c (SIGINT) stops everything and deletes the
    /// cluster's directory.
    @Test func twoServers_keepAnsweringWhenOneIsKilled() async throws {
        let deployment = try await LocalDeployment(servers: 2)
        let servers = deployment.servers
        let port = deployment.port

        let signIn = await Self.send(
            "POST", "/v1/sessions", body: #"{"handle":"ada","password":"loom-demo"}"#, port: port)
        let token = try #require(
            signIn.firstMatch(of: /"token":"(tok_[0-9a-f]+)"/)?.1, "\(signIn.prefix(300))")
        #expect(
            await Self.send("PUT", "/v1/posts/m1/like", token: String(token), key: "before", port: port)
                .hasPrefix("HTTP/1.1 200"))

        // Five wrong passwords, dealt round robin to both servers, lock grace's account on both:
        // the window is counted in the database they share.
        for guess in 1...5 {
            let wrong = await Self.send(
                "POST", "/v1/sessions", body: #"{"handle":"grace","password":"guess-\#(guess)"}"#, port: port)
            #expect(wrong.hasPrefix("HTTP/1.1 401"), "guess \(guess): \(wrong.prefix(200))")
        }
        for _ in 1...2 {
            let locked = await Self.send(
                "POST", "/v1/sessions", body: #"{"handle":"grace","password":"loom-demo"}"#, port: port)
            #expect(locked.hasPrefix("HTTP/1.1 429"), "\(locked.prefix(200))")
        }

        kill(servers[0], SIGKILL)
        var answers: [String] = []
        for index in 0..<20 {
            let response =
                index.isMultiple(of: 2)
                ? await Self.send("GET", "/v1/feed?limit=3", token: String(token), port: port)
                : await Self.send(
                    "PUT", "/v1/posts/m\(index + 2)/like", token: String(token), key: "after-\(index)",
                    port: port)
            answers.append(String(response.prefix(12)))
        }
        #expect(answers == Array(repeating: "HTTP/1.1 200", count: 20))

        #expect(await deployment.stop() == 0)
    }

    /// A like sent to server 1 reaches an event stream long-polling server 2 within a second of
    /// server 1 answering it. The two are separate processes, and server 2 re-reads only every
    /// 10 s: only the database's notification can wake it sooner.
    @Test func aLikeThroughOneServer_wakesALongPollOnTheOther_withinASecond() async throws {
        let deployment = try await LocalDeployment(servers: 2)
        let (first, second) = (deployment.serverPorts[0], deployment.serverPorts[1])
        var tokens: [String: String] = [:]
        for handle in ["ada", "grace"] {
            let signIn = await Self.send(
                "POST", "/v1/sessions", body: #"{"handle":"\#(handle)","password":"loom-demo"}"#,
                port: deployment.port)
            tokens[handle] = try #require(
                signIn.firstMatch(of: /"token":"(tok_[0-9a-f]+)"/).map { String($0.1) },
                "\(signIn.prefix(300))")
        }
        let database = try Database.postgres(deployment.databaseURL)
        let post = try #require(
            try database.queryFirst(
                #"SELECT p.id FROM posts p JOIN users u ON u.id = p.author WHERE u.handle = 'grace' ORDER BY p.id LIMIT 1"#
            ) { try $0.int64(0) })
        try database.close()

        let (ada, grace) = (tokens["ada"], tokens["grace"])
        let clock = ContinuousClock()
        let (poll, likedAt) = await withTaskGroup(of: (String, ContinuousClock.Instant).self) { group in
            group.addTask {
                let answer = await Self.send(
                    "GET", "/v1/events?cursor=latest&wait=20", token: grace, port: second)
                return (answer, clock.now)
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(500))  // the poll is waiting by then
                let like = await Self.send(
                    "PUT", "/v1/posts/m\(post)/like", token: ada, key: "across-processes",
                    port: first)
                #expect(like.hasPrefix("HTTP/1.1 200"), "\(like.prefix(200))")
                // Server 1 answers once the like is committed: from then on it is server 2's to hear.
                return ("", clock.now)
            }
            var answer = ""
            var answeredAt: ContinuousClock.Instant?
            var committedAt: ContinuousClock.Instant?
            // The like's task answers with no text, the poll's with the response.
            for await (text, instant) in group {
                if text.isEmpty { committedAt = instant } else { (answer, answeredAt) = (text, instant) }
            }
            return (answer, committedAt.flatMap { committed in answeredAt.map { $0 - committed } })
        }
        #expect(poll.hasPrefix("HTTP/1.1 200"), "\(poll.prefix(200))")
        #expect(poll.contains(#""kind":"like""#) && poll.contains(#""m\#(post)""#), "\(poll.prefix(600))")
        let waited = try #require(likedAt)
        #expect(
            waited < .seconds(1),
            "the long poll on server 2 answered \(waited) after server 1 answered the like")
        #expect(await deployment.stop() == 0)
    }

    /// The identity attacks that need no clock moved, through HAProxy to two server processes,
    /// each answer checked twice in a row so that both servers give it (round robin): a signed-out
    /// token, a replayed renew token (which revokes its whole family), an idempotency key reused
    /// for another change, and another account's conversation. (The security suite runs every
    /// identity attack against two in-process servers on one database, with a clock it moves.)
    @Test func identityAttacks_throughHAProxy_areRefusedByBothServers() async throws {
        let deployment = try await LocalDeployment(servers: 2)
        let port = deployment.port
        func signIn(_ handle: String) async throws -> (token: String, renew: String) {
            let answer = await Self.send(
                "POST", "/v1/sessions", body: #"{"handle":"\#(handle)","password":"loom-demo"}"#, port: port)
            return try Self.pair(answer)
        }
        func bothAnswer(
            _ method: String, _ path: String, body: String = "", token: String? = nil, key: String? = nil
        )
            async -> [String]
        {
            var statuses: [String] = []
            for _ in 1...2 {
                let answer = await Self.send(method, path, body: body, token: token, key: key, port: port)
                statuses.append(String(answer.prefix(12)))
            }
            return statuses
        }

        // A token signed out through one server is refused by both.
        let ada = try await signIn("ada")
        #expect(
            await Self.send("DELETE", "/v1/sessions/current", token: ada.token, port: port).hasPrefix(
                "HTTP/1.1 204"))
        #expect(await bothAnswer("GET", "/v1/me", token: ada.token) == ["HTTP/1.1 401", "HTTP/1.1 401"])

        // A renew token used again after its successor was renewed: refused by both, and every
        // session of that sign-in with it.
        let grace = try await signIn("grace")
        let second = try Self.pair(
            await Self.send(
                "POST", "/v1/sessions/renew", body: #"{"renewToken":"\#(grace.renew)"}"#, port: port))
        let third = try Self.pair(
            await Self.send(
                "POST", "/v1/sessions/renew", body: #"{"renewToken":"\#(second.renew)"}"#, port: port))
        #expect(
            await bothAnswer("POST", "/v1/sessions/renew", body: #"{"renewToken":"\#(grace.renew)"}"#)
                == ["HTTP/1.1 401", "HTTP/1.1 401"])
        #expect(await bothAnswer("GET", "/v1/me", token: third.token) == ["HTTP/1.1 401", "HTTP/1.1 401"])

        // An idempotency key: the same change again is answered as the first time by both; the
        // key reused for another change is refused by both.
        let alan = try await signIn("alan")
        #expect(
            await Self.send("PUT", "/v1/posts/m1/like", token: alan.token, key: "alan-1", port: port)
                .hasPrefix("HTTP/1.1 200"))
        for _ in 1...2 {
            let again = await Self.send(
                "PUT", "/v1/posts/m1/like", token: alan.token, key: "alan-1", port: port)
            #expect(
                again.hasPrefix("HTTP/1.1 200") && again.lowercased().contains("idempotent-replayed: true"))
        }
        #expect(
            await bothAnswer("PUT", "/v1/posts/m2/like", token: alan.token, key: "alan-1")
                == ["HTTP/1.1 409", "HTTP/1.1 409"])

        // Another account's conversation: neither server shows its messages.
        let ada2 = try await signIn("ada")
        let started = await Self.send(
            "POST", "/v1/conversations", body: #"{"members":["u2"]}"#, token: ada2.token, key: "ada-c",
            port: port)
        let conversation = try #require(
            started.firstMatch(of: /"id":"(c[0-9]+)"/)?.1, "\(started.prefix(300))")
        let outsider = await bothAnswer(
            "GET", "/v1/conversations/\(conversation)/messages", token: alan.token)
        #expect(outsider.allSatisfy { $0 == "HTTP/1.1 404" || $0 == "HTTP/1.1 403" }, "\(outsider)")
        #expect(
            await bothAnswer("GET", "/v1/conversations/\(conversation)/messages", token: ada2.token)
                == ["HTTP/1.1 200", "HTTP/1.1 200"])
        #expect(await deployment.stop() == 0)
    }

    /// The token and renew token of a session in a response.
    static func pair(_ answer: String) throws -> (token: String, renew: String) {
        let token = try #require(
            answer.firstMatch(of: /"token":"(tok_[0-9a-f]+)"/)?.1, "\(answer.prefix(300))")
        let renew = try #require(answer.firstMatch(of: /"renewToken":"([^"]+)"/)?.1, "\(answer.prefix(300))")
        return (String(token), String(renew))
    }

    static func send(
        _ method: String, _ path: String, body: String = "", token: String? = nil, key: String? = nil,
        port: Int
    )
        async -> String
    {
        var head =
            "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let key { head += "Idempotency-Key: \(key)\r\n" }
        return await PipedServerProcess.exchanging(head + "\r\n" + body, port: port)
    }
}
