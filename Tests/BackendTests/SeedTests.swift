import Backend
import Foundation
import Imaging
import MediaModel
import Storage
import Testing
import Wire

@Suite struct SeedTests {
    /// A digest of every seeded table, in key order.
    static func digest(_ server: BackendServer) throws -> [String] {
        let tables = [
            "SELECT id, handle, display_name, bio, demo, password_hash, created_at, hex(json) FROM users ORDER BY id",
            "SELECT follower, followee, created_at FROM follows ORDER BY follower, followee",
            "SELECT id, author, created_at, parent, root, like_count, reply_count, repost_count, hex(json) FROM posts ORDER BY id",
            "SELECT user, post, created_at FROM likes ORDER BY user, post",
            "SELECT id, user, post, created_at FROM reposts ORDER BY id",
            "SELECT id, recipient, kind, actor, post, created_at FROM events ORDER BY id",
        ]
        return try tables.map { sql in
            try server.database.query(sql).map { $0.values.map { "\($0)" }.joined(separator: "|") }
                .joined(separator: "\n")
        }
    }

    @Test func sameSeed_makesTheSameData_anotherSeedDiffers() async throws {
        let template = try BackendFixture.fresh()
        let again = try BackendServer(
            directory: try BackendFixture.temporaryDirectory("seed1"), seed: 1, clock: ManualClock())
        let other = try BackendServer(
            directory: try BackendFixture.temporaryDirectory("seed2"), seed: 2, clock: ManualClock())
        let reference = try Self.digest(template)
        #expect(try Self.digest(again) == reference, "seed 1 did not reproduce")
        let different = try Self.digest(other)
        let handles = { (server: BackendServer) in
            try server.database.query("SELECT handle FROM users ORDER BY id") { try $0.string(0) }
        }
        #expect(try handles(other) == BackendSeed.handles, "the same accounts exist for every seed")
        #expect(different[0] != reference[0], "seed 2 wrote the same bios as seed 1")
        #expect(different[2] != reference[2], "seed 2 made the same posts as seed 1")
    }

