import Foundation
import MediaModel
import ServerAPI

/// What the live journal rows add on top of server data, indexed for merging: per media, the
/// pending likes, reposts, replies and deletes; per user, the pending follows; the posts and
/// replies made on this device (pending, failed, or confirmed but not yet in a list); per
/// conversation, the messages sent from this device (pending, failed, or confirmed but not yet in
/// a page).
///
/// Kept apart from server data and keyed by token: `add` records what a row contributes and
/// `remove` takes exactly that back, each in O(log n) or better, so a change never rebuilds the
/// layer. A value type: merges read a snapshot while the manager changes its own copy.
struct OptimisticLayer: Sendable {
    /// A pending like or unlike, repost or undo, or follow or unfollow.
    struct Op: Sendable {
        var sequence: Int64
        var token: MutationToken
        var value: Bool
    }

    /// A pending reply counted in its parent's reply count. While its confirmation is being
    /// applied, `gate` is the parent's revision in the confirming response: server facts at that
    /// revision or newer already count the reply.
    struct ReplyCount: Sendable {
        var token: MutationToken
        var gate: Int64?
    }

    /// Everything pending on one media.
    struct FactEffect: Sendable {
        /// The pending changes of each flag (likes, reposts), by sequence; a flag without any
        /// has no entry.
        var flags: [MediaFlag: [Op]] = [:]
        var replies: [ReplyCount] = []
        var hides = 0
        /// The kinds of this device's changes to the post that failed for good (a like the
        /// server refused), oldest first, until retried or discarded.
        var notSent: [(token: MutationToken, kind: MutationKind)] = []

        var isEmpty: Bool { flags.isEmpty && replies.isEmpty && hides == 0 && notSent.isEmpty }
    }

    /// A post or reply made on this device.
    struct Post: Sendable {
        var token: MutationToken
        var sequence: Int64
        /// The entry shown: id `local:<token>`; the media is local while pending or failed, the
        /// server's once confirmed.
        var entry: FeedEntry
        var status: OptimisticStatus
        /// The parent of a reply.
        var parent: MediaID?
        var createdAt: Date

        var isPending: Bool { if case .pending = status { true } else { false } }
    }

    /// The viewer's confirmed relationship with a user, until a profile agrees.
    struct Relationship: Sendable {
        var token: MutationToken
        var sequence: Int64
        var following: Bool
        var followerCount: Int?
    }

    /// A message sent from this device.
    struct SentMessage: Sendable {
        var token: MutationToken
        var sequence: Int64
        /// The message shown: id `local:<token>` while pending or failed, the server's once
        /// confirmed; its client token is always the mutation's.
        var message: Message
        var status: OptimisticStatus
    }

    private enum Contribution: Sendable {
        case flag(MediaID, MediaFlag)
        case reply(parent: MediaID, counted: Bool)
        case post
        case hide(MediaID)
        case notSent(MediaID)
        case profile
        case follow(UserID)
        case relationship(UserID)
        case message(ConversationID)
    }

    /// Who a new post is shown as when the viewer is not known yet.
    static let placeholderAuthor = User(id: UserID(""), handle: "you", displayName: "You")

    private(set) var effects: [MediaID: FactEffect] = [:]
    private(set) var follows: [UserID: [Op]] = [:]
    private(set) var relationships: [UserID: Relationship] = [:]
    /// The viewer's edits of their name and bio, pending or confirmed but not yet shown by a
    /// profile from the server, in the order made.
    private(set) var profileEdits: [ProfileEdit] = []
    private(set) var posts: [MutationToken: Post] = [:]
    /// Top-level posts, oldest first.
    private(set) var top: [MutationToken] = []
    /// Replies by parent id, oldest first.
    private(set) var replies: [MediaID: [MutationToken]] = [:]
    /// Confirmed posts and replies by their server media id.
    private(set) var serverMedia: [MediaID: MutationToken] = [:]
    /// Pending top-level posts by text, for lists whose media lost its client token.
    private(set) var pendingTexts: [String: [MutationToken]] = [:]
    /// Messages sent from this device.
    private(set) var messages: [MutationToken: SentMessage] = [:]
    /// Each conversation's messages sent from this device, in the order made.
    private(set) var conversations: [ConversationID: [MutationToken]] = [:]
    private var contributions: [MutationToken: [Contribution]] = [:]

    /// An edit of the viewer's name and bio.
    struct ProfileEdit: Sendable {
        var token: MutationToken
        var sequence: Int64
        var displayName: String?
        var bio: String?
        /// Whether the server confirmed it (it stays until a profile from the server shows it).
        var confirmed: Bool
    }

