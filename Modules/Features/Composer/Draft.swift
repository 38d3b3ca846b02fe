import MediaModel

/// What the composer hands over when the person posts: the text, the picked photo, and the post
/// it answers, if any.
package struct Draft: Sendable, Hashable {
    /// The text.
    package var text: String
    /// The attached photo, if one was picked.
    package var photo: Attachment.Photo?
    /// The post this replies to, for a reply.
    package var replyingTo: Media?

    /// Makes a draft.
    package init(text: String, photo: Attachment.Photo? = nil, replyingTo: Media? = nil) {
        self.text = text
        self.photo = photo
        self.replyingTo = replyingTo
    }
}
