import Foundation
import Storage
import Testing
import Wire

@_spi(Testing) @testable import Backend

/// A post row is read by column, not by a hand-counted offset: each field equals the column of
/// the same name, for a top-level post and a reply, with and without the ownership columns.
@Suite struct PostRowTests {
    @Test func everyField_isTheColumnOfItsName() throws {
        let server = try BackendServer.seededCopy(clock: ManualClock())
        defer { server.close() }
        let core = server.core
        // A reply (parent and root set) that the viewer liked, and a top-level post.
        let reply = try #require(
            try core.database.withConnection { db in
                try db.queryFirst(
                    "SELECT p.id FROM posts p JOIN likes l ON l.post = p.id AND l.user = 1 "
                        + "WHERE p.parent IS NOT NULL LIMIT 1", map: { try $0.int64(0) })
            })
        for id in [1, reply] {
            let post = try core.database.withConnection { db in try core.livePost(id, viewer: 1, db) }
            let named = try #require(
                try core.database.withConnection { db in
                    try db.query(
                        "SELECT id, like_count, reply_count, repost_count, revision, author, parent, root, deleted, "
                            + "EXISTS(SELECT 1 FROM likes WHERE user = 1 AND post = posts.id) AS liked "
                            + "FROM posts WHERE id = ?", id
                    ).first
                })
            #expect(post.id == (try named.int64("id")))
            #expect(post.likeCount == (try named.int("like_count")))
            #expect(post.replyCount == (try named.int("reply_count")))
            #expect(post.repostCount == (try named.int("repost_count")))
            #expect(post.revision == (try named.int64("revision")))
            #expect(post.viewerLiked == (try named.bool("liked")))
            #expect(post.author == (try named.int64("author")))
            #expect(post.parent == (try named.isNull("parent") ? nil : try named.int64("parent")))
            #expect(post.root == (try named.isNull("root") ? nil : try named.int64("root")))
            #expect(post.deleted == (try named.bool("deleted")))
        }
        #expect(
            try core.database.withConnection { db in try core.livePost(reply, viewer: 1, db) }.parent != nil)
    }

    @Test func theOwnershipColumns_comeAfterAllTheOthers() {
        // Rows selected side by side are `columnCount` apart only if this holds.
        let flags = PostRow.Column.allCases.map(\.isOwnership)
        #expect(flags == flags.sorted { !$0 && $1 })
        #expect(PostRow.columnCount == flags.count { !$0 })
        #expect(
            PostRow.columns("p", withOwnership: true).hasPrefix(PostRow.columns("p") + ", "),
            "the ownership columns extend the plain ones")
    }
}
