import MediaModel
import Wire

/// A kind of change, described once: everything the mutation manager, the request, the journal,
/// the Sync tab and the post keys need to know about it, in one value.
///
/// Every kind is a static member declared in MutationKinds.swift and listed in
/// ``MutationKind/all``. The code that sends, journals, merges, confirms and shows changes reads
/// these fields and never switches over kinds, so a new kind is one description there (plus the
/// backend route it names and, for a new fact, the fact); see <doc:AddingAMutationKind>.
///
/// Two kinds are equal when their names are: the name and the journal tag are stored on disk
/// (journals, attempt logs) and never change.
public struct MutationKind: Hashable, Sendable, CustomStringConvertible {
    /// What a change acts on, which also fixes its lane, its request path and its journal form.
    public enum Subject: Hashable, Sendable {
        /// A new top-level post: text and attachments, sent to `/v1/posts`; lane `posts`.
        case newPost
        /// A reply: a parent post, text and attachments, sent to `/v1/posts/{parent}/<path>`;
        /// lane `thread:<parent>`.
        case reply
        /// One post, sent to `/v1/posts/{id}[/<path>]`; lane `media:<id>`.
        case media
        /// One user, sent to `/v1/users/{id}/<path>`; lane `user:<id>`.
        case user
        /// A conversation: text, attachments and a shared post, sent to
        /// `/v1/conversations/{id}/<path>`; lane `conversation:<id>`, so one conversation's
        /// messages go in the order typed and other conversations are not held up.
        case conversation
        /// The viewer's own account: its fields as JSON in the mutation's text, sent to
        /// `/v1/me/<path>`; lane `account`, so edits go in the order made.
        case account
    }

    /// What the change shows while it is pending (made into an ``OptimisticEffect``).
    public enum Effect: Hashable, Sendable {
        /// A new post at the top of Home.
        case newPost
        /// A new reply under its parent, counted in the parent's replies.
        case newReply
        /// The viewer's flag on the post (`MediaFlag`) set to the value.
        case flag(MediaFlag, Bool)
        /// The post hidden everywhere.
        case hide
        /// The viewer following (true) or not following (false) the user.
        case follow(Bool)
        /// A new message at the bottom of its conversation, marked as sending.
        case newMessage
        /// The viewer's display name and bio as edited, on their own profile.
        case profile
    }

    /// What the confirming response leaves behind (made into a ``MutationConfirmation``).
    public enum Confirmation: Hashable, Sendable {
        /// The response's facts: `MediaStore` shows the change.
        case facts
        /// The post or reply made, kept until the lists include it.
        case post
        /// The post deleted. A 404 answer means it is already gone: done, not refused.
        case deleted
        /// The viewer's relationship with the user, following when the response does not say.
        case relationship(following: Bool)
        /// The message sent, kept until a page of its conversation includes it.
        case message
    }

    /// The key a list of posts makes the change with (`l` likes the selected post): its words in
    /// the help and the footer, and what the status line says after it.
    public struct PostKey: Hashable, Sendable {
        /// What pressing the key does.
        public enum Action: Hashable, Sendable {
            /// Makes the change, or its ``MutationKind/undo`` kind when the selected post's flag
            /// (the kind's `Effect.flag`) is already on.
            case toggle
            /// Opens the composer for the change (a reply); the help calls it what the app calls
            /// a reply.
            case compose
            /// Asks first, and makes the change when the key is pressed again; only the post's
            /// author may (a delete).
            case confirmTwice
        }

        /// What the status line says while a toggle's change shows, and once it is refused;
        /// `{post}` stands for whose post (`"@grace's post"`).
        public struct Said: Hashable, Sendable {
            /// Once the flag is on (`"reposted {post}"`).
            public var on: String
            /// Once the flag is off (`"repost of {post} undone"`).
            public var off: String
            /// When turning it on was refused (`"repost {post}"` after "could not").
            public var refusedOn: String
            /// When turning it off was refused.
            public var refusedOff: String

            /// Describes what is said.
            public init(on: String, off: String, refusedOn: String, refusedOff: String) {
                self.on = on
                self.off = off
                self.refusedOn = refusedOn
                self.refusedOff = refusedOff
            }
        }

        /// The key.
        public var character: Character
        /// What pressing it does.
        public var action: Action
        /// The key's words in the help (`"repost / undo repost"`).
        public var help: String
        /// The footer's words for the selected post when its flag is off and when it is on
        /// (`"repost"`, `"undo repost"`), or nil when the footer says ``help``.
        public var footerOff: String?
        /// The footer's words when the flag is on.
        public var footerOn: String?
        /// Whether the footer shows the key (the footer must fit 80 columns).
        public var inFooter: Bool
        /// What the status line says after the key, or nil when the post shows enough (a like).
        public var said: Said?

        /// Describes a key.
        public init(
            _ character: Character, _ action: Action = .toggle, help: String,
            footer: (off: String, on: String)? = nil, inFooter: Bool = true, said: Said? = nil
        ) {
            self.character = character
            self.action = action
            self.help = help
            self.footerOff = footer?.off
            self.footerOn = footer?.on
            self.inFooter = inFooter
            self.said = said
        }
    }

