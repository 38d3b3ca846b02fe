@_spi(Testing) import Backend
import Foundation
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

/// On PostgreSQL, an event written through one server wakes a long poll waiting on another at
/// once (issue 33): the write NOTIFYs at commit and every server LISTENs.
@Suite struct EventsAcrossServersTests {
    /// Server B's clock never moves, so its long poll's re-read never comes: only the
    /// notification from server A can end the wait before the test gives up (30 s: in a full
    /// run on 2 cores the poll's own task once waited longer than 10 s for its turn).
    @Test func aLikeThroughOneServer_endsALongPollOnTheOther() async throws {
        let url = try SharedPostgres.newDatabaseURL("events_across")
        func server() throws -> BackendServer {
            try BackendFixture.onPostgres(url)
        }
        let (first, second) = (try server(), try server())
        defer {
            first.close()
            second.close()
        }
        let grace = second.testToken(forHandle: "grace")
        let ada = first.testToken(forHandle: "ada")
        let post = try #require(
            try second.database.queryFirst(
                "SELECT p.id FROM posts p JOIN users u ON u.id = p.author WHERE u.handle = 'grace' ORDER BY p.id LIMIT 1"
            ) { try $0.int64(0) })

        let answer = try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask {
                await second.handle(
                    Request(
                        .get, "/v1/events", query: [QueryItem("cursor", "latest"), QueryItem("wait", "20")],
                        headers: ["Authorization": "Bearer \(grace)"]))
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(300))  // the poll is waiting by then
                let like = await first.handle(
                    Request(
                        .put, "/v1/posts/m\(post)/like",
                        headers: ["Authorization": "Bearer \(ada)", "Idempotency-Key": "across"]))
                #expect(like.status == 200)
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let response = try #require(answer, "the long poll on the other server was not woken within 30 s")
        #expect(response.status == 200)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains(#""kind":"like""#) && body.contains(#""m\#(post)""#), "\(body.prefix(400))")
    }
}
