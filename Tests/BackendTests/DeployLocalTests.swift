import CommandLineKit
import Foundation
import ServerTesting
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
