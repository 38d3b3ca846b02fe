import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// The home feed as the screen shows it: the posts made on this device that no server list
    /// holds yet (pending, failed, or confirmed), newest first, then the server's entries without
    /// the deleted ones, every entry with its merged facts.
    ///
    /// A post of this device the list already holds (matched by its client token, its server
    /// id, or — for lists that lost the token — its author, text and attachments) is shown once,
    /// as the server's entry. Confirmed posts the list holds leave the layer.
    ///
    /// ```swift
    /// let rows = manager.mergedHomeFeed(try cache.entries(from: 0, count: 50).map(\.entry), store: store)
    /// ```
    ///
    /// - Parameters:
    ///   - entries: the server's feed entries, in feed order (from the feed cache).
    ///   - facts: the server's facts of the entries' media (`MediaStore.facts(for:)`).
    /// - Complexity: O(n + p) for n entries and p posts of this device; one dictionary lookup
    ///   per media when nothing is pending on it.
    public func mergedHomeFeed(_ entries: [FeedEntry], facts: [MediaID: MediaFacts]) -> [MergedEntry] {
        let (layer, viewer) = state.withLock { ($0.layer, $0.viewer) }
        var retired: [MutationToken] = []
        let merged = Self.homeFeed(entries, facts: facts, layer: layer, viewer: viewer, retired: &retired)
        if !retired.isEmpty { retire(retired) }
        return merged
    }

    /// `mergedHomeFeed(_:facts:)` with the facts read from `store`.
    public func mergedHomeFeed(_ entries: [FeedEntry], store: MediaStore) -> [MergedEntry] {
        let layer = state.withLock { $0.layer }
        var ids: [MediaID] = []
        ids.reserveCapacity(entries.count + layer.top.count)
        for entry in entries { ids.append(contentsOf: entry.mediaIDs) }
        for token in layer.top { if let post = layer.posts[token] { ids.append(post.entry.media.id) } }
        return mergedHomeFeed(entries, facts: store.facts(for: ids))
    }

    /// A thread as the screen shows it: pending effects on the ancestors and the post, deleted
    /// replies left out, and the replies made on this device that the page does not hold yet
    /// appended oldest first (pending, failed, or confirmed).
    public func mergedThread(_ page: ThreadPage, facts: [MediaID: MediaFacts]) -> MergedThread {
        let layer = state.withLock { $0.layer }
        var retired: [MutationToken] = []
        let postID = page.post.id
        var mergedFacts: [MediaID: MediaFacts] = [:]
        for media in page.ancestors + [page.post] {
            mergedFacts[media.id] = layer.facts(facts[media.id], for: media.id)
        }
        let replies = Self.replies(
            page.replies.entries, of: postID, facts: facts, layer: layer, retired: &retired)
        if !retired.isEmpty { retire(retired) }
        return MergedThread(
            ancestors: page.ancestors, post: page.post, postStatus: .server,
            isDeleted: layer.isHidden(postID),
            facts: mergedFacts, replies: replies, nextCursor: page.replies.nextCursor)
    }

    /// The thread of a post made on this device (`local:<token>`), from the layer alone: the post
    /// (the server's once confirmed) and the replies made here. Nil for other ids.
    public func mergedThread(ofLocal id: MediaID, facts: [MediaID: MediaFacts] = [:]) -> MergedThread? {
        guard let token = MutationToken(localMediaID: id) else { return nil }
        let layer = state.withLock { $0.layer }
        guard let post = layer.posts[token] else { return nil }
        let postID = post.entry.media.id
        var retired: [MutationToken] = []
        var replies = Self.replies([], of: postID, facts: facts, layer: layer, retired: &retired)
        if postID != id { replies += Self.replies([], of: id, facts: facts, layer: layer, retired: &retired) }
        return MergedThread(
            ancestors: [], post: post.entry.media, postStatus: post.status, isDeleted: layer.isHidden(postID),
            facts: [postID: layer.facts(facts[postID], for: postID)], replies: replies, nextCursor: nil)
    }

    /// A profile as the screen shows it: the follow state as the last pending follow or unfollow
    /// (else a just-confirmed one, until a profile agrees) says, the follower count moved to
    /// match, and the posts merged. On the viewer's own profile the post count follows the posts
    /// shown: one fewer for each listed post deleted here, one more for each made here that the
    /// list does not hold yet. The viewer's own profile shows their posts made here as the
    /// home feed does, but never retires them (only the home feed's merge does).
    public func mergedProfile(_ profile: Profile, facts: [MediaID: MediaFacts]) -> MergedProfile {
        let (layer, viewer) = state.withLock { ($0.layer, $0.viewer) }
        var merged = profile
        var status = OptimisticStatus.server
        var retired: [MutationToken] = []
        let user = profile.user.id
        if let last = layer.follows[user]?.last {
            status = .pending(last.token)
            if last.value != profile.viewerFollows {
                merged.viewerFollows = last.value
                merged.followerCount = max(0, profile.followerCount + (last.value ? 1 : -1))
            }
        } else if let relationship = layer.relationships[user] {
            if relationship.following == profile.viewerFollows {
                retired.append(relationship.token)
            } else {
                merged.viewerFollows = relationship.following
                merged.followerCount =
                    relationship.followerCount
                    ?? max(0, profile.followerCount + (relationship.following ? 1 : -1))
            }
        }
        var posts: [MergedEntry]
        if profile.isViewer {
            // The viewer's edits of their name and bio show at once; a confirmed one goes once
            // the server's profile shows it, and with it every confirmed edit made before it
            // (which the server's answer has overtaken).
            merged.user = layer.profile(profile.user)
            let confirmed = layer.profileEdits.filter(\.confirmed)
            if let shownUpTo = confirmed.lastIndex(where: { edit in
                (edit.displayName ?? profile.user.displayName) == profile.user.displayName
                    && (edit.bio ?? profile.user.bio) == profile.user.bio
            }) {
                retired += confirmed[...shownUpTo].map(\.token)
            }
            // The viewer's posts made here show on their profile as on Home, but only the home
            // feed's merge may retire them: Home keeps showing a confirmed post from the layer
            // until its own list holds it, whatever the profile's list holds.
            var shownOnProfile: [MutationToken] = []
            posts = Self.homeFeed(
                profile.posts.entries, facts: facts, layer: layer, viewer: viewer, retired: &shownOnProfile)
            // The count follows what is shown: less the listed posts deleted here, plus the posts
            // made here the list does not hold yet.
            let listed = Set(profile.posts.entries.map(\.id))
            let shownListed = posts.reduce(0) { $0 + (listed.contains($1.id) ? 1 : 0) }
            let deleted = profile.posts.entries.count - shownListed
            let added = posts.count - shownListed
            merged.postCount = max(0, profile.postCount - deleted + added)
        } else {
            posts = []
            posts.reserveCapacity(profile.posts.entries.count)
            for entry in profile.posts.entries {
                if let entry = Self.merged(entry, facts: facts, layer: layer) { posts.append(entry) }
            }
        }
        if !retired.isEmpty { retire(retired) }
        return MergedProfile(profile: merged, followStatus: status, posts: posts)
    }

    /// The server's facts of one media with the pending effects applied.
    public func mergedFacts(_ facts: MediaFacts?, for id: MediaID) -> MediaFacts {
        state.withLock { $0.layer.facts(facts, for: id) }
    }

    /// Whether the viewer follows `user`, given the server's answer.
    public func isFollowing(_ user: UserID, server: Bool) -> Bool {
        state.withLock { $0.layer.following(user, server: server) }
    }

    /// The kinds of this device's changes to a post that failed for good, oldest first, but
    /// for a flag the post's merged `facts` show set as the change wanted anyway.
    public func notSent(_ id: MediaID, facts: MediaFacts) -> [MutationKind] {
        state.withLock { $0.layer.notSent(id, facts: facts) }
    }

    /// Whether a media is deleted by a pending or confirmed delete of this device.
    public func isDeleted(_ id: MediaID) -> Bool {
        state.withLock { $0.layer.isHidden(id) }
    }

    // MARK: - Merging, pure

    static func homeFeed(
        _ entries: [FeedEntry], facts: [MediaID: MediaFacts], layer: OptimisticLayer, viewer: User?,
        retired: inout [MutationToken]
    ) -> [MergedEntry] {
        var output: [MergedEntry] = []
        output.reserveCapacity(entries.count + layer.top.count)
        guard !layer.isEmpty else {
            for entry in entries {
                var parentFacts: MediaFacts?
                if case .reply(let parent) = entry.context { parentFacts = facts[parent.id] ?? MediaFacts() }
                output.append(
                    MergedEntry(
                        entry: entry, facts: facts[entry.media.id] ?? MediaFacts(), parentFacts: parentFacts,
                        status: .server))
            }
            return output
        }
        let shown =
            layer.top.isEmpty
            ? [] : sightings(entries, parent: nil, layer: layer, viewer: viewer?.id, retired: &retired)
        for token in layer.top.reversed() where !shown.contains(token) {
            guard let post = layer.posts[token],
                let postFacts = layer.visibleFacts(facts[post.entry.media.id], for: post.entry.media.id)
            else { continue }
            output.append(
                MergedEntry(
                    entry: Self.shown(post, as: viewer), facts: postFacts, status: post.status,
                    notSent: layer.notSent(post.entry.media.id, facts: postFacts)))
        }
        for entry in entries {
            if let merged = merged(entry, facts: facts, layer: layer) { output.append(merged) }
        }
        return output
    }

    /// A server entry with merged facts, or nil when its media is deleted.
    static func merged(_ entry: FeedEntry, facts: [MediaID: MediaFacts], layer: OptimisticLayer)
        -> MergedEntry?
    {
        guard let entryFacts = layer.visibleFacts(facts[entry.media.id], for: entry.media.id) else {
            return nil
        }
        var parentFacts: MediaFacts?
        if case .reply(let parent) = entry.context {
            parentFacts = layer.facts(facts[parent.id], for: parent.id)
        }
        return MergedEntry(
            entry: entry, facts: entryFacts, parentFacts: parentFacts, status: .server,
            notSent: layer.notSent(entry.media.id, facts: entryFacts))
    }

    /// A thread's server replies merged, then this device's replies to `parent` the page does
    /// not hold yet.
    static func replies(
        _ entries: [FeedEntry], of parent: MediaID, facts: [MediaID: MediaFacts], layer: OptimisticLayer,
        retired: inout [MutationToken]
    ) -> [MergedEntry] {
        var output: [MergedEntry] = []
        let mine = layer.replies[parent] ?? []
        let shown =
            mine.isEmpty
            ? [] : sightings(entries, parent: parent, layer: layer, viewer: nil, retired: &retired)
        for entry in entries {
            if let merged = merged(entry, facts: facts, layer: layer) { output.append(merged) }
        }
        for token in mine where !shown.contains(token) {
            guard let post = layer.posts[token],
                let postFacts = layer.visibleFacts(facts[post.entry.media.id], for: post.entry.media.id)
            else { continue }
            output.append(
                MergedEntry(
                    entry: post.entry, facts: postFacts, status: post.status,
                    notSent: layer.notSent(post.entry.media.id, facts: postFacts)))
        }
        return output
    }

    /// The posts (or replies to `parent`) of this device that `entries` already holds; the
    /// confirmed ones among them go to `retired`. `viewer` stands for the author of posts made
    /// before the viewer was known.
    static func sightings(
        _ entries: [FeedEntry], parent: MediaID?, layer: OptimisticLayer, viewer: UserID?,
        retired: inout [MutationToken]
    ) -> Set<MutationToken> {
        var shown: Set<MutationToken> = []
        for entry in entries {
            let media = entry.media
            if let raw = media.clientToken {
                let token = MutationToken(raw)
                if let post = layer.posts[token], post.parent == parent {
                    shown.insert(token)
                    if case .server = post.status { retired.append(token) }
                }
                continue
            }
            if let token = layer.serverMedia[media.id], let post = layer.posts[token], post.parent == parent {
                shown.insert(token)
                retired.append(token)
                continue
            }
            // A list that lost the token (the feed cache stores none): the same author, text and
            // attachments, made at most 10 minutes before this device queued its post.
            guard parent == nil, !media.author.id.rawValue.isEmpty,
                let candidates = layer.pendingTexts[media.text]
            else { continue }
            for token in candidates where !shown.contains(token) {
                guard let post = layer.posts[token],
                    Self.author(of: post, viewer: viewer) == media.author.id,
                    post.entry.media.attachments == media.attachments,
                    media.createdAt >= post.createdAt.addingTimeInterval(-600)
                else { continue }
                shown.insert(token)
                break
            }
        }
        return shown
    }

    /// Who made a post of this device: its author, or the viewer for one made while the viewer
    /// was not known (shown with a placeholder author).
    static func author(of post: OptimisticLayer.Post, viewer: UserID?) -> UserID? {
        let id = post.entry.media.author.id
        return id.rawValue.isEmpty ? viewer : id
    }

    /// A post's entry, shown as `viewer` when it was made before the viewer was known.
    static func shown(_ post: OptimisticLayer.Post, as viewer: User?) -> FeedEntry {
        guard let viewer, post.entry.media.author.id.rawValue.isEmpty else { return post.entry }
        var entry = post.entry
        entry.media = entry.media.byAuthor(viewer)
        return entry
    }
}
