import MediaModel
import ServerAPI

/// A profile as a screen shows it: the server's, with the viewer's pending or just confirmed
/// follow applied to `viewerFollows` and `followerCount`, and its posts merged (the viewer's own
/// profile shows their new posts on top).
public struct MergedProfile: Hashable, Sendable {
    /// The profile with the follow state and counts merged.
    public var profile: Profile
    /// Whether the follow state differs from the server's because of a mutation of this device.
    public var followStatus: OptimisticStatus
    /// The profile's posts, merged.
    public var posts: [MergedEntry]

    /// Makes a merged profile.
    public init(profile: Profile, followStatus: OptimisticStatus, posts: [MergedEntry]) {
        self.profile = profile
        self.followStatus = followStatus
        self.posts = posts
    }
}
