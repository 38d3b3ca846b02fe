import Foundation
import MediaModel
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
            #expect(post.facts.likeCount == (try named.int("like_count")))
            #expect(post.facts.replyCount == (try named.int("reply_count")))
            #expect(post.facts.repostCount == (try named.int("repost_count")))
            #expect(post.facts.revision == (try named.int64("revision")))
            #expect(post.facts.viewerLiked == (try named.bool("liked")))
            #expect(post.author == (try named.int64("author")))
            #expect(post.parent == (try named.isNull("parent") ? nil : try named.int64("parent")))
            #expect(post.root == (try named.isNull("root") ? nil : try named.int64("root")))
            #expect(post.deleted == (try named.bool("deleted")))
        }
        #expect(
            try core.database.withConnection { db in try core.livePost(reply, viewer: 1, db) }.parent != nil)
    }

    @Test func eachFact_isReadFromItsOwnColumn() throws {
        // Given a post the viewer liked and reposted, with counts that differ from one another
        let server = try BackendServer.seededCopy(clock: ManualClock())
        defer { server.close() }
        let core = server.core
        try core.database.withConnection { db in
            try db.execute(
                "UPDATE posts SET like_count = 11, reply_count = 12, repost_count = 13, revision = 14 WHERE id = 1"
            )
            try db.execute("INSERT OR IGNORE INTO likes (user, post, created_at) VALUES (1, 1, 0)")
            try db.execute("INSERT OR IGNORE INTO reposts (user, post, created_at) VALUES (1, 1, 0)")
        }

        // When it is read as a row, with and without its ownership columns
        let owned = try core.database.withConnection { db in try core.livePost(1, viewer: 1, db) }

        // Then each fact is what its own SQL computes
        for (field, column) in PostRow.selectedFacts {
            let sql = try #require(column.sql("p"))
            let computed = try core.database.withConnection { db in
                try db.queryFirst("SELECT \(sql) FROM posts p WHERE p.id = ?2", 1, 1) {
                    row -> MediaFacts.Field.Value in
                    switch field.kind {
                    case .count: .count(try row.int(0))
                    case .flag: .flag(try row.bool(0))
                    case .text: .text(try row.isNull(0) ? nil : try row.string(0))
                    case .revision: .revision(try row.int64(0))
                    }
                }
            }
            #expect(field.value(in: owned.facts) == computed, "\(field)")
        }
        #expect(
            owned.facts
                == MediaFacts(
                    likeCount: 11, viewerLiked: true, replyCount: 12, repostCount: 13, viewerReposted: true,
                    revision: 14))
    }

    @Test func everyFact_hasABackendColumn() {
        let missing = MediaFacts.fields.map(\.name).filter { PostRow.factColumns[$0] == nil }
        #expect(
            missing.isEmpty,
            "MediaFacts.fields has \(missing) but PostRow.factColumns (Backend/Internal/BackendCore.swift) does not: say how the backend computes each (a column of posts, a table of the viewer's rows, or .notKept)"
        )
        let unknown = PostRow.factColumns.keys.filter { name in
            !MediaFacts.fields.contains { $0.name == name }
        }
        #expect(
            unknown.isEmpty,
            "PostRow.factColumns names \(unknown.sorted()), which MediaFacts.fields does not list")
    }

    @Test func theOwnershipColumns_comeAfterAllTheOthers() {
        // Rows selected side by side are `columnCount` apart only if this holds.
        #expect(PostRow.columnCount == 2 + PostRow.selectedFacts.count)
        #expect(
            PostRow.columns("p", withOwnership: true).hasPrefix(PostRow.columns("p") + ", "),
            "the ownership columns extend the plain ones")
    }
}