    /// Whether nothing is pending, failed or awaiting a list.
    var isEmpty: Bool { contributions.isEmpty }

    // MARK: - Changes

    /// Records what `row` contributes (replacing what it contributed before).
    ///
    /// Complexity: O(log p) for p posts of this device, O(k) for k pending ops on its media.
    mutating func add(_ row: JournalRow) {
        remove(row.token)
        var added: [Contribution] = []
        switch row.state {
        case .confirmed:
            switch row.confirmation {
            case .post(let media, let parent)?:
                insertPost(row, media: media, status: .server, parent: parent)
                serverMedia[media.id] = row.token
                added.append(.post)
            case .deleted(let id)?:
                effects[id, default: FactEffect()].hides += 1
                added.append(.hide(id))
            case .relationship(let user, let following, let count)?:
                if let current = relationships[user], current.sequence > row.sequence { break }
                relationships[user] = Relationship(
                    token: row.token, sequence: row.sequence, following: following, followerCount: count)
                added.append(.relationship(user))
            case .message(let message)?:
                insertMessage(row, message, status: .server)
                added.append(.message(message.conversationID))
            case .facts?, nil:
                if case .profile(let name, let bio) = row.mutation.optimisticEffect {
                    insertProfileEdit(row, name, bio, confirmed: true)
                    added.append(.profile)
                }
            }
        case .failed:
            let message = row.lastError ?? "failed"
            switch row.mutation.optimisticEffect {
            case .newPost(let text, let attachments):
                insertPost(
                    row, media: localMedia(row, text: text, attachments: attachments),
                    status: .failed(row.token, message: message), parent: nil)
                added.append(.post)
            case .newReply(let parent, let text, let attachments):
                insertPost(
                    row, media: localMedia(row, text: text, attachments: attachments),
                    status: .failed(row.token, message: message), parent: parent)
                added.append(.reply(parent: parent, counted: false))
            case .newMessage(let conversation, let text, let attachments, let sharedPost):
                insertMessage(
                    row,
                    localMessage(
                        row, conversation, text: text, attachments: attachments, sharedPost: sharedPost),
                    status: .failed(row.token, message: message))
                added.append(.message(conversation))
            case .flag(let id, _, _), .hidden(let id):
                effects[id, default: FactEffect()].notSent.append((row.token, row.mutation.kind))
                added.append(.notSent(id))
            case .following, .profile:
                break
            }
        case .pending, .inFlight:
            switch row.mutation.optimisticEffect {
            case .newPost(let text, let attachments):
                insertPost(
                    row, media: localMedia(row, text: text, attachments: attachments),
                    status: .pending(row.token), parent: nil)
                pendingTexts[text, default: []].append(row.token)
                added.append(.post)
            case .newReply(let parent, let text, let attachments):
                insertPost(
                    row, media: localMedia(row, text: text, attachments: attachments),
                    status: .pending(row.token), parent: parent)
                effects[parent, default: FactEffect()].replies.append(ReplyCount(token: row.token, gate: nil))
                added.append(.reply(parent: parent, counted: true))
            case .flag(let id, let flag, let value):
                Self.insert(
                    Op(sequence: row.sequence, token: row.token, value: value),
                    into: &effects[id, default: FactEffect()].flags[flag, default: []])
                added.append(.flag(id, flag))
            case .hidden(let id):
                effects[id, default: FactEffect()].hides += 1
                added.append(.hide(id))
            case .profile(let name, let bio):
                insertProfileEdit(row, name, bio, confirmed: false)
                added.append(.profile)
            case .following(let user, let following):
                Self.insert(
                    Op(sequence: row.sequence, token: row.token, value: following),
                    into: &follows[user, default: []])
                added.append(.follow(user))
            case .newMessage(let conversation, let text, let attachments, let sharedPost):
                insertMessage(
                    row,
                    localMessage(
                        row, conversation, text: text, attachments: attachments, sharedPost: sharedPost),
                    status: .pending(row.token))
                added.append(.message(conversation))
            }
        }
        if !added.isEmpty { contributions[row.token] = added }
    }