    @Test func seed_hasEnoughOfEverything() async throws {
        let server = try BackendFixture.fresh()
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM users") >= 50)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM posts") >= 2000)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM follows") >= 400)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM likes") >= 2000)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM reposts") >= 100)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM posts WHERE parent IS NOT NULL") >= 300)
        let media = try server.database.query("SELECT json FROM posts ORDER BY id") { row in
            try Media(json: JSONValue(parsing: row.data(0)), at: .root)
        }
        var kinds: [MediaKind: Int] = [:]
        for item in media { kinds[item.kind, default: 0] += 1 }
        for kind in [MediaKind.text, .photo, .video, .carousel] {
            #expect(kinds[kind, default: 0] >= 100, "too few \(kind) posts: \(kinds)")
        }
        #expect((3...20).contains(kinds[.unknown("poll"), default: 0]), "polls: \(kinds)")
        // Photos carry real, varied pixels.
        let photos = media.compactMap { item -> PixelImage? in
            if case .photo(let photo) = item.attachments.first { return photo.pixels }
            return nil
        }
        #expect(photos.allSatisfy { $0.width <= 32 && $0.height <= 32 && Set($0.rgb).count > 3 })
        #expect(Set(photos).count >= 100)
        // Every seeded time lies before the epoch.
        #expect(media.allSatisfy { $0.createdAt < BackendSeed.epoch })
    }

    /// Seeded times are measured back from the backend's clock when it seeds, so a backend
    /// seeded today shows posts from the last weeks, not from a fixed year long gone.
    @Test func seedTimes_endAtTheClockOfSeeding() async throws {
        let today = Date(timeIntervalSince1970: 1_795_651_200)  // 2026-11-25
        let server = try BackendServer(
            directory: try BackendFixture.temporaryDirectory("today"), seed: 1,
            clock: ManualClock(start: today))
        let times = try server.database.query("SELECT created_at FROM posts") { row in
            Date(timeIntervalSince1970: Double(try row.int64(0)) / 1000)
        }
        #expect(times.allSatisfy { $0 < today })
        #expect(times.allSatisfy { today.timeIntervalSince($0) < 90 * 86_400 }, "all within 90 days")
        #expect(times.contains { today.timeIntervalSince($0) < 2 * 86_400 }, "some from the last two days")
    }

    @Test func openingOneDirectoryFromTwoConnectionsAtOnce_seedsItOnce() async throws {
        let directory = try BackendFixture.temporaryDirectory("shared")
        let servers = try await withThrowingTaskGroup(of: BackendServer.self) { group in
            for _ in 0..<2 { group.addTask { try BackendServer(directory: directory, seed: 1) } }
            var all: [BackendServer] = []
            for try await server in group { all.append(server) }
            return all
        }
        for server in servers {
            #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM posts") == Self.seededPostCount)
            #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM meta WHERE key = 'seed'") == 1)
        }
        // A write through one is visible through the other.
        _ = await TestClient(server: servers[0]).send(
            .post, "/v1/posts", body: #"{"text": "shared"}"#, key: "s")
        #expect(
            try Expectations.scalar(servers[1], "SELECT COUNT(*) FROM posts") == Self.seededPostCount + 1)
    }

    /// Every post a seed makes: the generated ones and the real-world text after them.
    static let seededPostCount = BackendSeed.postCount + BackendSeed.realWorldText.count

    @Test func realWorldText_followsTheGeneratedPosts_exactlyAsWritten() async throws {
        // Given the seeded backend
        let server = try BackendFixture.fresh()

        // Then the posts after the generated ones are the real-world text, in order, word for word
        let rows = try server.database.query(
            "SELECT id, author, parent, created_at, json FROM posts WHERE id > ? ORDER BY id",
            Int64(BackendSeed.postCount)
        ) { row in
            (
                id: try row.int64(0), author: try row.int64(1),
                parent: try row.isNull(2) ? nil : row.int64(2),
                time: try row.int64(3), media: try Media(json: JSONValue(parsing: row.data(4)), at: .root)
            )
        }
        #expect(rows.map(\.media.text) == BackendSeed.realWorldText.map(\.text))
        #expect(rows.map { !$0.media.attachments.isEmpty } == BackendSeed.realWorldText.map(\.hasPhoto))
        #expect(
            rows.map(\.parent)
                == BackendSeed.realWorldText.map { post in
                    post.replyTo.map { Int64(BackendSeed.postCount + $0 + 1) }
                })
        #expect(rows.contains { $0.media.text.isEmpty && $0.media.kind == .photo }, "a photo with no caption")
        // by accounts the first user follows, so they reach the home feed
        let followed = Set(try Expectations.followees(server))
        #expect(rows.allSatisfy { followed.contains($0.author) })
        let daysBack = rows.map { BackendSeed.epoch.timeIntervalSince1970 * 1000 - Double($0.time) }
            .map { $0 / 86_400_000 }
        #expect(daysBack.allSatisfy { $0 > 24 && $0 <= 25 }, "\(daysBack)")
    }

    @Test func realWorldText_staysOutOfTheFirstPagesOfTheHomeFeed() async throws {
        let server = try BackendFixture.fresh()
        let page = try await pageThrough(TestClient(server: server), "/v1/feed", limit: 100)
        let texts = Set(BackendSeed.realWorldText.map(\.text))
        let firstAt = page.firstIndex {
            texts.contains($0.media.text)
                && Int($0.media.id.rawValue.dropFirst()) ?? 0 > BackendSeed.postCount
        }
        let index = try #require(firstAt, "the real-world posts are in the home feed")
        #expect(index > 300, "the first real-world post is entry \(index)")
    }

    @Test func reopeningWithAnotherSeed_keepsTheData() async throws {
        let directory = try BackendFixture.temporaryDirectory("reopen")
        try FileManager.default.copyItem(
            atPath: try BackendFixture.templateFile(),
            toPath: (directory as NSString).appendingPathComponent(BackendServer.databaseFileName))
        let server = try BackendServer(directory: directory, seed: 99)
        #expect(server.seed == 1)
    }
}

