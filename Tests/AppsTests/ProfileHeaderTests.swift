import Features
import MediaModel
import ServerAPI
import Testing

/// The profile header's counts read as English: one post, one follower.
@Suite @MainActor struct ProfileHeaderTests {
    static func profile(posts: Int, followers: Int, following: Int, viewerFollows: Bool = false) -> Profile {
        Profile(
            user: User(id: "u9", handle: "new", displayName: "New Person"), followerCount: followers,
            followingCount: following, postCount: posts, viewerFollows: viewerFollows, isViewer: false,
            posts: FeedPage(entries: []))
    }

    @Test func oneOfEach_isSingular() {
        #expect(
            ProfileScreen.counts(of: Self.profile(posts: 1, followers: 1, following: 1))
                == "1 post · 1 follower · 1 following")
    }

    @Test func noneOrMany_arePlural_andSayWhenTheViewerFollows() {
        #expect(
            ProfileScreen.counts(of: Self.profile(posts: 0, followers: 0, following: 0))
                == "0 posts · 0 followers · 0 following")
        #expect(
            ProfileScreen.counts(
                of: Self.profile(posts: 36, followers: 11, following: 20, viewerFollows: true))
                == "36 posts · 11 followers · 20 following · you follow")
    }
}
