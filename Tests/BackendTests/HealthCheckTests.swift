@_spi(Testing) import Backend
import Foundation
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

/// `GET /healthz`, what a load balancer asks each server: 200 only while the database answers.
@Suite struct HealthCheckTests {
    @Test func onSQLite_itAnswersOK_withoutAToken() async throws {
        let server = try BackendServer.seededCopy()
        defer { server.close() }
        let response = await server.handle(Request(.get, "/healthz"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"status":"ok"}"#)
    }

    /// The database stops under a running server: health says 503 with the reason (so the
    /// balancer takes the server out), and once the database is back the same server answers
    /// again, its connections made anew, with no restart.
    @Test func onPostgres_itFollowsTheDatabase_downAndBackUp() async throws {
        let cluster = try PostgresCluster.start(durable: true)
        defer { cluster.stop() }
        let url = try cluster.createDatabase("health")
        let server = try BackendFixture.onPostgres(url)
        defer { server.close() }
        let token = server.testToken(forHandle: BackendSeed.firstHandle)
        let feed = Request(.get, "/v1/feed", headers: ["Authorization": "Bearer \(token)"])
        #expect(await server.handle(Request(.get, "/healthz")).status == 200)

        cluster.stopServer()
        let down = await server.handle(Request(.get, "/healthz"))
        #expect(down.status == 503)
        #expect(String(decoding: down.body, as: UTF8.self).contains("the backend's database does not answer"))
        #expect(down.headers["Retry-After"] == "1")

        try cluster.startServer()
        let up = await server.handle(Request(.get, "/healthz"))
        #expect(up.status == 200, "\(String(decoding: up.body, as: UTF8.self))")
        #expect(await server.handle(feed).status == 200)
        let like = await server.handle(
            Request(
                .put, "/v1/posts/m1/like",
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": "k1"]))
        #expect(like.status == 200, "\(String(decoding: like.body, as: UTF8.self))")
    }
}
