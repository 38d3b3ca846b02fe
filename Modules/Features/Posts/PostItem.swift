import Basics
import Foundation
import ListEngine
import MediaModel
import Mutations

/// One post as a list shows it: the media, how this surface presents it, the shared facts
/// merged with pending changes, and whether the server has confirmed it.
///
/// Items carry list identity (`id`), not the media: the same media can be two items of one
/// list, as a post and as a reply's parent.
package struct PostItem: ListDiffable, ListContentVersioned, Sendable, Hashable, CustomStringConvertible {
    /// Where the server stands on the item.
    package enum State: Sendable, Hashable {
        /// The server has it.
        case confirmed
        /// Made on this device and not yet confirmed.
        case pending
        /// The server refused it; the message says why.
        case failed(String)
    }

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
    /// The post.
    package var media: Media
    /// Why the post is in the feed: on its own, as a reply under its parent, or reposted.
    package var context: FeedEntry.Context
    /// Likes, replies and reposts as the viewer should see them now.
    package var facts: MediaFacts
    /// The parent's facts, for a reply shown under its parent.
    package var parentFacts: MediaFacts?
    /// Confirmed, pending or failed.
    package var state: State
    /// How the item sits in its list.
    package var role: Role
    /// The post's age as shown ("5m", "3h"), made when the item was built.
    package var age: String
    /// The token of the pending change that made this item, for a post not yet confirmed.
    package var pendingToken: String?
    /// A number that changes when the item's height may change (the feed cache's version for
    /// cached entries).
    package var contentVersion: Int

    /// Makes an item.
    package init(
        id: String, media: Media, context: FeedEntry.Context = .standalone, facts: MediaFacts,
        parentFacts: MediaFacts? = nil, state: State = .confirmed, role: Role = .feed, age: String,
        pendingToken: String? = nil, contentVersion: Int
    ) {
        self.id = id
        self.media = media
        self.context = context
        self.facts = facts
        self.parentFacts = parentFacts
        self.state = state
        self.role = role
        self.age = age
        self.pendingToken = pendingToken
        self.contentVersion = contentVersion
    }

    package var diffIdentifier: String { id }

    package func isContentEqual(to other: PostItem) -> Bool { self == other }

    /// `@handle: text` (the fallback row's summary).
    package var description: String {
        let text = media.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return "\(media.kind) by @\(media.author.handle): \(text)"
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

extension PostItem.State {
    /// The state of a merged row: confirmed for server data, else pending or failed.
    init(_ status: OptimisticStatus) {
        switch status {
        case .server: self = .confirmed
        case .pending: self = .pending
        case .failed(_, let message): self = .failed(message)
        }
    }
}
