import Composition
import Foundation
import PrismApp
import StrandApp
import Testing

/// One app as it ships (its real definition and embedded manifest), with what that app is
/// expected to do differently: the cross-app suite runs every scenario against each.
package struct ShippedApp: Sendable, CustomTestStringConvertible {
    /// The app's definition, exactly as its executable launches it.
    package let definition: AppDefinition
    /// The title of a post's replies screen.
    package let threadTitle: String
    /// Whether the home feed shows text-only posts.
    package let showsTextPosts: Bool
    /// Whether a reply in the home feed is shown under its parent.
    package let showsReplyParent: Bool
    /// Whether a new post needs a photo.
    package let requiresPhoto: Bool
    /// The longest text a post may have.
    package let textLimit: Int
    /// What the composer says when a post has no photo, if it needs one.
    package let missingPhotoMessage: String?
    /// The title bar's start.
    package let titlePrefix: String
    /// Whether replies are comments (text only, no photo picker) rather than threaded posts.
    package let repliesAreComments: Bool
    /// The reply composer's title.
    package let replyTitle: String
    /// How the viewer's own reply "Nice one" is drawn in the thread.
    package let ownReplyLine: String

    /// The app's id.
    package var id: String { definition.id }
    package var testDescription: String { definition.id }

    /// Prism, photo-first.
    package static let prism = ShippedApp(
        definition: Prism.definition, threadTitle: "Comments", showsTextPosts: false, showsReplyParent: false,
        requiresPhoto: true, textLimit: 2200,
        missingPhotoMessage: "✕ add a photo first: press tab to pick one",
        titlePrefix: "◈ Prism", repliesAreComments: true, replyTitle: "Comment",
        ownReplyLine: "ada Nice one")

    /// Strand, text-first.
    package static let strand = ShippedApp(
        definition: Strand.definition, threadTitle: "Thread", showsTextPosts: true, showsReplyParent: true,
        requiresPhoto: false, textLimit: 500, missingPhotoMessage: nil, titlePrefix: "@ Strand",
        repliesAreComments: false, replyTitle: "Reply", ownReplyLine: "┃ A Ada Abbott @ada · now")

    /// Both apps.
    package static let all = [prism, strand]
}
