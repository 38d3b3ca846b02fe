import Foundation
import MediaModel
import Testing

@Suite struct WireFormatRoundTripTests {
    @Test(arguments: Fixtures.allKinds)
    func mediaOfEachKind_roundTripsThroughTheWireFormat(media: Media) throws {
        // Given a media and its facts
        let envelope = MediaEnvelope(media, facts: [media.id: MediaFacts(likeCount: 2, replyCount: 1)])

        // When it is encoded and decoded
        let decoded = try WireFormat.decode(Media.self, from: WireFormat.encode(envelope))

        // Then everything comes back equal
        #expect(decoded == envelope)
        #expect(decoded.payload.kind == media.kind)
    }

    @Test func page_withEveryContextAndFacts_roundTrips() throws {
        let envelope = FeedPageEnvelope(Fixtures.page, facts: Fixtures.pageFacts)

        let decoded = try WireFormat.decode(FeedPage.self, from: WireFormat.encode(envelope))

        #expect(decoded == envelope)
        #expect(decoded.payload.entries.map(\.id) == ["e1", "e2", "e3"])
    }

    @Test func entry_roundTripsThroughCodableInsideAnotherDocument() throws {
        // Given an entry nested in an ordinary Codable value
        struct Wrapper: Codable, Equatable {
            var label: String
            var entry: FeedEntryEnvelope
        }
        let value = Wrapper(
            label: "x",
            entry: FeedEntryEnvelope(
                Fixtures.page.entries[1], facts: ["m5": MediaFacts(likeCount: 1, replyCount: 0)]))

        // When it goes through JSONEncoder and JSONDecoder
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(Wrapper.self, from: data)

        // Then it is unchanged
        #expect(decoded == value)
    }

    @Test func pixels_travelAsBase64RGBBytes() throws {
        let image = try PixelImage(width: 2, height: 1, rgb: [0, 1, 2, 3, 4, 5])

        let json = image.json

        #expect(json == ["width": 2, "height": 1, "rgb": "AAECAwQF"])
    }

    @Test func encoding_isCompactWithSortedKeys() throws {
        // Given a small text media
        let media = Media(
            id: "m1", author: User(id: "u1", handle: "ada", displayName: "Ada", avatar: .glyph("A")),
            createdAt: Date(timeIntervalSince1970: 1_714_564_800), text: "Hi \"you\"")

        // When it is encoded
        let text = String(decoding: WireFormat.encode(MediaEnvelope(media)), as: UTF8.self)

        // Then the bytes are exactly the documented form
        #expect(
            text
                == #"{"media":{"attachments":[],"author":{"avatar":{"glyph":"A","type":"glyph"},"bio":"","#
                + #""displayName":"Ada","handle":"ada","id":"u1"},"createdAt":1714564800000,"id":"m1","#
                + #""kind":"text","text":"Hi \"you\""},"version":1}"#)
    }

    @Test func videoDuration_travelsInWholeMilliseconds() throws {
        let decoded = try WireFormat.decode(
            Media.self, from: WireFormat.encode(MediaEnvelope(Fixtures.videoMedia)))

        guard case .video(let video) = decoded.payload.attachments.first else {
            Issue.record("expected a video attachment, found \(decoded.payload.attachments)")
            return
        }
        #expect(video.duration == .milliseconds(15_250))
        #expect(video.json.objectValue?["durationMs"] == 15_250)
    }

    /// A video's size is 1 to 1,000,000 pixels a side and its duration at most the milliseconds
    /// a `Duration` of whole milliseconds holds here (Int64.max / 1,000,000): the ends are read,
    /// one past them is a wire error naming the field.
    @Test func aVideosSizeAndDuration_areReadUpToTheirEnds_andRefusedPastThem() throws {
        func video(width: Int64, height: Int64, milliseconds: Int64) -> JSONValue {
            .object([
                "type": .string("video"), "width": .int(width), "height": .int(height),
                "durationMs": .int(milliseconds),
                "poster": PixelImage.generated(seed: 1, width: 2, height: 2).json,
            ])
        }
        let longest = Int64.max / 1_000_000
        let smallest = try Attachment.Video(json: video(width: 1, height: 1, milliseconds: 0), at: .root)
        #expect(smallest.width == 1 && smallest.height == 1)
        let largest = try Attachment.Video(
            json: video(width: 1_000_000, height: 1_000_000, milliseconds: longest), at: .root)
        #expect(largest.width == 1_000_000 && largest.duration == .milliseconds(longest))

        for (json, field) in [
            (video(width: 0, height: 1, milliseconds: 0), "width"),
            (video(width: 1, height: 1_000_001, milliseconds: 0), "height"),
            (video(width: 1, height: 1, milliseconds: longest + 1), "durationMs"),
            (video(width: 1, height: 1, milliseconds: -1), "durationMs"),
        ] {
            do {
                _ = try Attachment.Video(json: json, at: .root)
                Issue.record("a video with '\(field)' past its end was read")
            } catch {
                #expect("\(error)".contains(field), "\(error)")
            }
        }
    }

    @Test func controlCharactersInText_areEscapedAndRoundTrip() throws {
        let media = Media(
            id: "m1", author: Fixtures.ada, createdAt: Fixtures.createdAt, text: "a\nb\t\u{1}c\\ é 🎉")

        let decoded = try WireFormat.decode(Media.self, from: WireFormat.encode(MediaEnvelope(media)))

        #expect(decoded.payload.text == media.text)
    }
}
