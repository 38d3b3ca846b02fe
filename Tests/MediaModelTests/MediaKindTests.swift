import Foundation
import MediaModel
import Testing

@Suite struct MediaKindTests {
    static let unknownAttachment = MediaModel.Attachment.unknown(
        UnknownPayload(typeName: "sticker", raw: ["type": "sticker"]))

    @Test(arguments: [
        ([MediaModel.Attachment](), MediaKind.text),
        ([.photo(Fixtures.photo)], .photo),
        ([.video(Fixtures.video)], .video),
        ([.carousel([.photo(Fixtures.photo)])], .carousel),
        ([.photo(Fixtures.photo), .video(Fixtures.video)], .carousel),
        ([.photo(Fixtures.photo), unknownAttachment], .unknown("sticker")),
        ([unknownAttachment], .unknown("sticker")),
    ])
    func kind_followsFromTheAttachments(attachments: [MediaModel.Attachment], expected: MediaKind) {
        let media = Media(
            id: "m1", author: Fixtures.ada, createdAt: Fixtures.createdAt, text: "", attachments: attachments)

        #expect(media.kind == expected)
    }

    @Test(arguments: ["text", "photo", "video", "carousel", "poll", ""])
    func kindName_roundTripsThroughInitName(name: String) {
        let kind = MediaKind(name: name)

        #expect(kind.name == name)
        #expect(kind.isKnown == MediaKind.known.contains(kind))
    }
}