    /// The kind's name, as journals, attempt logs and retry policies name it (`"like"`).
    public let name: String
    /// The journal's tag for the kind: never reused, never renumbered.
    public let journalTag: UInt8
    /// What the change acts on.
    public let subject: Subject
    /// The request's method.
    public let method: HTTPMethod
    /// The request path under the subject's path (`"like"` for `/v1/posts/{id}/like`); empty for
    /// the subject's path itself (a delete is `DELETE /v1/posts/{id}`).
    public let path: String
    /// What the change shows while pending.
    public let effect: Effect
    /// What a confirmation keeps.
    public let confirmation: Confirmation
    /// What the Sync tab calls the change (`"undo repost"`).
    public let title: String
    /// What a 404 means for this kind, in a person's words, or nil to keep the server's message.
    public let notFound: String?
    /// What a 403 means for this kind; `{account}` stands for the account a user change is about.
    public let forbidden: String?
    /// What the status line says while the change is on its way to the server (`"deleting…"`),
    /// or nil when the screen shows enough.
    public let progress: String?
    /// The kind that takes this one back (`unlike` for `like`), for a key that toggles a flag.
    public let undo: String?
    /// The post key that makes the change, for a flag kind; the undo kind has none of its own.
    public let key: PostKey?

    /// Describes a kind. The refusals default to what a 404 and a 403 mean for the subject.
    public init(
        _ name: String, tag journalTag: UInt8, subject: Subject, _ method: HTTPMethod, path: String,
        effect: Effect, confirmation: Confirmation = .facts, title: String? = nil,
        notFound: String?? = nil, forbidden: String?? = nil, progress: String? = nil, undo: String? = nil,
        key: PostKey? = nil
    ) {
        self.name = name
        self.journalTag = journalTag
        self.subject = subject
        self.method = method
        self.path = path
        self.effect = effect
        self.confirmation = confirmation
        self.title = title ?? name
        switch subject {
        case .newPost:
            self.notFound = notFound ?? nil
            self.forbidden = forbidden ?? "not allowed: this account may not post"
        case .reply, .media:
            self.notFound = notFound ?? "the post is gone: it was deleted"
            self.forbidden = forbidden ?? "not allowed: the server refused this for this post"
        case .user:
            self.notFound = notFound ?? "the account is gone: it was closed"
            self.forbidden = forbidden ?? "not allowed: the server does not let you \(self.title) {account}"
        case .conversation:
            self.notFound = notFound ?? "the conversation is gone"
            self.forbidden = forbidden ?? "not allowed: you are not in this conversation"
        case .account:
            self.notFound = notFound ?? nil
            self.forbidden = forbidden ?? "not allowed: the server refused this change of your account"
        }
        self.progress = progress
        self.undo = undo
        self.key = key
    }

    /// The name.
    public var description: String { name }

    /// The kind named `name` among ``all``, or nil.
    public init?(named name: String) {
        guard let kind = Self.all.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// The kind whose journal tag is `tag` among ``all``, or nil.
    public init?(journalTag tag: UInt8) {
        guard let kind = Self.all.first(where: { $0.journalTag == tag }) else { return nil }
        self = kind
    }

    /// The kind that takes this one back, if any.
    public var undoKind: MutationKind? { undo.flatMap(MutationKind.init(named:)) }

    /// Whether a confirmed change of this kind changes whose posts the home feed holds, all the
    /// way down and not only at its top (a follow brings the account's older posts in, an
    /// unfollow takes them away): the feed cache then fetches its whole range again at the next
    /// refresh. Derived from the effect: every `.follow` kind does, and a `.profile` kind (the
    /// viewer's new name is in every post of theirs).
    public var reshapesHomeFeed: Bool {
        switch effect {
        case .follow, .profile: true
        default: false
        }
    }

    /// Whether a confirmed change of this kind stays in the journal and the optimistic layer
    /// until a list from the server shows it, though its confirmation keeps nothing but facts:
    /// an edit of the viewer's profile, which the profile fetched before it would otherwise
    /// undo on screen. Derived from the effect.
    public var keptUntilShown: Bool {
        if case .profile = effect { return true }
        return false
    }

    /// Whether the change carries text and attachments (a post, a reply or a message; an account
    /// change carries its fields as text).
    public var carriesContent: Bool {
        subject == .newPost || subject == .reply || subject == .conversation || subject == .account
    }

    /// The request path's shape, `{id}` standing for the subject (`"PUT /v1/posts/{id}/like"`).
    public var route: String {
        let base =
            switch subject {
            case .newPost: "/v1/posts"
            case .reply, .media: "/v1/posts/{id}"
            case .user: "/v1/users/{id}"
            case .conversation: "/v1/conversations/{id}"
            case .account: "/v1/me"
            }
        return "\(method) " + (path.isEmpty ? base : base + "/" + path)
    }

    public static func == (lhs: MutationKind, rhs: MutationKind) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
