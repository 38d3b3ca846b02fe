@_spi(Testing) import Backend
import Foundation
import Imaging
import MediaModel
import PhotoTesting
import Storage
import Testing
import Wire

/// Photos uploaded with a post: checked from their bytes, stored with resized variants, served
/// by width.
@Suite struct PhotoUploadTests {
    /// A post body carrying `photos` as base64 `data`, each with its alt text; several make a
    /// carousel.
    static func body(_ text: String, _ photos: [(bytes: [UInt8], alt: String?)]) -> String {
        let items: [JSONValue] = photos.map { photo in
            var fields: [String: JSONValue] = [
                "type": "photo", "data": .string(Data(photo.bytes).base64EncodedString()),
            ]
            if let alt = photo.alt { fields["alt"] = .string(alt) }
            return .object(fields)
        }
        let attachments: [JSONValue] =
            items.count > 1 ? [["type": "carousel", "items": .array(items)]] : items
        let json = JSONValue.object(["text": .string(text), "attachments": .array(attachments)]).serialized()
        return String(decoding: json, as: UTF8.self)
    }

    /// The rows of `table`; for `photos` and `photo_variants`, of the photos stored after the
    /// seed's (those are dated by their posts, all before any request).
    static func count(_ server: BackendServer, _ table: String) throws -> Int {
        let uploaded =
            "SELECT id FROM photos WHERE created_at > (SELECT MAX(created_at) FROM posts WHERE client_token IS NULL)"
        switch table {
        case "photos":
            return try Expectations.scalar(server, "SELECT COUNT(*) FROM photos WHERE id IN (\(uploaded))")
        case "photo_variants":
            return try Expectations.scalar(
                server, "SELECT COUNT(*) FROM photo_variants WHERE photo IN (\(uploaded))")
        default: return try Expectations.scalar(server, "SELECT COUNT(*) FROM \(table)")
        }
    }

    /// The newest stored photo's variants.
    static let newestVariants = "FROM photo_variants WHERE photo = (SELECT MAX(id) FROM photos)"

    @Test func aPostWithAJPEG_storesTheOriginalAndVariantsAndAnswersWithTheStoredPhoto() async throws {
        // Given a 2000x1000 JPEG
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let jpeg = try PhotoBytes.jpeg(width: 2000, height: 1000)

        // When ada posts it
        let response = await client.send(
            .post, "/v1/posts", body: Self.body("harbour", [(jpeg, "boats at dusk")]), key: "photo-1")

        // Then the post's photo is the stored one: its id, true size, alt text, and a rendition
        // from the real pixels (left dark red, right bright red, as the gradient)
        #expect(response.status == 201, "\(response.text)")
        let photo = response.json["mutation", "media", "attachments", 0]
        let id = try #require(photo["id"].stringValue)
        #expect(id.hasPrefix("p"))
        #expect(photo["width"].int == 2000)
        #expect(photo["height"].int == 1000)
        #expect(photo["alt"].stringValue == "boats at dusk")
        #expect(photo["data"] == .null)
        let pixels = try Attachment.Photo(json: photo, at: .root).pixels
        #expect(pixels.width == 64 && pixels.height == 32)
        let left = try #require(pixels.pixel(x: 0, y: 16))
        let right = try #require(pixels.pixel(x: 63, y: 16))
        #expect(left.red < 20 && right.red > 235, "left \(left), right \(right)")

        // And the original and four variants, none wider than the original, are stored
        let original = try server.database.queryFirst("SELECT original FROM photos ORDER BY id DESC") {
            try $0.data(0)
        }
        #expect(original.map { [UInt8]($0) } == jpeg)
        let widths = try server.database.query("SELECT width \(Self.newestVariants) ORDER BY width") {
            try $0.int(0)
        }
        #expect(widths == [160, 320, 640, 1280])

        // And the variant route serves the smallest variant at least as wide as asked, else the
        // largest, as JPEG of that size
        for (asked, served) in [("300", 320), ("320", 320), ("1", 160), ("2000", 1280), (nil, 1280)] {
            let variant = await client.get("/v1/photos/\(id)", asked.map { ["width": $0] } ?? [:])
            #expect(variant.status == 200)
            #expect(variant.headers["Content-Type"] == "image/jpeg")
            let info = try ImageDecoder().info([UInt8](variant.body))
            #expect(info.width == served && info.height == served / 2, "width=\(asked ?? "none")")
        }
    }

