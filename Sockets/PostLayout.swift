import Composition

/// One part of a post as a list draws it.
public enum PostRow: String, Sendable, Hashable, CaseIterable {
    /// The author's avatar glyph, name, handle and the post's age.
    case header
    /// The attachments: a photo as color art, a carousel with its position, a video's poster.
    case media
    /// The post's text or caption (after its first line when the layout has a ``title`` row).
    case text
    /// The text's first line, in bold, as a title: for long-form posts.
    case title
    /// Like, reply and repost counts, and whether the viewer liked it.
    case actions
    /// A line leading to the replies ("view all 12 comments").
    case replySummary
}

/// The rows a post is made of, their order, and how large media is drawn.
public protocol PostLayout: Sendable {
    /// The rows of a post in a list, top to bottom.
    var rows: [PostRow] { get }
    /// How many terminal lines a photo occupies at most (each line shows two pixel rows).
    var mediaLines: Int { get }
    /// Whether the text row starts with the author's handle (a caption under a photo).
    var captionLeadsWithAuthor: Bool { get }
    /// In a list (Home, a profile), the most lines of text a post shows, its title not counted:
    /// a longer text is cut, its last line ending in "…", and shown whole when the post is
    /// opened. Nil (the default) shows every post whole.
    var excerptLines: Int? { get }
}

extension PostLayout {
    /// Posts are shown whole.
    public var excerptLines: Int? { nil }
}

@usableFromInline let postLayoutSocket = Socket<any PostLayout>.required(
    "postLayout", summary: "the rows a post is made of and their order")

extension Socket where Contract == any PostLayout {
    /// The rows a post is made of and their order. Required.
    @inlinable public static var postLayout: Socket<any PostLayout> { postLayoutSocket }
}
