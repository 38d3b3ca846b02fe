import MediaModel

/// What the composer hands over when the person posts: the text, the photos, and the post it
/// answers, if any.
package struct Draft: Sendable, Hashable {
    /// The text.
    package var text: String
    /// Photo files the person picked from disk, in the order they picked them: one is a photo
    /// post, several a carousel.
    package var files: [PickedPhoto]
    /// The post this replies to, for a reply.
    package var replyingTo: Media?
    /// The id of the kept draft (`DraftStore.Saved.id`) this was written in, if any: journaled
    /// with the post in one commit, so the kept draft is known to be used up even after a crash.
    package var keptDraftID: String?

    /// Makes a draft.
    package init(
        text: String, files: [PickedPhoto] = [], replyingTo: Media? = nil, keptDraftID: String? = nil
    ) {
        self.text = text
        self.files = files
        self.replyingTo = replyingTo
        self.keptDraftID = keptDraftID
    }
}

/// A photo file picked in the composer, with the description the person wrote for it.
package struct PickedPhoto: Sendable, Hashable, Codable {
    /// The file's absolute path, as picked.
    package var path: String
    /// A description for people who cannot see the photo; nil when none was written.
    package var altText: String?

    /// Makes a picked photo.
    package init(path: String, altText: String? = nil) {
        self.path = path
        self.altText = altText
    }
}