    @Test func aSmallPNG_isStoredAtItsOwnWidthAndNeverWider() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let png = try PhotoBytes.png(width: 200, height: 100)

        let response = await client.send(.post, "/v1/posts", body: Self.body("", [(png, nil)]), key: "png-1")

        #expect(response.status == 201, "\(response.text)")
        let id = try #require(response.json["mutation", "media", "attachments", 0, "id"].stringValue)
        let widths = try server.database.query("SELECT width \(Self.newestVariants) ORDER BY width") {
            try $0.int(0)
        }
        #expect(widths == [160, 200])
        #expect(
            try server.database.queryFirst("SELECT format FROM photos ORDER BY id DESC") { try $0.string(0) }
                == "png")
        let largest = await client.get("/v1/photos/\(id)", ["width": "1280"])
        #expect(try ImageDecoder().info([UInt8](largest.body)).width == 200)
    }

    @Test func aPNGWithTransparency_keepsItInItsVariants_soTheAppDrawsItOverItsOwnBackground() async throws {
        // Given a 400x200 PNG whose left half is transparent
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let png = try PhotoBytes.pngWithTransparency(width: 400, height: 200)

        // When it is posted and its 160-wide variant fetched
        let response = await client.send(
            .post, "/v1/posts", body: Self.body("glass", [(png, nil)]), key: "alpha-1")
        #expect(response.status == 201, "\(response.text)")
        let id = try #require(response.json["mutation", "media", "attachments", 0, "id"].stringValue)
        let variant = await client.get("/v1/photos/\(id)", ["width": "160"])

        // Then the variant is a PNG that kept the transparency: drawn over white, its left half is
        // white and its right half red (a JPEG would have flattened the left half to black)
        #expect(variant.status == 200)
        #expect(variant.headers["Content-Type"] == "image/png")
        let bytes = [UInt8](variant.body)
        let kept = try #require(try ImageDecoder().decodeKeepingTransparency(bytes))
        #expect(kept.width == 160 && kept.height == 80)
        let overWhite = try ImageDecoder(background: .init(red: 255, green: 255, blue: 255)).decode(bytes)
        #expect(overWhite.pixel(x: 10, y: 40) == PixelImage.Color(red: 255, green: 255, blue: 255))
        #expect(overWhite.pixel(x: 150, y: 40) == PixelImage.Color(red: 255, green: 0, blue: 0))
        // And the small rendition carried inline is drawn over black until then
        let pixels = try Attachment.Photo(
            json: response.json["mutation", "media", "attachments", 0], at: .root
        ).pixels
        #expect(pixels.pixel(x: 2, y: 2) == PixelImage.Color(red: 0, green: 0, blue: 0))
    }

    @Test func theVariantRoute_refusesABadWidthAndAnUnknownPhoto() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let posted = await client.send(
            .post, "/v1/posts", body: Self.body("", [(try PhotoBytes.jpeg(width: 400, height: 300), nil)]),
            key: "k")
        let id = try #require(posted.json["mutation", "media", "attachments", 0, "id"].stringValue)

        for width in ["0", "-3", "wide", "16385"] {
            let response = await client.get("/v1/photos/\(id)", ["width": width])
            #expect(response.status == 400)
            #expect(
                response.errorMessage
                    == "query parameter 'width': expected a whole number from 1 to 16384, found '\(width)'")
        }
        let unknown = await client.get("/v1/photos/p999999")
        #expect(unknown.status == 404)
        #expect(unknown.errorMessage == "no photo with id 'p999999'")
        #expect(await client.get("/v1/photos/m1").status == 404)
    }

    @Test(arguments: [
        ("truncated", 400, "invalid_photo", "attachments[0].data: the JPEG file cannot be decoded: "),
        ("text", 415, "unsupported_photo_type", "attachments[0].data: the bytes are not a JPEG or PNG file"),
        (
            "bomb", 413, "photo_too_large",
            "attachments[0].data: image is 30000x30000; the limit is 16384 pixels a side and 50 megapixels in all"
        ),
    ])
    func aBadFile_isRefusedWithAClearErrorAndNothingIsStored(
        kind: String, status: Int, code: String, message: String
    ) async throws {
        // Given a file that is not a photo this server can take
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let jpeg = try PhotoBytes.jpeg(width: 600, height: 400)
        let bytes: [UInt8] =
            switch kind {
            case "truncated": Array(jpeg.prefix(jpeg.count / 2))
            case "text": Array("GIF89a is not what this is, just some words".utf8)
            default: try PhotoBytes.pngClaiming(width: 30000, height: 30000)
            }
        let posts = try Self.count(server, "posts")

        // When it is posted
        let response = await client.send(
            .post, "/v1/posts", body: Self.body("bad", [(bytes, nil)]), key: "bad-1")

        // Then it is refused, saying why, and neither a photo nor a post is stored
        #expect(response.status == status)
        #expect(response.errorCode == code)
        #expect(response.errorMessage?.hasPrefix(message) == true, "\(response.errorMessage ?? "")")
        #expect(try Self.count(server, "photos") == 0)
        #expect(try Self.count(server, "photo_variants") == 0)
        #expect(try Self.count(server, "posts") == posts)
    }

    @Test func aFileOverTheSizeLimit_isRefusedBeforeDecoding() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let big = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 10 << 20)

        let response = await client.send(.post, "/v1/posts", body: Self.body("", [(big, nil)]), key: "big")

        #expect(response.status == 413)
        #expect(
            response.errorMessage
                == "attachments[0].data: the photo is \(big.count) bytes, over the limit of \(10 << 20)")
        #expect(try Self.count(server, "photos") == 0)
    }

    @Test func aPathInsteadOfBytes_isRefused() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let body =
            #"{"text": "", "attachments": [{"type": "photo", "file": "/home/ada/cat.jpg", "width": 1,"#
            + #" "height": 1, "pixels": {"width": 1, "height": 1, "rgb": "AAAA"}}]}"#

        let response = await client.send(.post, "/v1/posts", body: body, key: "path")

        #expect(response.status == 400)
        #expect(
            response.errorMessage
                == "attachments[0].file: a file path on the client's device means nothing here; send the "
                + "photo's bytes as base64 'data'")
    }

    @Test func twoPhotos_becomeOneCarouselOfStoredPhotos_andAResendStoresNothingTwice() async throws {
        // Given a JPEG and a PNG
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let photos = [
            (try PhotoBytes.jpeg(width: 900, height: 600), "first"),
            (try PhotoBytes.png(width: 300, height: 300), "second"),
        ]
        let body = Self.body("two", photos.map { ($0.0, Optional($0.1)) })
        let posts = try Self.count(server, "posts")

        // When they are posted together, and the same request is sent again with its token
        let first = await client.send(.post, "/v1/posts", body: body, key: "carousel-1")
        let again = await client.send(.post, "/v1/posts", body: body, key: "carousel-1")

        // Then one post carries one carousel of the two stored photos, in order, with their alt
        // texts; the resend is the same answer and stores nothing
        #expect(first.status == 201, "\(first.text)")
        let carousel = first.json["mutation", "media", "attachments", 0]
        #expect(carousel["type"].stringValue == "carousel")
        #expect(carousel["items"].array.map { $0["alt"].stringValue } == ["first", "second"])
        #expect(carousel["items"].array.map { $0["width"].int } == [900, 300])
        #expect(Set(carousel["items"].array.compactMap { $0["id"].stringValue }).count == 2)
        #expect(again.headers["Idempotent-Replayed"] == "true")
        #expect(again.body == first.body)
        #expect(try Self.count(server, "posts") == posts + 1)
        #expect(try Self.count(server, "photos") == 2)
        #expect(try Self.count(server, "photo_variants") == 4 + 2)
    }
}
