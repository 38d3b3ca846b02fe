@_spi(Testing) import Backend
import Foundation
import Wire

/// Posts made straight on an embedded backend to fill a bench's feed.
enum BenchPosts {
    /// The followed accounts a bench's posts rotate through.
    static let authors = ["grace", "donald", "katherine", "radia", "hedy"]

    /// Posts `body` (the JSON of `POST /v1/posts`) as `author`, under the idempotency key `key`.
    ///
    /// - Throws: `BenchSetupError` with the status and the server's answer when it is not 201.
    static func post(_ body: String, as author: String, key: String, on server: BackendServer) async throws {
        let response = await server.handle(
            Request(
                .post, "/v1/posts",
                headers: [
                    "Authorization": "Bearer \(server.testToken(forHandle: author))",
                    "Idempotency-Key": key, "Content-Type": "application/json",
                ], body: Data(body.utf8)))
        guard response.status == 201 else {
            throw BenchSetupError(
                "could not post: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
    }
}