    /// Takes back everything `token` contributed.
    mutating func remove(_ token: MutationToken) {
        guard let removed = contributions.removeValue(forKey: token) else { return }
        for contribution in removed {
            switch contribution {
            case .flag(let id, let flag):
                update(id) { effect in
                    effect.flags[flag]?.removeAll { $0.token == token }
                    if effect.flags[flag]?.isEmpty == true { effect.flags[flag] = nil }
                }
            case .hide(let id):
                update(id) { $0.hides -= 1 }
            case .notSent(let id):
                update(id) { $0.notSent.removeAll { $0.token == token } }
            case .profile:
                profileEdits.removeAll { $0.token == token }
            case .reply(let parent, let counted):
                if counted { update(parent) { $0.replies.removeAll { $0.token == token } } }
                removePost(token)
            case .post:
                removePost(token)
            case .follow(let user):
                follows[user]?.removeAll { $0.token == token }
                if follows[user]?.isEmpty == true { follows[user] = nil }
            case .relationship(let user):
                if relationships[user]?.token == token { relationships[user] = nil }
            case .message(let conversation):
                messages[token] = nil
                conversations[conversation]?.removeAll { $0 == token }
                if conversations[conversation]?.isEmpty == true { conversations[conversation] = nil }
            }
        }
    }

    /// Marks a pending reply's count as already included in server facts at `revision` or newer
    /// (while its confirmation is applied).
    mutating func gateReply(_ token: MutationToken, parent: MediaID, revision: Int64) {
        update(parent) { effect in
            if let index = effect.replies.firstIndex(where: { $0.token == token }) {
                effect.replies[index].gate = revision
            }
        }
    }

    // MARK: - Reading

    /// Server facts of `id` (or empty facts) with the pending effects applied: each of the
    /// viewer's flags (like, repost) as the last pending mutation says, counts moved only by the difference from
    /// the server's state, and pending replies counted.
    ///
    /// Complexity: O(1) plus the pending replies of `id`.
    func facts(_ server: MediaFacts?, for id: MediaID) -> MediaFacts {
        var facts = server ?? MediaFacts()
        guard let effect = effects[id] else { return facts }
        for (flag, ops) in effect.flags {
            if let value = ops.last?.value { facts = flag.applied(value, to: facts) }
        }
        for reply in effect.replies where reply.gate.map({ facts.revision < $0 }) ?? true {
            facts.replyCount += 1
        }
        return facts
    }

    /// `facts(_:for:)`, or nil when `id` is deleted: one lookup for both (the merge's hot path).
    func visibleFacts(_ server: MediaFacts?, for id: MediaID) -> MediaFacts? {
        guard let effect = effects[id] else { return server ?? MediaFacts() }
        if effect.hides > 0 { return nil }
        return facts(server, for: id)
    }

    /// The kinds of this device's changes to `id` that failed for good, oldest first (none in
    /// the usual case: one lookup). A failed like is left out once the post is liked anyway (the
    /// person pressed the key again and that one went through): `facts` are the merged ones.
    func notSent(_ id: MediaID, facts: MediaFacts) -> [MutationKind] {
        guard let failed = effects[id]?.notSent, !failed.isEmpty else { return [] }
        return failed.map(\.kind).filter { kind in
            if case .flag(let flag, let value) = kind.effect { return facts[keyPath: flag.state] != value }
            return true
        }
    }

    /// The viewer as their own profile should show them: `user` (the server's) with the edits of
    /// name and bio made here applied in order.
    func profile(_ user: User) -> User {
        guard !profileEdits.isEmpty else { return user }
        var name = user.displayName
        var bio = user.bio
        for edit in profileEdits {
            if let displayName = edit.displayName { name = displayName }
            if let newBio = edit.bio { bio = newBio }
        }
        return User(id: user.id, handle: user.handle, displayName: name, avatar: user.avatar, bio: bio)
    }

    /// Whether `id` is deleted by a pending or confirmed delete.
    func isHidden(_ id: MediaID) -> Bool { (effects[id]?.hides ?? 0) > 0 }

    /// Whether the viewer follows `user`: the last pending follow or unfollow, else the confirmed
    /// relationship, else the server's answer.
    func following(_ user: UserID, server: Bool) -> Bool {
        if let last = follows[user]?.last { return last.value }
        return relationships[user]?.following ?? server
    }

    // MARK: - Helpers

    private func localMedia(_ row: JournalRow, text: String, attachments: [MediaModel.Attachment]) -> Media {
        Media(
            id: row.token.localMediaID, author: row.author ?? Self.placeholderAuthor,
            createdAt: Date(wireMilliseconds: row.createdAt), text: text, attachments: attachments,
            clientToken: row.token.rawValue)
    }

