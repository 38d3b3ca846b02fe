/// A user account as lists and profiles show it.
public struct User: Hashable, Sendable, Identifiable {
    /// The account's identity.
    public var id: UserID
    /// The unique handle, without the `@` (`"ada"`).
    public var handle: String
    /// The name shown next to the handle.
    public var displayName: String
    /// The picture shown beside the user's posts.
    public var avatar: Avatar
    /// A short self-description; may be empty.
    public var bio: String

    /// Makes a user; the avatar defaults to the display name's first letter.
    public init(id: UserID, handle: String, displayName: String, avatar: Avatar? = nil, bio: String = "") {
        self.id = id
        self.handle = handle
        self.displayName = displayName
        self.avatar = avatar ?? .glyph(displayName.first.map { String($0).uppercased() } ?? "?")
        self.bio = bio
    }

    /// A user's picture: a glyph, a small image, or a form this build does not know.
    public enum Avatar: Hashable, Sendable {
        /// A single character drawn in a colored cell (`"A"`).
        case glyph(String)
        /// A small image drawn as half-block art.
        case image(PixelImage)
        /// An avatar form this build does not know, kept raw; show a glyph instead.
        case unknown(UnknownPayload)
    }
}
