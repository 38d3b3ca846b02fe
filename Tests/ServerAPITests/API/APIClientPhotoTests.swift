@_spi(Testing) import Backend
import Foundation
import Imaging
import MediaModel
import NetworkingTesting
import PhotoTesting
import ServerAPI
import Storage
import Testing
import Wire

/// The post's answer named no stored photo.
struct PhotoIDMissing: Error, CustomStringConvertible {
    let answer: String
    var description: String { "no photo id in the post's answer: \(answer)" }
}

@Suite struct APIClientPhotoTests {
    /// Posts a 640x400 JPEG as ada and returns the stored photo's id.
    static func storePhoto(on fixture: NetworkFixture) async throws -> String {
        let jpeg = try PhotoBytes.jpeg(width: 640, height: 400)
        let body =
            #"{"text": "A photo", "attachments": [{"type": "photo", "data": "\#(Data(jpeg).base64EncodedString())"}]}"#
        let response = await fixture.server.handle(
            Request(
                .post, "/v1/posts",
                headers: [
                    "Authorization": "Bearer \(fixture.server.testToken(forHandle: BackendSeed.firstHandle))",
                    "Content-Type": "application/json", "Idempotency-Key": UUID().uuidString,
                ], body: Data(body.utf8)))
        try #require(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        // The id from the answer: a stored photo's id is random, not the next number.
        let json = try JSONValue(parsing: response.body)
        guard case .object(let document) = json, case .object(let mutation)? = document["mutation"],
            case .object(let media)? = mutation["media"],
            case .array(let attachments)? = media["attachments"],
            case .object(let photo)? = attachments.first, case .string(let id)? = photo["id"]
        else { throw PhotoIDMissing(answer: String(decoding: response.body, as: UTF8.self)) }
        return id
    }

    @Test func aVariant_isTheSmallestStoredOneAtLeastThatWide() async throws {
        // Given a stored 640x400 photo (variants 160, 320 and 640 wide)
        let fixture = try NetworkFixture()
        let id = try await Self.storePhoto(on: fixture)

        // When the client asks for it 100 and 400 pixels wide
        let small = try await fixture.client.photo(id, width: 100)
        let large = try await fixture.client.photo(id, width: 400)

        // Then it gets the JPEG of the 160 and the 640 variant
        #expect(try ImageDecoder().info([UInt8](small)).width == 160)
        #expect(try ImageDecoder().info([UInt8](large)).width == 640)
    }

    @Test func failures_areClassifiedLikeEveryOtherCall() async throws {
        let fixture = try NetworkFixture()
        let id = try await Self.storePhoto(on: fixture)

        // An unknown photo is 404, not retryable
        do {
            _ = try await fixture.client.photo("p999", width: 80)
            Issue.record("an unknown photo was not an error")
        } catch {
            #expect(error.errorClass == .notFound && !error.isRetryable)
        }

        // Offline is offline, retryable
        fixture.transport.injectFaults([.offline])
        do {
            _ = try await fixture.client.photo(id, width: 80)
            Issue.record("offline was not an error")
        } catch {
            #expect(error.errorClass == .offline && error.isRetryable)
        }
    }
}
