import Backend
import Foundation
import MediaModel
import Testing
import Wire

/// The facts of a feed page say, post by post, whether the viewer liked and reposted it: never
/// what another account did, never one flag for the other, and the same for a reply's parent as
/// for an entry's own post.
@Suite struct FeedViewerFlagsTests {
    @Test func eachPostsFlags_sayWhatTheViewerDid_notWhatOthersDid() async throws {
        // Given ada's first page, and six of its posts (one a reply's parent), none of which ada
        // has liked or reposted yet
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let first = await ada.get("/v1/feed", ["limit": "20"])
        try #require(first.status == 200, "\(first.text)")
        let parent = try #require(
            first.json["page", "entries"].array.lazy.compactMap { entry -> Int64? in
                guard entry["context", "type"] == .string("reply") else { return nil }
                return Self.postID(entry["context", "parent", "id"])
            }.first, "the first page has a reply")
        let entryPosts = first.json["page", "entries"].array.compactMap { Self.postID($0["media", "id"]) }
        var targets = [parent]
        for post in entryPosts where !targets.contains(post) && targets.count < 6 { targets.append(post) }
        try #require(targets.count == 6)
        for post in targets {
            #expect(await ada.send(.delete, "/v1/posts/m\(post)/like", key: "unlike-\(post)").status == 200)
            #expect(
                await ada.send(.delete, "/v1/posts/m\(post)/repost", key: "unrepost-\(post)").status == 200)
        }

        // When ada likes some and reposts others (one both), and an account ada does not follow
        // likes and reposts others still (one that ada left alone)
        let followed = Set(try Expectations.followees(server))
        let stranger = try #require((2...Int64(BackendSeed.handles.count)).first { !followed.contains($0) })
        let other = ada.as(Expectations.handle(stranger))
        let (t0, t1, t2, t3, t4) = (targets[0], targets[1], targets[2], targets[3], targets[4])
        for post in [t0, t2, t4] {
            #expect(await ada.send(.put, "/v1/posts/m\(post)/like", key: "like-\(post)").status == 200)
        }
        for post in [t1, t2] {
            #expect(await ada.send(.put, "/v1/posts/m\(post)/repost", key: "repost-\(post)").status == 200)
        }
        for post in [t1, t3] {
            #expect(
                await other.send(.put, "/v1/posts/m\(post)/like", key: "other-like-\(post)").status == 200)
        }
        for post in [t0, t3] {
            #expect(
                await other.send(.put, "/v1/posts/m\(post)/repost", key: "other-repost-\(post)").status == 200
            )
        }
        let page = await ada.get("/v1/feed", ["limit": "20"])
        try #require(page.status == 200, "\(page.text)")

        // Then each of the six posts' facts carry exactly ada's flags
        let facts = page.json["facts"]
        let liked: Set<Int64> = [t0, t2, t4]
        let reposted: Set<Int64> = [t1, t2]
        for post in targets {
            let fact = facts["m\(post)"]
            #expect(fact["viewerLiked"] == .bool(liked.contains(post)), "m\(post): \(fact)")
            #expect(
                fact["viewerReposted"] == (reposted.contains(post) ? .bool(true) : .null), "m\(post): \(fact)"
            )
        }
        #expect(facts["m\(t3)", "likeCount"].int ?? 0 >= 1, "the stranger's like of m\(t3) counts")
    }

    /// The number in a media id (`m12` → 12).
    private static func postID(_ value: JSONValue) -> Int64? {
        guard case .string(let id) = value, id.hasPrefix("m") else { return nil }
        return Int64(id.dropFirst())
    }
}
