import Foundation
import MediaModel
import Testing

@Suite struct WireFormatCompatibilityTests {
    private func decodeMedia(_ text: String) throws(WireFormatError) -> Media {
        try WireFormat.decode(Media.self, from: Data(text.utf8)).payload
    }

    private func decodeError(_ text: String) -> String? {
        do {
            _ = try decodeMedia(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func unknownKind_decodesToUnknownWithItsRawPayload() throws {
        // Given a media of a kind this build does not know
        let text = """
            {"version": 1, "media": {"id": "m7", "kind": "poll", "createdAt": 1714564800000,
             "author": {"id": "u1", "handle": "ada", "displayName": "Ada"}, "text": "Tabs or spaces?",
             "poll": {"options": ["tabs", "spaces"], "closesAt": 1714600000000}}}
            """

        // When it is decoded
        let media = try decodeMedia(text)

        // Then its kind is unknown, the common fields are read and the payload is kept whole
        #expect(media.kind == .unknown("poll"))
        #expect(media.id == "m7")
        #expect(media.text == "Tabs or spaces?")
        #expect(media.attachments.isEmpty)
        let poll = try #require(media.unknownKind?.raw.objectValue?["poll"])
        #expect(poll == ["options": ["tabs", "spaces"], "closesAt": 1_714_600_000_000])
    }

    @Test func unknownKind_reencodesItsPayloadUnchanged() throws {
        let text = """
            {"version": 1, "media": {"id": "m7", "kind": "poll", "createdAt": 1714564800000,
             "author": {"id": "u1", "handle": "ada", "displayName": "Ada"}, "text": "?",
             "poll": {"options": ["a", "b"], "weight": 2.5}, "attachments": [{"type": "???"}]}}
            """
        let original = try Fixtures.json(text).objectValue?["media"]

        let media = try decodeMedia(text)
        let again = try WireFormat.decode(Media.self, from: WireFormat.encode(MediaEnvelope(media))).payload

        #expect(again == media)
        #expect(media.json == original)
    }

    @Test func unknownAttachmentType_decodesToUnknownAndRoundTrips() throws {
        let sticker = #"{"type": "sticker", "sticker": {"id": "s1", "frames": 12}, "scale": 1.5}"#
        let text = Fixtures.mediaDocument(attachments: "[\(sticker)]")

        let media = try decodeMedia(text)

        #expect(media.kind == .unknown("sticker"))
        guard case .unknown(let payload) = media.attachments.first else {
            Issue.record("expected an unknown attachment, found \(media.attachments)")
            return
        }
        #expect(payload.typeName == "sticker")
        #expect(payload.raw == (try Fixtures.json(sticker)))
        let again = try WireFormat.decode(Media.self, from: WireFormat.encode(MediaEnvelope(media))).payload
        #expect(again == media)
    }

    @Test func unknownCarouselItem_isKeptRawAndTheMediaStaysACarousel() throws {
        let text = Fixtures.mediaDocument(
            attachments:
                #"[{"type": "carousel", "items": [\#(Fixtures.photoJSON), {"type": "hologram", "depth": 3}]}]"#
        )

        let media = try decodeMedia(text)

        #expect(media.kind == .carousel)
        guard case .carousel(let items) = media.attachments.first, items.count == 2,
            case .unknown(let payload) = items[1]
        else {
            Issue.record("expected a carousel with an unknown second item, found \(media.attachments)")
            return
        }
        #expect(payload.typeName == "hologram")
    }

    @Test func unknownAvatarAndContext_decodeToUnknown() throws {
        let text = """
            {"version": 1, "entry": {"id": "e1", "context": {"type": "quote", "quoted": "m0"},
             "media": {"id": "m1", "createdAt": 0, "author": {"id": "u1", "handle": "ada",
             "displayName": "Ada", "avatar": {"type": "animated", "frames": 4}}}}}
            """

        let entry = try WireFormat.decode(FeedEntry.self, from: Data(text.utf8)).payload

        #expect(
            entry.context
                == .unknown(UnknownPayload(typeName: "quote", raw: ["type": "quote", "quoted": "m0"])))
        #expect(
            entry.media.author.avatar
                == .unknown(UnknownPayload(typeName: "animated", raw: ["type": "animated", "frames": 4])))
    }

    @Test func unknownFields_areIgnoredAtEveryLevel() throws {
        // Given a document with extra fields in the envelope, media, author, attachment and pixels
        let photo = #"""
            {"type": "photo", "width": 2, "height": 1, "filter": "sepia",
             "pixels": {"width": 2, "height": 1, "rgb": "AAECAwQF", "colorSpace": "p3"}}
            """#
        let text = """
            {"version": 1, "trace": "abc", "media": {"id": "m9", "createdAt": 1714564800000, "text": "hi",
             "views": 12, "author": {"id": "u1", "handle": "ada", "displayName": "Ada", "verified": true},
             "attachments": [\(photo)]}}
            """

        // When it is decoded, then it equals the same document without them
        let plain = Fixtures.mediaDocument(attachments: "[\(Fixtures.photoJSON)]")
        #expect(try decodeMedia(text) == decodeMedia(plain))
    }

    @Test func optionalFields_takeTheirDefaultsWhenMissing() throws {
        let text = """
            {"version": 1, "media": {"id": "m9", "createdAt": 5, "author": {"id": "u1", "handle": "ada",
             "displayName": "ada"}}}
            """

        let media = try decodeMedia(text)

        #expect(media.text == "")
        #expect(media.attachments.isEmpty)
        #expect(media.kind == .text)
        #expect(media.author.avatar == .glyph("A"))
        #expect(media.author.bio == "")
    }

    @Test func wrongType_namesTheFieldPathAndQuotesTheValue() {
        let attachments =
            "[\(Fixtures.photoJSON), \(Fixtures.photoJSON), "
            + #"{"type": "photo", "width": "abc", "height": 1, "pixels": {"width": 1, "height": 1, "rgb": "AAAA"}}]"#

        let message = decodeError(Fixtures.mediaDocument(attachments: attachments))

        #expect(message == #"media.attachments[2].width: expected a number, found "abc""#)
    }

    @Test(arguments: [
        (
            #"{"version": 1, "media": {"createdAt": 1, "author": {"id": "u1", "handle": "a", "displayName": "A"}}}"#,
            "media.id: required field is missing"
        ),
        (
            #"{"version": 1, "media": {"id": "m1", "createdAt": 1, "author": {"id": "u1", "displayName": "A"}}}"#,
            "media.author.handle: required field is missing"
        ),
        (
            Fixtures.mediaDocument(attachments: #"[{"width": 1}]"#),
            "media.attachments[0].type: required field is missing"
        ),
        (
            Fixtures.mediaDocument(attachments: #"[{"type": "photo", "width": 1, "height": 1}]"#),
            "media.attachments[0].pixels: required field is missing"
        ),
        (
            #"{"media": {"id": "m1"}}"#,
            "version: required field is missing"
        ),
    ])
    func missingRequiredField_namesItsPath(document: String, expected: String) {
        #expect(decodeError(document) == expected)
    }

    @Test(arguments: [
        (
            #"{"version": 1, "media": {"id": 12, "createdAt": 1, "author": {"id": "u1", "handle": "a", "displayName": "A"}}}"#,
            "media.id: expected a string, found 12"
        ),
        (
            #"{"version": 1, "media": {"id": "m1", "createdAt": 1.5, "author": {"id": "u1", "handle": "a", "displayName": "A"}}}"#,
            "media.createdAt: expected an integer, found 1.5"
        ),
        (
            #"{"version": 1, "media": {"id": "m1", "createdAt": 1, "author": "ada"}}"#,
            #"media.author: expected an object, found "ada""#
        ),
        (
            Fixtures.mediaDocument(attachments: #"{"type": "photo"}"#),
            "media.attachments: expected an array, found an object"
        ),
        (
            Fixtures.mediaDocument(
                attachments:
                    #"[{"type": "photo", "width": 1, "height": 1, "pixels": {"width": 1, "height": 1, "rgb": "%%%"}}]"#
            ),
            #"media.attachments[0].pixels.rgb: expected base64 RGB bytes, found "%%%""#
        ),
        (
            Fixtures.mediaDocument(
                attachments:
                    #"[{"type": "photo", "width": 1, "height": 1, "pixels": {"width": 2, "height": 1, "rgb": "AAAA"}}]"#
            ),
            "media.attachments[0].pixels.rgb: expected 6 bytes for a 2x1 RGB image, found 3"
        ),
        (
            Fixtures.mediaDocument(
                attachments:
                    #"[{"type": "photo", "width": 1, "height": 1, "pixels": {"width": 100, "height": 1, "rgb": ""}}]"#
            ),
            "media.attachments[0].pixels.width: expected a value from 1 to 64, found 100"
        ),
        (
            Fixtures.mediaDocument(attachments: #"[{"type": "carousel", "items": []}]"#),
            "media.attachments[0].items: a carousel needs at least one item, found none"
        ),
        (
            #"{"version": 1, "media": {"id": "m1", "createdAt": 1, "text": null, "author": {"id": "u1", "handle": "a", "displayName": "A", "bio": false}}}"#,
            "media.author.bio: expected a string, found false"
        ),
    ])
    func wrongType_isAnErrorNamingThePath(document: String, expected: String) {
        #expect(decodeError(document) == expected)
    }

    @Test func factWithWrongType_namesTheMediaIDInThePath() throws {
        let text = """
            {"version": 1, "page": {"entries": []}, "facts": {"m1": {"likeCount": "many", "replyCount": 0}}}
            """

        #expect(
            throws: WireFormatError(
                path: WirePath([.key("facts"), .key("m1"), .key("likeCount")]),
                problem: #"expected a number, found "many""#)
        ) {
            try WireFormat.decode(FeedPage.self, from: Data(text.utf8))
        }
    }

    @Test(arguments: [
        (
            #"{"version": 2, "media": {}}"#,
            "version: unsupported wire format version 2; this build reads versions up to 1; update the app to read this document"
        ),
        (#"{"version": 0, "media": {}}"#, "version: expected a version of at least 1, found 0"),
        (#"{"version": "1", "media": {}}"#, #"version: expected a number, found "1""#),
        (#"[1, 2]"#, "<root>: expected an object, found an array"),
    ])
    func envelopeVersion_isCheckedFirst(document: String, expected: String) {
        #expect(decodeError(document) == expected)
    }

    @Test func invalidJSON_isAnErrorAtTheRoot() {
        let message = decodeError("{\"version\": 1, ")

        #expect(message?.hasPrefix("<root>: not valid JSON") == true, "\(message ?? "no error")")
    }

    @Test func errorInsideANestedCodableDocument_keepsTheOuterPath() {
        struct Outer: Decodable {
            var items: [Media]
        }
        let text =
            #"{"items": [{"id": "m1", "createdAt": 1, "author": {"id": "u", "handle": "h", "displayName": 3}}]}"#

        #expect(
            throws: WireFormatError(
                path: WirePath([.key("items"), .index(0), .key("author"), .key("displayName")]),
                problem: "expected a string, found 3")
        ) {
            try JSONDecoder().decode(Outer.self, from: Data(text.utf8))
        }
    }
}
