@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import Imaging
import MediaModel
import Mutations
import PhotoTesting
import ServerAPI
import Testing
import Wire

/// A photo post over real HTTP: a body over the server's default 1 MiB goes through once the
/// server takes the backend's limit, and the variant route answers with JPEG bytes.
@Suite struct PhotoUploadOverHTTPTests {
    /// A JPEG of noise (which compresses badly), over 1 MiB.
    static func largeJPEG() throws -> [UInt8] {
        var state: UInt32 = 12345
        var rgb = [UInt8](repeating: 0, count: 1400 * 1000 * 3)
        for index in rgb.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            rgb[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return try ImageEncoder.jpeg(Raster(width: 1400, height: 1000, rgb: rgb), quality: 95)
    }

    static func post(_ fixture: ServerFixture, file: String) async throws -> MutationResult {
        let photo = Attachment.Photo(
            width: 1, height: 1,
            pixels: PixelImage(width: 1, height: 1, filledWith: .init(red: 0, green: 0, blue: 0)),
            file: file)
        return try await fixture.client.send(
            .post(
                text: "noise", attachments: [.photo(photo)]), clientToken: "n1"
        )
        .payload
    }

    @Test func aPhotoOverOneMebibyte_isPostedAndServedByWidth() async throws {
        // Given a server taking the backend's body limit, and a JPEG of more than 1 MiB
        let fixture = try ServerFixture { $0.limits.bodyBytes = BackendServer.maximumRequestBodySize }
        let jpeg = try Self.largeJPEG()
        #expect(jpeg.count > 1 << 20)
        let file = try PhotoBytes.write(jpeg, named: "noise.jpg")

        // When it is posted over HTTP
        let result = try await Self.post(fixture, file: file)

        // Then the server stored it, and serves its 640 variant as a JPEG
        guard case .photo(let stored)? = result.media?.attachments.first else {
            Issue.record("no photo in \(String(describing: result.media))")
            await fixture.stop()
            return
        }
        #expect(stored.width == 1400 && stored.height == 1000)
        let id = try #require(stored.id)
        let variant = try await fixture.transport.send(
            Request(
                .get, "/v1/photos/\(id)", query: [QueryItem("width", "600")],
                headers: ["Authorization": "Bearer \(fixture.token)"]))
        #expect(variant.status == 200)
        #expect(variant.headers["Content-Type"] == "image/jpeg")
        let info = try ImageDecoder().info([UInt8](variant.body))
        #expect(info.width == 640 && info.height == 457)
        await fixture.stop()
    }

    @Test func theServersDefaultBodyLimit_refusesTheSamePhotoWith413() async throws {
        let fixture = try ServerFixture()
        let file = try PhotoBytes.write(try Self.largeJPEG(), named: "noise.jpg")

        await #expect {
            _ = try await Self.post(fixture, file: file)
        } throws: { error in
            (error as? TransportError)?.status == 413
        }
        await fixture.stop()
    }
}
