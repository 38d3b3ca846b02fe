import Foundation
import MediaModel

/// Shared sample values for the MediaModel tests.
enum Fixtures {
    static let ada = User(
        id: "u1", handle: "ada", displayName: "Ada Lovelace", avatar: .glyph("A"), bio: "Engines and poems")
    static let grace = User(
        id: "u2", handle: "grace", displayName: "Grace Hopper",
        avatar: .image(PixelImage.generated(seed: 7, width: 4, height: 4)))

    static let createdAt = Date(timeIntervalSince1970: 1_714_564_800.123)

    static let photo = MediaModel.Attachment.Photo(
        width: 1080, height: 1350, pixels: PixelImage.generated(seed: 1, width: 8, height: 10),
        altText: "A sunset")
    static let video = MediaModel.Attachment.Video(
        width: 1920, height: 1080, duration: .milliseconds(15_250),
        poster: PixelImage.generated(seed: 2, width: 16, height: 9))

    static let textMedia = Media(id: "m1", author: ada, createdAt: createdAt, text: "Hello, world")
    static let photoMedia = Media(
        id: "m2", author: grace, createdAt: createdAt, text: "Sunset", attachments: [.photo(photo)])
    static let videoMedia = Media(
        id: "m3", author: ada, createdAt: createdAt, text: "", attachments: [.video(video)])
    static let carouselMedia = Media(
        id: "m4", author: grace, createdAt: createdAt, text: "Trip",
        attachments: [.carousel([.photo(photo), .video(video)])])

    static let allKinds: [Media] = [textMedia, photoMedia, videoMedia, carouselMedia]

    /// A page where `textMedia` shows twice: on its own and as the parent of a reply.
    static let reply = Media(id: "m5", author: grace, createdAt: createdAt, text: "Agreed!")
    static let page = FeedPage(
        entries: [
            FeedEntry(id: "e1", media: textMedia),
            FeedEntry(id: "e2", media: reply, context: .reply(parent: textMedia), seenReplyCount: 0),
            FeedEntry(id: "e3", media: photoMedia, context: .repost(by: ada)),
        ],
        nextCursor: "c2")
    static let pageFacts: [MediaID: MediaFacts] = [
        "m1": MediaFacts(likeCount: 3, viewerLiked: true, replyCount: 1, revision: 4),
        "m2": MediaFacts(
            likeCount: 10, replyCount: 0, repostCount: 1, caption: "Sunset (edited)", revision: 2),
        "m5": MediaFacts(likeCount: 0, replyCount: 0),
    ]

    /// Parses JSON text written in a test.
    static func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: Data(text.utf8))
    }

    /// A media envelope document with `attachments` spliced in as JSON text.
    static func mediaDocument(attachments: String, extraMediaFields: String = "") -> String {
        """
        {"version": 1, "media": {"id": "m9", "createdAt": 1714564800000, "text": "hi",
         "author": {"id": "u1", "handle": "ada", "displayName": "Ada"}\(extraMediaFields),
         "attachments": \(attachments)}}
        """
    }

    static let photoJSON =
        #"{"type": "photo", "width": 2, "height": 1, "pixels": {"width": 2, "height": 1, "rgb": "AAECAwQF"}}"#
}
