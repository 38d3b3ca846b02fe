import Foundation
import ServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 34: `backend-server` let every route's body grow to 40 MiB (a post's photos) and read all
/// of it before the route answered 413; now each route's limit, declared by the backend, is
/// checked from the head.
@Suite struct BackendServerBodyLimitTests {
    @Test func aSignInAnnouncingTwoMegabytes_isAnswered413FromTheHead_andClosed() async throws {
        let (server, port, directory) = try await BackendServerOutputTests.start(["--quiet"])
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // When a sign-in announces 2 MB (over its 1 MiB, under a post's 40 MiB) and sends no body
        let client = try RawClient(port: port)
        client.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")

        // Then its head alone is answered 413, and the connection closed
        let response = try await client.readResponse()
        #expect(response.status == 413)
        #expect(response.errorCode == "body_too_large")
        #expect(
            response.errorMessage
                == "the body is 2000000 bytes, more than the 1048576 bytes POST /v1/sessions accepts; send less"
        )
        #expect(await client.isClosedByServer())

        // And a post may still announce as much
        let post = try RawClient(port: port)
        post.send(
            "POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n")
        #expect(try await post.readResponse().status == 100)
        post.reset()
        server.kill(SIGINT)
        #expect(await server.exitStatus() == 0)
    }
}
