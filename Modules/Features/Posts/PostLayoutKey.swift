import Basics
import FeedCaching
import Foundation
import MediaModel
import Mutations

/// A key of how an app draws posts in a feed: a fingerprint of the heights of a gallery of
/// sample posts (every kind of attachment and context, long text, a reply count, a failed
/// post) at a few widths, under the app's presentation.
///
/// The feed cache stores row heights under each entry's content version, which says nothing of
/// the code that drew the rows. A build that draws posts otherwise (a line added above a reply,
/// a socket that shows photos taller) would seed heights that no longer match the lines; the
/// feed screen hands this key to `FeedCache.adoptLayout(_:source:)` first, and stored heights measured
/// under another key are dropped. Nobody bumps a number by hand: a change to drawing that
/// changes a sample's height changes the key. A new way of drawing a post (a new attachment,
/// a new line) adds a sample here, so the gallery keeps covering every kind of line.
///
/// Complexity: O(samples × widths) renders, a millisecond and a half of a warm launch's CPU
/// with the first draws' one-time costs; derived off the UI actor, and only when the feed cache
/// does not hold it for this build and presentation (`adopt(_:in:)`).
package enum PostLayoutKey {
    /// The widths the gallery is measured at: narrow, common and wide, so a change that shows
    /// only at some widths (a wrap, a cut) is seen.
    static let widths = [36, 80, 132]

    /// The key of `presentation`'s layout: never 0 (a cache from before keys has 0).
    package static func of(_ presentation: PostPresentation) -> Int64 {
        var hasher = StableHasher()
        for width in widths {
            hasher.combine(width)
            for item in gallery {
                hasher.combine(PostRenderer.height(of: item, width: width, presentation: presentation))
            }
        }
        return Int64(max(hasher.value, 1))
    }

    /// What `of(presentation)` is derived from: the presentation's origin (the build, whose code
    /// draws the samples, its providers and modes) and whether photo art is drawn, as a
    /// fingerprint the feed cache keeps beside the key, so the next launch of the same build
    /// reads the key back instead of drawing the samples again
    /// (`FeedCache.layout(measuredUnder:)`). Nil when the origin is unknown (an overridden
    /// socket, no build id): then the key is derived every launch.
    ///
    /// Complexity: O(1); no post is drawn.
    package static func source(of presentation: PostPresentation) -> Int64? {
        guard let origin = presentation.origin else { return nil }
        var hash = FNV1a()
        hash.combine((0..<8).map { UInt8(truncatingIfNeeded: origin >> ($0 * 8)) })
        hash.endPart()
        hash.combine(CollectionOfOne(presentation.photoArt == nil ? 0 : 1))
        return Int64(bitPattern: hash.value)
    }

    /// The key of `presentation`'s layout, read from `store` when it was derived there by this
    /// build from the same presentation, else derived again; then adopted, with its source, so
    /// stored heights measured under another layout are dropped. True when the key was adopted
    /// (false: the store could not say, and no stored height may be trusted).
    package static func adopt(_ presentation: PostPresentation, in store: any FeedLayoutStore) -> Bool {
        let source = source(of: presentation)
        let layout = source.flatMap { try? store.layout(measuredUnder: $0) } ?? of(presentation)
        return (try? store.adoptLayout(layout, source: source)) != nil
    }

    /// The sample posts, as a feed shows them.
    static let gallery: [PostItem] = {
        let author = User(id: UserID("u-sample"), handle: "sample", displayName: "Sample Author")
        let other = User(id: UserID("u-other"), handle: "other_person", displayName: "Another Person")
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let long = String(repeating: "A sentence that wraps at every width the gallery uses. ", count: 9)
        func media(_ id: String, _ text: String, by user: User = author, _ attachments: [Attachment] = [])
            -> Media
        {
            Media(id: MediaID(id), author: user, createdAt: date, text: text, attachments: attachments)
        }
        func photo(_ width: Int, _ height: Int, stored: Bool) -> Attachment.Photo {
            Attachment.Photo(
                width: width * 8, height: height * 8,
                pixels: PixelImage.generated(seed: 7, width: width, height: height),
                altText: "a sample photo", id: stored ? "sample-photo" : nil)
        }
        let video = Attachment.Video(
            width: 640, height: 360, duration: .seconds(42),
            poster: PixelImage.generated(seed: 3, width: 32, height: 18))
        let unknown = UnknownPayload(typeName: "poll", raw: .object(["question": .string("which?")]))
        let entries: [(FeedEntry, MediaFacts, OptimisticStatus)] = [
            (FeedEntry(id: "e1", media: media("m1", "A short post.")), MediaFacts(), .server),
            (
                FeedEntry(id: "e2", media: media("m2", long + "\n\nA second paragraph.")), MediaFacts(),
                .server
            ),
            (
                FeedEntry(id: "e3", media: media("m3", "A caption", [.photo(photo(48, 32, stored: false))])),
                MediaFacts(likeCount: 3, viewerLiked: true), .server
            ),
            (
                FeedEntry(
                    id: "e4", media: media("m4", "Tall and stored", [.photo(photo(20, 60, stored: true))])),
                MediaFacts(), .server
            ),
            (
                FeedEntry(
                    id: "e5",
                    media: media(
                        "m5", "Three of them",
                        [
                            .carousel([
                                .photo(photo(40, 30, stored: false)), .video(video),
                                .photo(photo(30, 40, stored: true)),
                            ])
                        ])), MediaFacts(), .server
            ),
            (FeedEntry(id: "e6", media: media("m6", "Watch this", [.video(video)])), MediaFacts(), .server),
            (
                FeedEntry(
                    id: "e7", media: media("m7", "An answer", by: other),
                    context: .reply(parent: media("m0", long))), MediaFacts(), .server
            ),
            (
                FeedEntry(id: "e8", media: media("m8", "Worth sharing"), context: .repost(by: other)),
                MediaFacts(repostCount: 1, viewerReposted: true), .server
            ),
            (FeedEntry(id: "e9", media: media("m9", "Talked about")), MediaFacts(replyCount: 12), .server),
            (
                FeedEntry(id: "e10", media: media("m10", "Something new", [.unknown(unknown)])), MediaFacts(),
                .server
            ),
            (
                FeedEntry(id: "e11", media: media("m11", "Being sent")), MediaFacts(),
                .pending(MutationToken("t11"))
            ),
            (
                FeedEntry(id: "e12", media: media("m12", "Refused")), MediaFacts(),
                .failed(MutationToken("t12"), message: "the server refused it: " + long)
            ),
        ]
        var items = entries.map { entry, facts, status in
            PostItem(
                id: entry.id.rawValue, row: MergedEntry(entry: entry, facts: facts, status: status), age: "5m"
            )
        }
        // A post whose like and repost were not sent: the line naming them.
        items.append(
            PostItem(
                id: "e13",
                row: MergedEntry(
                    entry: FeedEntry(id: "e13", media: media("m13", "Liked in vain")), facts: MediaFacts(),
                    status: .server, notSent: [.like, .repost]), age: "5m"))
        return items
    }()
}
