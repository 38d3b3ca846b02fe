import Composition
import Foundation
import PrismApp
import StrandApp
import Testing

/// One app as it ships (its real definition and embedded manifest), with what that app is
/// expected to do differently: the cross-app suite runs every scenario against each.
public struct ShippedApp: Sendable, CustomTestStringConvertible {
    /// The app's definition, exactly as its executable launches it.
    public let definition: AppDefinition
    /// The title of a post's replies screen.
    public let threadTitle: String
    /// Whether the home feed shows text-only posts.
    public let showsTextPosts: Bool
    /// Whether a reply in the home feed is shown under its parent.
    public let showsReplyParent: Bool
    /// Whether a new post needs a photo.
    public let requiresPhoto: Bool
    /// The longest text a post may have.
    public let textLimit: Int
    /// What the composer says when a post has no photo, if it needs one.
    public let missingPhotoMessage: String?
    /// The title bar's start.
    public let titlePrefix: String
    /// Whether replies are comments (text only, no photo picker) rather than threaded posts.
    public let repliesAreComments: Bool
    /// The reply composer's title.
    public let replyTitle: String
    /// How the viewer's own reply "Nice one" is drawn in the thread.
    public let ownReplyLine: String

    /// The app's id.
    public var id: String { definition.id }
    public var testDescription: String { definition.id }

    /// Prism, photo-first.
    public static let prism = ShippedApp(
        definition: Prism.definition, threadTitle: "Comments", showsTextPosts: false, showsReplyParent: false,
        requiresPhoto: true, textLimit: 2200,
        missingPhotoMessage: "✕ add a photo first: press tab to pick one",
        titlePrefix: "◈ Prism", repliesAreComments: true, replyTitle: "Comment",
        ownReplyLine: "ada Nice one")

    /// Strand, text-first.
    public static let strand = ShippedApp(
        definition: Strand.definition, threadTitle: "Thread", showsTextPosts: true, showsReplyParent: true,
        requiresPhoto: false, textLimit: 500, missingPhotoMessage: nil, titlePrefix: "@ Strand",
        repliesAreComments: false, replyTitle: "Reply", ownReplyLine: "┃ A Ada Abbott @ada · now")

    /// Both apps.
    public static let all = [prism, strand]
}