/// The seed's photos are stored photos like uploaded ones: each photo a post carries names a
/// stored photo of its size, whose variants `GET /v1/photos/{id}` serves, showing the picture
/// the post's small rendition shows.
@Suite struct SeedPhotoTests {
    /// Every photo of every seeded post, with its post's id.
    static func seededPhotos(_ server: BackendServer) throws -> [(
        post: Int64, photo: MediaModel.Attachment.Photo
    )] {
        try server.database.query("SELECT id, json FROM posts ORDER BY id") { row in
            let media = try Media(json: JSONValue(parsing: row.data(1)), at: .root)
            var photos: [MediaModel.Attachment.Photo] = []
            for attachment in media.attachments {
                switch attachment {
                case .photo(let photo): photos.append(photo)
                case .carousel(let items):
                    for case .photo(let photo) in items { photos.append(photo) }
                default: break
                }
            }
            return (try row.int64(0), photos)
        }.flatMap { (post: Int64, photos: [MediaModel.Attachment.Photo]) in photos.map { (post, $0) } }
    }

    /// The mean color of an RGB byte array.
    static func mean(_ rgb: [UInt8]) -> [Double] {
        (0..<3).map { channel in
            stride(from: channel, to: rgb.count, by: 3).reduce(0.0) { $0 + Double(rgb[$1]) }
                / Double(rgb.count / 3)
        }
    }

    @Test func everySeededPhoto_isAStoredPhotoOfItsSize() async throws {
        // Given the seeded backend
        let server = try BackendFixture.fresh()
        let photos = try Self.seededPhotos(server)
        #expect(photos.count >= 500, "the seed has hundreds of photos: \(photos.count)")

        // Then each names a stored photo whose size is the one the post says
        let stored = try server.database.query("SELECT id, width, height FROM photos") { row in
            ("p\(try row.int64(0))", (try row.int(1), try row.int(2)))
        }
        let sizes = Dictionary(uniqueKeysWithValues: stored)
        var missing: [Int64] = []
        for (post, photo) in photos {
            guard let id = photo.id, let size = sizes[id] else {
                missing.append(post)
                continue
            }
            #expect(size == (photo.width, photo.height), "post \(post)'s photo \(id)")
        }
        #expect(missing.isEmpty, "posts whose photo is not stored: \(missing.prefix(10))")
        // And the real-world text's photos are stored too (the posts after the generated ones)
        #expect(photos.contains { $0.post > Int64(BackendSeed.postCount) && $0.photo.id != nil })
        // And each stored photo has its variants, none wider than the photo
        let variantless = try Expectations.scalar(
            server, "SELECT COUNT(*) FROM photos WHERE id NOT IN (SELECT photo FROM photo_variants)")
        #expect(variantless == 0)
        let tooWide = try Expectations.scalar(
            server,
            "SELECT COUNT(*) FROM photo_variants JOIN photos ON photos.id = photo_variants.photo "
                + "WHERE photo_variants.width > photos.width")
        #expect(tooWide == 0)
    }

    @Test func aSeededPhotosVariant_showsThePictureOfItsRendition() async throws {
        // Given a seeded photo post and its small rendition
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let photos = try Self.seededPhotos(server)
        for (_, photo) in photos.prefix(5) {
            let id = try #require(photo.id)

            // When its variant for 100 pixels is fetched
            let response = await client.get("/v1/photos/\(id)", ["width": "100"])

            // Then it is the 160-wide JPEG, of the photo's aspect ratio
            #expect(response.status == 200, "\(response.text.prefix(200))")
            #expect(response.headers["Content-Type"] == "image/jpeg")
            let raster = try ImageDecoder().decode([UInt8](response.body))
            #expect(raster.width == 160)
            #expect(abs(raster.height - 160 * photo.height / photo.width) <= 1)
            // And shows the same picture: the same mean color as the rendition, within a few levels
            let variant = Self.mean(raster.rgb)
            let rendition = Self.mean(photo.pixels.rgb)
            for channel in 0..<3 {
                #expect(abs(variant[channel] - rendition[channel]) < 12, "\(id): \(variant) vs \(rendition)")
            }
        }
    }
}
