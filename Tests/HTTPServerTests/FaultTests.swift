import Backend
import Foundation
import HTTPServer
import MediaModel
import Mutations
import ServerAPI
import ServerTesting
import Storage
import Testing
import Wire

/// The server's fault mode on a real socket.
@Suite struct FaultTests {
    @Test func aDroppedResponse_retriedWithTheSameKey_isAppliedOnce() async throws {
        // Given the real backend, with every change's response dropped after it is applied
        let fixture = try ServerFixture()
        let post: MediaID = "m1999"
        _ = try await fixture.client.send(.unlike(post), clientToken: "reset")
        let before = try await fixture.client.post(post).facts[post]?.likeCount ?? -1
        fixture.server.setFaults(.dropAfterApply)

        // When a like is sent, its response is lost (URLSession's own retry on a fresh
        // connection is dropped too), and the caller sees a retryable timeout
        var lost: TransportError?
        do { _ = try await fixture.client.send(.like(post), clientToken: "crash-1") } catch { lost = error }
        #expect(lost?.errorClass == .timeout)
        #expect(lost?.isRetryable == true)
        #expect(fixture.server.statistics.droppedAfterApply >= 1)

        // Then a retry with the same Idempotency-Key, once responses get through, is answered
        // from the first application: the like counts once
        fixture.server.setFaults(.none)
        let retry = try await fixture.client.send(.like(post), clientToken: "crash-1")
        #expect(retry.payload.replayed)
        #expect(retry.facts[post]?.likeCount == before + 1)
        #expect(try await fixture.client.post(post).facts[post]?.likeCount == before + 1)
        #expect(fixture.log.all.contains { $0.note == "dropped after apply (fault)" && $0.method == "PUT" })
        await fixture.stop()
    }

    @Test func aDroppedResponse_onARawSocket_closesWithoutAByte() async throws {
        let fixture = try ServerFixture(configure: { $0.faults = .dropAfterApply })
        let body = #"{"text":"once"}"#
        let post =
            "POST /v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(fixture.token)\r\nIdempotency-Key: raw-1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let posts = try fixture.backend.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) }
        let first = try fixture.raw()
        first.send(post)
        #expect(await first.readToEnd().isEmpty)

        fixture.server.setFaults(.none)
        let second = try fixture.raw()
        second.send(post)
        let response = try await second.readResponse()
        #expect(response.status == 201)
        #expect(response.headers["Idempotent-Replayed"] == "true")
        let after = try fixture.backend.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) }
        #expect(after.map { $0 - 1 } == posts)
        await fixture.stop()
    }

    @Test func reads_areNeverDropped() async throws {
        let fixture = try ServerFixture(configure: { $0.faults = .dropAfterApply })
        #expect(try await fixture.client.homeFeed(limit: 2).payload.entries.count == 2)
        #expect(fixture.server.statistics.droppedAfterApply == 0)
        await fixture.stop()
    }

    @Test func injected5xx_neverReachTheHandler() async throws {
        let fixture = try ServerFixture(configure: {
            $0.faults = HTTPFaultProfile(serverErrorRate: 1, serverErrorStatus: 502)
        })
        let posts = try fixture.backend.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) }
        do {
            _ = try await fixture.client.send(.post(text: "never", attachments: []), clientToken: "5xx")
            Issue.record("an injected 502 was not an error")
        } catch {
            #expect(error.errorClass == .serverError)
            #expect(error.status == 502)
            #expect(error.serverCode == "injected_fault")
            #expect(error.retryAfter == .seconds(1))
        }
        #expect(try fixture.backend.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) } == posts)
        await fixture.stop()
    }

    @Test func latency_delaysButDeliversEveryRequest() async throws {
        let fixture = try ServerFixture(configure: {
            $0.faults = HTTPFaultProfile(latency: .uniform(.milliseconds(5), .milliseconds(20)))
        })
        for _ in 0..<3 { #expect(try await fixture.client.me().payload.user.handle == "ada") }
        #expect(fixture.server.faults.latency == .uniform(.milliseconds(5), .milliseconds(20)))
        await fixture.stop()
    }

    @Test func aSeed_replaysTheSameFaults() async throws {
        func outcomes(seed: UInt64) async throws -> [Int] {
            let server = try startServer(configure: {
                $0.faults = HTTPFaultProfile(serverErrorRate: 0.5, seed: seed)
            }) { _ in Response(status: 200) }
            let client = try RawClient(port: server.port)
            var statuses: [Int] = []
            for _ in 0..<20 {
                client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                statuses.append(try await client.readResponse().status)
            }
            _ = await server.shutdown()
            return statuses
        }
        let first = try await outcomes(seed: 7)
        #expect(try await outcomes(seed: 7) == first)
        #expect(Set(first) == [200, 503])
    }
}
