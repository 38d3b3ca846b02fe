import Basics
import Foundation
import ListEngine
import MediaModel
import Mutations

/// One post as a list shows it: the merged row (the entry, the shared facts merged with
/// pending changes, and whether the server has it), and how this surface presents it.
///
/// Items carry list identity (`id`), not the media: the same media can be two items of one
/// list, as a post and as a reply's parent. Everything about the post itself is read from
/// `row`, built once by the mutation manager's merge; the item adds only what the surface
/// decides.
package struct PostItem: ListDiffable, ListContentVersioned, Sendable, Hashable, CustomStringConvertible {
    /// How the item sits in its list.
    package enum Role: Sendable, Hashable {
        /// An entry of a feed (home or profile).
        case feed
        /// A post above the focused one in a thread (root first).
        case ancestor
        /// The post a thread is about.
        case focus
        /// A reply under the focused post.
        case reply
    }

    /// The list identity (a feed entry id, or a role and media id in a thread).
    package var id: String
    /// The merged row: entry, facts as the viewer should see them now, and status.
    package var row: MergedEntry
    /// How the item sits in its list.
    package var role: Role
    /// The post's age as shown ("5m", "3h"), made when the item was built.
    package var age: String
    /// A number that changes when the item's height may change (the feed cache's version for
    /// cached entries).
    package var contentVersion: Int
    /// Which item of the post's carousel is shown, from 0: view state of the list showing it
    /// (`PostList` keeps it by item id), never the model's or the server's. Part of the content
    /// (a change is one update of this item) but not of `contentVersion`: paging never changes
    /// the post's height.
    package var carouselPosition = 0

    /// Makes an item of `row`; `contentVersion` defaults to one computed from the row's media and
    /// context.
    package init(id: String, row: MergedEntry, role: Role = .feed, age: String, contentVersion: Int? = nil) {
        self.id = id
        self.row = row
        self.role = role
        self.age = age
        self.contentVersion = contentVersion ?? Self.version(of: row.entry.media, context: row.entry.context)
    }

    /// The post.
    package var media: Media { row.entry.media }
    /// Why the post is in the feed: on its own, as a reply under its parent, or reposted.
    package var context: FeedEntry.Context { row.entry.context }
    /// Likes, replies and reposts as the viewer should see them now.
    package var facts: MediaFacts { row.facts }
    /// The parent's facts, for a reply shown under its parent.
    package var parentFacts: MediaFacts? { row.parentFacts }
    /// Server data, or a change of this device still pending or failed.
    package var status: OptimisticStatus { row.status }
    /// Whether the server has the post (so it can be opened, liked or reposted).
    package var isConfirmed: Bool { row.status == .server }

    package var diffIdentifier: String { id }

    package func isContentEqual(to other: PostItem) -> Bool { self == other }

    /// `@handle: text` (the fallback row's summary).
    package var description: String {
        let text = media.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return "\(media.kind) by @\(media.author.handle): \(text)"
    }

    /// How many items the post's carousel has, or nil when it has none.
    package var carouselCount: Int? {
        for case .carousel(let items) in media.attachments { return items.count }
        return nil
    }

    /// Whether the post has the stored photo `photoID` among its attachments (a carousel's items
    /// included).
    package func showsPhoto(_ photoID: String) -> Bool {
        for attachment in media.attachments {
            switch attachment {
            case .photo(let photo) where photo.id == photoID: return true
            case .carousel(let items):
                for case .photo(let photo) in items where photo.id == photoID { return true }
            default: continue
            }
        }
        return false
    }

    /// Whether the post has a stored photo (one with an id) among its attachments.
    package var hasStoredPhoto: Bool {
        media.attachments.contains { attachment in
            switch attachment {
            case .photo(let photo): photo.id != nil
            case .carousel(let items):
                items.contains { item in
                    if case .photo(let photo) = item { return photo.id != nil }
                    return false
                }
            default: false
            }
        }
    }

    /// The parent of a reply shown under its parent.
    package var parent: Media? {
        if case .reply(let parent) = context { return parent }
        return nil
    }

    /// A content version for items with no cached version: stable for the same media and context.
    package static func version(of media: Media, context: FeedEntry.Context) -> Int {
        var hasher = StableHasher()
        hasher.combine(media.id.rawValue)
        hasher.combine(media.text)
        hasher.combine(media.attachments.count)
        if case .reply(let parent) = context {
            hasher.combine(parent.id.rawValue)
            hasher.combine(parent.text)
        }
        return hasher.value
    }
}

/// Text and numbers into FNV-1a, one part each: the same value in every process (unlike
/// `Hasher`, which is seeded).
struct StableHasher {
    private var hash = FNV1a()

    mutating func combine(_ text: String) {
        hash.combine(text.utf8)
        hash.endPart()
    }

    mutating func combine(_ number: Int) {
        combine(String(number))
    }

    var value: Int { Int(truncatingIfNeeded: hash.value & 0x3FFF_FFFF_FFFF_FFFF) }
}
