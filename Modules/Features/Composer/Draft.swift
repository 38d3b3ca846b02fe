import MediaModel

/// What the composer hands over when the person posts: the text, the picked photo, and the post
/// it answers, if any.
public struct Draft: Sendable, Hashable {
    /// The text.
    public var text: String
    /// The attached photo, if one was picked.
    public var photo: Attachment.Photo?
    /// The post this replies to, for a reply.
    public var replyingTo: Media?

    /// Makes a draft.
    public init(text: String, photo: Attachment.Photo? = nil, replyingTo: Media? = nil) {
        self.text = text
        self.photo = photo
        self.replyingTo = replyingTo
    }
}