    private func localMessage(
        _ row: JournalRow, _ conversation: ConversationID, text: String, attachments: [MediaModel.Attachment],
        sharedPost: MediaID?
    ) -> Message {
        Message(
            id: MessageID("local:\(row.token.rawValue)"), conversationID: conversation,
            sender: row.author ?? Self.placeholderAuthor, createdAt: Date(wireMilliseconds: row.createdAt),
            text: text, attachments: attachments, sharedPostID: sharedPost, clientToken: row.token.rawValue)
    }

    /// Adds a message of this device to its conversation, in the order made: an append in the
    /// usual case, an insertion for a row loaded out of order.
    private mutating func insertMessage(_ row: JournalRow, _ message: Message, status: OptimisticStatus) {
        var message = message
        message.clientToken = row.token.rawValue
        messages[row.token] = SentMessage(
            token: row.token, sequence: row.sequence, message: message, status: status)
        // In place: a copy of the list taken out and put back copied every message of the
        // conversation for each new one (a burst of 1,000 cost twice a burst of likes).
        let index = insertionIndex(of: row.sequence, in: message.conversationID)
        conversations[message.conversationID, default: []].insert(row.token, at: index)
    }

    /// Where a message of `sequence` goes in `conversation`'s list: at its end in the usual case,
    /// after the last message made before it otherwise.
    private func insertionIndex(of sequence: Int64, in conversation: ConversationID) -> Int {
        guard let list = conversations[conversation], let last = list.last else { return 0 }
        guard let newest = messages[last]?.sequence, newest > sequence else { return list.count }
        return list.lastIndex { (messages[$0]?.sequence ?? .min) < sequence }.map { $0 + 1 } ?? 0
    }

    private mutating func insertProfileEdit(
        _ row: JournalRow, _ name: String?, _ bio: String?, confirmed: Bool
    ) {
        let edit = ProfileEdit(
            token: row.token, sequence: row.sequence, displayName: name, bio: bio, confirmed: confirmed)
        let index = profileEdits.firstIndex { $0.sequence > row.sequence } ?? profileEdits.count
        profileEdits.insert(edit, at: index)
    }

    private mutating func insertPost(
        _ row: JournalRow, media: Media, status: OptimisticStatus, parent: MediaID?
    ) {
        posts[row.token] = Post(
            token: row.token, sequence: row.sequence,
            entry: FeedEntry(id: row.token.localEntryID, media: media), status: status, parent: parent,
            createdAt: Date(wireMilliseconds: row.createdAt))
        let posts = self.posts
        if let parent {
            Self.insertBySequence(row.token, row.sequence, into: &replies[parent, default: []], posts: posts)
        } else {
            Self.insertBySequence(row.token, row.sequence, into: &top, posts: posts)
        }
    }

    private mutating func removePost(_ token: MutationToken) {
        guard let post = posts.removeValue(forKey: token) else { return }
        if let parent = post.parent {
            replies[parent]?.removeAll { $0 == token }
            if replies[parent]?.isEmpty == true { replies[parent] = nil }
        } else {
            top.removeAll { $0 == token }
        }
        if case .server = post.status, serverMedia[post.entry.media.id] == token {
            serverMedia[post.entry.media.id] = nil
        }
        let text = post.entry.media.text
        if pendingTexts[text] != nil {
            pendingTexts[text]?.removeAll { $0 == token }
            if pendingTexts[text]?.isEmpty == true { pendingTexts[text] = nil }
        }
    }

    private mutating func update(_ id: MediaID, _ change: (inout FactEffect) -> Void) {
        guard var effect = effects[id] else { return }
        change(&effect)
        effects[id] = effect.isEmpty ? nil : effect
    }

    /// Inserts `token` in a list ordered by sequence: an append in the usual case (the newest
    /// mutation), a binary search otherwise (a retried one, or rows loaded out of order).
    private static func insertBySequence(
        _ token: MutationToken, _ sequence: Int64, into list: inout [MutationToken],
        posts: [MutationToken: Post]
    ) {
        func sequenceOf(_ token: MutationToken) -> Int64 { posts[token]?.sequence ?? .max }
        guard let last = list.last, sequenceOf(last) > sequence else {
            list.append(token)
            return
        }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if sequenceOf(list[middle]) < sequence { low = middle + 1 } else { high = middle }
        }
        list.insert(token, at: low)
    }

    private static func insert(_ op: Op, into list: inout [Op]) {
        if let last = list.last, last.sequence > op.sequence {
            let index = list.firstIndex { $0.sequence > op.sequence } ?? list.count
            list.insert(op, at: index)
        } else {
            list.append(op)
        }
    }
}
