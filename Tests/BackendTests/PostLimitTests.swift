@_spi(Testing) import Backend
import Foundation
import MediaModel
import PhotoTesting
import Storage
import Testing
import Wire

/// The limits of a post's and a reply's text in bytes and in combining marks a character (not
/// only in characters), of a carousel's items, and of attachments of unknown types; and the
/// seed's stored photos still served by their old ids.
@Suite struct PostLimitTests {
    /// A post (or reply) body with `text` and, when given, `attachments`.
    static func body(_ text: String, attachments: [JSONValue]? = nil) -> String {
        var fields: [String: JSONValue] = ["text": .string(text)]
        if let attachments { fields["attachments"] = .array(attachments) }
        return String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self)
    }

    /// A family emoji: one character of 25 bytes (seven scalars, none a combining mark).
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"

    /// Text of exactly `bytes` bytes in few characters: family emoji, then "a"s.
    static func text(bytes: Int) -> String {
        String(repeating: family, count: bytes / 25) + String(repeating: "a", count: bytes % 25)
    }

    /// "a" carrying `marks` combining acute accents, then " ok".
    static func marked(_ marks: Int) -> String {
        "a" + String(repeating: "\u{0301}", count: marks) + " ok"
    }

    static let routes = ["/v1/posts", "/v1/posts/m1/replies"]

    @Test(arguments: routes)
    func textBytes_atTheLimitIsTaken_overItIsRefused(route: String) async throws {
        let client = TestClient(server: try BackendFixture.fresh())
        let under = await client.send(.post, route, body: Self.body(Self.text(bytes: 16_383)), key: "under")
        let at = await client.send(.post, route, body: Self.body(Self.text(bytes: 16_384)), key: "at")
        let over = await client.send(.post, route, body: Self.body(Self.text(bytes: 16_385)), key: "over")

        #expect(under.status == 201, "\(under.text)")
        #expect(at.status == 201, "\(at.text)")
        #expect(over.status == 400)
        #expect((over.errorCode ?? "") == "invalid_body")
        #expect(over.errorMessage == "text: 16385 bytes (UTF-8) is over the limit of 16384")
    }

    @Test(arguments: routes)
    func oneCharacterOfAMillionMarks_isRefusedForItsBytes(route: String) async throws {
        // Given "a" followed by a million combining marks: one character of 2 MB
        let client = TestClient(server: try BackendFixture.fresh())
        let text = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        #expect(text.count == 1)

        let response = await client.send(.post, route, body: Self.body(text), key: "zalgo")

        #expect(response.status == 400)
        #expect(response.errorMessage == "text: 2000001 bytes (UTF-8) is over the limit of 16384")
    }

    @Test(arguments: routes)
    func combiningMarks_eightOnACharacterAreTaken_nineAreRefused(route: String) async throws {
        let client = TestClient(server: try BackendFixture.fresh())
        let under = await client.send(.post, route, body: Self.body(Self.marked(7)), key: "under")
        let at = await client.send(.post, route, body: Self.body(Self.marked(8)), key: "at")
        let over = await client.send(.post, route, body: Self.body("ok " + Self.marked(9)), key: "over")

        #expect(under.status == 201, "\(under.text)")
        #expect(at.status == 201, "\(at.text)")
        #expect(over.status == 400)
        #expect(
            over.errorMessage
                == "text: character 4 of the text carries 9 combining marks, over the limit of 8 per character"
        )
    }

    @Test func aCarouselOfTenPhotosIsTaken_elevenAreRefused() async throws {
        let client = TestClient(server: try BackendFixture.fresh())
        let photo: JSONValue = [
            "type": "photo",
            "data": .string(Data(try PhotoBytes.png(width: 16, height: 16)).base64EncodedString()),
        ]
        func carousel(_ count: Int) -> [JSONValue] {
            [["type": "carousel", "items": .array(Array(repeating: photo, count: count))]]
        }

        let ten = await client.send(
            .post, "/v1/posts", body: Self.body("", attachments: carousel(10)), key: "10")
        let eleven = await client.send(
            .post, "/v1/posts", body: Self.body("", attachments: carousel(11)), key: "11")

        #expect(ten.status == 201, "\(ten.text)")
        #expect(eleven.status == 400)
        #expect(
            eleven.errorMessage == "attachments[0].items: 11 items is over the limit of 10 in one carousel")
        #expect(PostLimits.carouselItems == 10)
    }

    /// An attachment of a type nobody knows, exactly `bytes` long as JSON.
    static func unknown(bytes: Int) -> JSONValue {
        let empty = JSONValue.object(["type": "sticker", "blob": ""]).serialized().count
        return ["type": "sticker", "blob": .string(String(repeating: "x", count: bytes - empty))]
    }

    @Test func anUnknownAttachment_of4096BytesIsKept_of4097IsRefused_aloneOrInACarousel() async throws {
        let client = TestClient(server: try BackendFixture.fresh())
        #expect(Self.unknown(bytes: 4096).serialized().count == 4096)

        let at = await client.send(
            .post, "/v1/posts", body: Self.body("sticker", attachments: [Self.unknown(bytes: 4096)]),
            key: "at")
        let over = await client.send(
            .post, "/v1/posts", body: Self.body("sticker", attachments: [Self.unknown(bytes: 4097)]),
            key: "over")
        let inCarousel = await client.send(
            .post, "/v1/posts",
            body: Self.body("", attachments: [["type": "carousel", "items": [Self.unknown(bytes: 4097)]]]),
            key: "carousel")

        #expect(at.status == 201, "\(at.text)")
        #expect(over.status == 400)
        #expect(
            over.errorMessage
                == "attachments[0]: an attachment of unknown type 'sticker' is 4097 bytes of JSON, over the "
                + "limit of 4096 for a type this server does not know")
        #expect(inCarousel.status == 400)
        #expect(
            inCarousel.errorMessage
                == "attachments[0].items[0]: an attachment of unknown type 'sticker' is 4097 bytes of JSON, "
                + "over the limit of 4096 for a type this server does not know")
    }

    @Test func theSeedsPhotos_areStillServedByTheirNumberedIds() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let first = try #require(
            try server.database.queryFirst("SELECT MIN(id) FROM photos") { try $0.int64(0) })

        let response = await client.get("/v1/photos/p\(first)")

        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["Content-Type"] == "image/jpeg")
    }
}
