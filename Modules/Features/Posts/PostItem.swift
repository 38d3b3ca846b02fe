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
    /// A number that changes whenever the item's lines may change, the key its row heights are
    /// cached under: the version of the post's media and context (the feed cache's, for cached
    /// entries) combined with what the row adds to them (``version(_:of:role:)``), such as the
    /// reason a failed post gives under its header.
    package var contentVersion: Int
    /// Which item of the post's carousel is shown, from 0: view state of the list showing it
    /// (`PostList` keeps it by item id), never the model's or the server's. Part of the content
    /// (a change is one update of this item) but not of `contentVersion`: paging never changes
    /// the post's height.
    package var carouselPosition = 0

    /// Makes an item of `row`. `contentVersion` is the version of the row's media and context (the
    /// feed cache's, for a cached entry); by default one is computed from them. The item's own
    /// ``contentVersion`` adds what the row draws besides (``version(_:of:role:)``).
    package init(id: String, row: MergedEntry, role: Role = .feed, age: String, contentVersion: Int? = nil) {
        self.id = id
        self.row = row
        self.role = role
        self.age = age
        self.contentVersion = Self.version(
            contentVersion ?? Self.version(of: row.entry.media, context: row.entry.context), of: row,
            role: role)
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

    /// A content version for items with no cached version: stable for the same media and context,
    /// and new when anything of them that the post's lines show changes (the text, the author's
    /// handle, the cells each attachment takes, a reply's parent, a repost's line).
    ///
    /// Complexity: O(text + attachments).
    package static func version(of media: Media, context: FeedEntry.Context) -> Int {
        var hasher = StableHasher()
        hasher.combine(media.id.rawValue)
        hasher.combine(media.author.handle)
        hasher.combine(media.text)
        hasher.combine(media.attachments.count)
        for attachment in media.attachments { hasher.combine(cellsOf: attachment) }
        switch context {
        case .reply(let parent):
            hasher.combine(1)
            hasher.combine(parent.id.rawValue)
            hasher.combine(parent.text)
        case .repost:
            hasher.combine(2)
        case .standalone, .unknown:
            hasher.combine(0)
        }
        return hasher.value
    }

    /// `base`, the version of a post's media and context, combined with what else changes the
    /// lines of `row` drawn as `role`: whether it is sending or failed, and why (a failed post
    /// says why under its header, on as many lines as the reason takes), whether it shows the
    /// line counting its replies, and the changes to it that were not sent. The same row in the same state has the same version, in every
    /// process.
    ///
    /// Complexity: O(1), plus the length of a failed post's reason.
    package static func version(_ base: Int, of row: MergedEntry, role: Role) -> Int {
        var hasher = StableHasher()
        hasher.combine(base)
        switch role {
        case .feed: hasher.combine(0)
        case .ancestor: hasher.combine(1)
        case .focus: hasher.combine(2)
        case .reply: hasher.combine(3)
        }
        switch row.status {
        case .server:
            hasher.combine(0)
        case .pending:
            hasher.combine(1)
        case .failed(_, let reason):
            hasher.combine(2)
            hasher.combine(reason)
        }
        hasher.combine(role == .feed && row.facts.replyCount > 0 ? 1 : 0)
        // The line naming changes that were not sent.
        hasher.combine(row.notSent.count)
        for kind in row.notSent { hasher.combine(kind.title) }
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
        withUnsafeBytes(of: Int64(number).littleEndian) { hash.combine($0) }
        hash.endPart()
    }

    /// What sets the cells `attachment` takes: its kind and sizes, and whether a photo is stored
    /// (drawn at its true size) or still on its way up (drawn from its rendition).
    mutating func combine(cellsOf attachment: Attachment) {
        switch attachment {
        case .photo(let photo):
            combine(0)
            combine(cellsOf: photo)
        case .video(let video):
            combine(1)
            combine(video.poster.width)
            combine(video.poster.height)
        case .carousel(let items):
            // Every item is drawn as tall as the first.
            combine(2)
            switch items.first {
            case .photo(let photo)?:
                combine(0)
                combine(cellsOf: photo)
            case .video(let video)?:
                combine(1)
                combine(video.poster.width)
                combine(video.poster.height)
            case .unknown?: combine(2)
            case nil: combine(3)
            }
        case .unknown(let payload):
            combine(3)
            combine(payload.typeName)
        }
    }

    private mutating func combine(cellsOf photo: Attachment.Photo) {
        combine(photo.id == nil ? 0 : 1)
        combine(photo.id == nil ? photo.pixels.width : photo.width)
        combine(photo.id == nil ? photo.pixels.height : photo.height)
    }

    var value: Int { Int(truncatingIfNeeded: hash.value & 0x3FFF_FFFF_FFFF_FFFF) }
}
