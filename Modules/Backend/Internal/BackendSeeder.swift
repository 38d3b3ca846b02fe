import Basics
import Foundation
import Imaging
import MediaModel
import Storage

/// Writes the deterministic seed data (see `BackendSeed`) in one transaction, once per
/// database file: the `seed` row in `meta` records that it ran, and the check and the writes
/// share one write transaction, so two processes opening a fresh file seed it once.
///
/// Complexity: O(posts + likes + events); about 20,000 rows.
enum BackendSeeder {
    /// Seeds the database unless it was seeded already, with every time measured back from
    /// `now` (the backend clock's time).
    ///
    /// - Returns: the seed the data was made from (the stored one if it was seeded before).
    @discardableResult
    static func seedIfNeeded(_ database: Database, seed: UInt64, now: Date) throws -> UInt64 {
        let (used, seeded) = try database.transaction(.immediate) { db -> (UInt64, Bool) in
            if let stored = try db.queryFirst(
                "SELECT value FROM meta WHERE key = 'seed'", map: { try $0.string(0) })
            {
                return (UInt64(stored) ?? seed, false)
            }
            var writer = Writer(seed: seed, now: now)
            try writer.write(db)
            try db.execute("INSERT INTO meta (key, value) VALUES ('seed', ?)", String(seed))
            return (seed, true)
        }
        // PostgreSQL plans from statistics its autovacuum gathers only a minute or so later;
        // until then it took the feed for a scan of every post (412 us a page, not 261).
        if seeded, database.dialect == .postgres {
            try database.transaction { db in try db.execute("ANALYZE") }
        }
        return used
    }

    /// One seeding run: the generator and what has been made so far.
    struct Writer {
        var random: SplitMix64
        let seed: UInt64
        var events: [(time: Int64, recipient: Int64, kind: String, actor: Int64, post: Int64?)] = []
        var images: [Int: PixelImage] = [:]
        /// The photos stored so far, by pool key (real-world text's photos by minus their post id).
        var storedPhotos: [Int: MediaModel.Attachment.Photo] = [:]
        /// The time seeded times are measured back from, in milliseconds since 1970.
        let epochMilliseconds: Int64

        init(seed: UInt64, now: Date) {
            self.seed = seed
            epochMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            random = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 0x5EED)
        }

        mutating func write(_ db: borrowing Connection) throws {
            let users = try writeUsers(db)
            try writeFollows(db, users: users)
            let posts = try writePosts(db, users: users)
            try writeLikes(db, posts: posts, userCount: users.count)
            try writeReposts(db, posts: posts, userCount: users.count)
            try writeRealWorldText(db, users: users, after: posts.count)
            try db.executeScript(
                """
                UPDATE posts SET
                    like_count = (SELECT COUNT(*) FROM likes WHERE post = posts.id),
                    reply_count = (SELECT COUNT(*) FROM posts AS child WHERE child.parent = posts.id),
                    repost_count = (SELECT COUNT(*) FROM reposts WHERE post = posts.id);
                """)
            events.sort { ($0.time, $0.recipient, $0.actor) < ($1.time, $1.recipient, $1.actor) }
            let insert = try db.prepare(
                "INSERT INTO events (recipient, kind, actor, post, created_at) VALUES (?, ?, ?, ?, ?)")
            for event in events {
                try insert.execute { row in
                    try row.bind(event.recipient)
                    try row.bind(event.kind)
                    try row.bind(event.actor)
                    try row.bind(event.post)
                    try row.bind(event.time)
                }
            }
        }

        // MARK: Users and follows

        mutating func writeUsers(_ db: borrowing Connection) throws -> [Account] {
            let insert = try db.prepare(
                """
                INSERT INTO users (id, handle, display_name, bio, password_hash, demo, created_at, json)
                VALUES (?, ?, ?, ?, ?, 1, ?, ?)
                """)
            let passwordHash = try DemoPassword.hash.get()
            var accounts: [Account] = []
            for (index, handle) in BackendSeed.handles.enumerated() {
                let displayName =
                    handle.prefix(1).uppercased() + handle.dropFirst() + " "
                    + Words.surnames[index % Words.surnames.count]
                let account = Account(
                    id: Int64(index + 1), handle: handle, displayName: displayName,
                    bio: sentence(words: 4..<10))
                let created = epochMilliseconds - 60 * 86_400_000 + Int64(index) * 3_600_000
                let json = account.user.json.serialized()
                try insert.execute { row in
                    try row.bind(account.id)
                    try row.bind(account.handle)
                    try row.bind(account.displayName)
                    try row.bind(account.bio)
                    try row.bind(passwordHash)
                    try row.bind(created)
                    try row.bind(json)
                }
                accounts.append(account)
            }
            return accounts
        }

        mutating func writeFollows(_ db: borrowing Connection, users: [Account]) throws {
            let insert = try db.prepare(
                "INSERT INTO follows (follower, followee, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
            )
            for user in users {
                let count = user.id == 1 ? 20 : random.int(8..<21)
                var chosen: Set<Int64> = []
                while chosen.count < count {
                    let other = Int64(random.int(1..<(users.count + 1)))
                    if other != user.id { chosen.insert(other) }
                }
                for followee in chosen.sorted() {
                    let time = epochMilliseconds - 45 * 86_400_000 + Int64(random.int(0..<(10 * 86_400_000)))
                    try insert.execute { row in
                        try row.bind(user.id)
                        try row.bind(followee)
                        try row.bind(time)
                    }
                    events.append((time, followee, "follow", user.id, nil))
                }
            }
        }

        // MARK: Posts

        struct SeededPost {
            var id: Int64
            var author: Int64
            var time: Int64
            var depth: Int
            var isReply: Bool
        }

        mutating func writePosts(_ db: borrowing Connection, users: [Account]) throws -> [SeededPost] {
            let insert = try db.prepare(
                "INSERT INTO posts (id, author, created_at, parent, root, json) VALUES (?, ?, ?, ?, ?, ?)")
            let count = BackendSeed.postCount
            let start = epochMilliseconds - 30 * 86_400_000
            let step = Int64(30 * 86_400_000 / count)
            var posts: [SeededPost] = []
            var roots: [Int64: Int64] = [:]
            var topLevelCount = 0
            posts.reserveCapacity(count)
            for index in 0..<count {
                let id = Int64(index + 1)
                let time = start + Int64(index) * step + Int64(random.int(0..<Int(step / 2)))
                let author = users[random.int(0..<users.count)]
                var parent: SeededPost?
                if index >= 50 && random.chance(0.3) {
                    let replies = posts.suffix(300).filter { $0.isReply && $0.depth < 8 }
                    let candidates =
                        random.chance(0.5) && !replies.isEmpty ? replies : Array(posts.suffix(300))
                    parent = random.pick(candidates)
                }
                let attachments: [MediaModel.Attachment]
                var text = sentence(words: 3..<16)
                if parent != nil {
                    attachments =
                        random.chance(0.15) ? [.photo(try photo(db, owner: author.id, at: time))] : []
                } else {
                    topLevelCount += 1
                    let roll = random.int(0..<100)
                    if topLevelCount % 250 == 0 {
                        text = "Quick poll: " + sentence(words: 3..<8)
                        attachments = [poll(closingAt: time + 86_400_000)]
                    } else if roll < 35 {
                        attachments = [.photo(try photo(db, owner: author.id, at: time))]
                    } else if roll < 45 {
                        attachments = [.carousel(try carousel(db, owner: author.id, at: time))]
                    } else if roll < 55 {
                        attachments = [.video(video())]
                    } else {
                        attachments = []
                    }
                }
                if random.chance(0.06) {
                    text += " @" + BackendSeed.handles[random.int(0..<BackendSeed.handles.count)]
                }
                let media = Media(
                    id: MediaID("m\(id)"), author: author.user,
                    createdAt: Date(timeIntervalSince1970: Double(time) / 1000), text: text,
                    attachments: attachments)
                let json = media.json.serialized()
                let root = parent.map { roots[$0.id] ?? $0.id }
                try insert.execute { row in
                    try row.bind(id)
                    try row.bind(author.id)
                    try row.bind(time)
                    try row.bind(parent?.id)
                    try row.bind(root)
                    try row.bind(json)
                }
                if let parent {
                    roots[id] = root
                    if parent.author != author.id {
                        events.append((time, parent.author, "reply", author.id, id))
                    }
                }
                for handle in BackendCore.mentions(in: text) {
                    guard let index = BackendSeed.handles.firstIndex(of: handle),
                        Int64(index + 1) != author.id
                    else { continue }
                    events.append((time, Int64(index + 1), "mention", author.id, id))
                }
                posts.append(
                    SeededPost(
                        id: id, author: author.id, time: time, depth: (parent?.depth ?? -1) + 1,
                        isReply: parent != nil))
            }
            return posts
        }

        // MARK: Real-world text

        /// The posts of `BackendSeed.realWorldText`, ids from `after + 1`, by the accounts the
        /// first user follows in turn. Written last and drawing nothing from the generator, so
        /// every generated row is the same with or without them.
        mutating func writeRealWorldText(_ db: borrowing Connection, users: [Account], after count: Int)
            throws
        {
            let followed = try db.query(
                "SELECT followee FROM follows WHERE follower = 1 ORDER BY followee", map: { try $0.int(0) })
            guard !followed.isEmpty else { return }
            let insert = try db.prepare(
                "INSERT INTO posts (id, author, created_at, parent, root, json) VALUES (?, ?, ?, ?, ?, ?)")
            let start = epochMilliseconds - Int64(BackendSeed.realWorldTextDaysBack) * 86_400_000
            var ids: [Int64] = []
            for (index, post) in BackendSeed.realWorldText.enumerated() {
                let id = Int64(count + index + 1)
                let author = users[followed[index % followed.count] - 1]
                let time = start + Int64(index) * 17 * 60_000
                let parent = post.replyTo.map { ids[$0] }
                let attachments: [MediaModel.Attachment] =
                    post.hasPhoto
                    ? [
                        .photo(
                            try storedPhoto(
                                key: -Int(id), seed: seed &+ UInt64(id), width: 24, height: 24, db,
                                owner: author.id, at: time))
                    ] : []
                let media = Media(
                    id: MediaID("m\(id)"), author: author.user,
                    createdAt: Date(timeIntervalSince1970: Double(time) / 1000), text: post.text,
                    attachments: attachments)
                let json = media.json.serialized()
                try insert.execute { row in
                    try row.bind(id)
                    try row.bind(author.id)
                    try row.bind(time)
                    try row.bind(parent)
                    try row.bind(parent)
                    try row.bind(json)
                }
                ids.append(id)
            }
        }

        // MARK: Likes and reposts

        mutating func writeLikes(_ db: borrowing Connection, posts: [SeededPost], userCount: Int) throws {
            let insert = try db.prepare(
                #"INSERT INTO likes ("user", post, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#)
            for post in posts {
                let count = random.int(0..<(post.isReply ? 4 : 10))
                var likers: Set<Int64> = []
                while likers.count < count { likers.insert(Int64(random.int(1..<(userCount + 1)))) }
                for liker in likers.sorted() {
                    let time = Swift.min(
                        post.time + Int64(random.int(60_000..<(2 * 86_400_000))), epochMilliseconds - 1)
                    try insert.execute { row in
                        try row.bind(liker)
                        try row.bind(post.id)
                        try row.bind(time)
                    }
                    if liker != post.author { events.append((time, post.author, "like", liker, post.id)) }
                }
            }
        }

        mutating func writeReposts(_ db: borrowing Connection, posts: [SeededPost], userCount: Int) throws {
            let insert = try db.prepare(
                #"INSERT INTO reposts ("user", post, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#)
            let topLevel = posts.filter { !$0.isReply }
            for _ in 0..<150 {
                let post = random.pick(topLevel)
                let user = Int64(random.int(1..<(userCount + 1)))
                guard user != post.author else { continue }
                let time = Swift.min(
                    post.time + Int64(random.int(3_600_000..<(2 * 86_400_000))), epochMilliseconds - 1)
                try insert.execute { row in
                    try row.bind(user)
                    try row.bind(post.id)
                    try row.bind(time)
                }
            }
        }

        // MARK: Content

        mutating func sentence(words: Range<Int>) -> String {
            let count = random.int(words)
            var text = (0..<count).map { _ in random.pick(Words.common) }.joined(separator: " ")
            text = text.prefix(1).uppercased() + text.dropFirst()
            return text + random.pick([".", ".", ".", "!", "?"])
        }

        /// A pooled generated image: a few hundred distinct pictures keep seeding fast.
        mutating func image(variant: Int, width: Int, height: Int) -> PixelImage {
            let key = variant * 1000 + random.int(0..<96)
            if let image = images[key] { return image }
            let image = PixelImage.generated(seed: imageSeed(key), width: width, height: height)
            images[key] = image
            return image
        }

        /// A photo of the pool's picture for the next draws, stored (once per picture, owned by
        /// the first post's author) like an uploaded one.
        mutating func photo(_ db: borrowing Connection, owner: Int64, at time: Int64) throws
            -> MediaModel.Attachment.Photo
        {
            let shapes = [(24, 24), (32, 24), (24, 32)]
            let variant = random.int(0..<shapes.count)
            let shape = shapes[variant]
            let key = variant * 1000 + random.int(0..<96)
            let stored = try storedPhoto(
                key: key, seed: imageSeed(key), width: shape.0, height: shape.1, db, owner: owner, at: time)
            var photo = stored
            photo.altText = random.chance(0.3) ? sentence(words: 2..<6) : nil
            return photo
        }

        /// The stored photo of pool picture `key`, stored now if this is its first use.
        mutating func storedPhoto(
            key: Int, seed: UInt64, width: Int, height: Int, _ db: borrowing Connection, owner: Int64,
            at time: Int64
        ) throws -> MediaModel.Attachment.Photo {
            if let stored = storedPhotos[key] { return stored }
            let file = try SeedPhoto.of(PixelImage.GeneratedScene(seed: seed, width: width, height: height))
            let id = try BackendCore.insertPhoto(
                owner: owner, format: ImageFormat.jpeg.rawValue, width: file.width, height: file.height,
                original: file.original, variants: file.variants, createdAt: time, db)
            let pixels = images[key] ?? PixelImage.generated(seed: seed, width: width, height: height)
            images[key] = pixels
            let photo = MediaModel.Attachment.Photo(
                width: file.width, height: file.height, pixels: pixels, id: "p\(id)")
            storedPhotos[key] = photo
            return photo
        }

        /// The seed of pool picture `key`.
        func imageSeed(_ key: Int) -> UInt64 { seed &* 0x9E37_79B9 &+ UInt64(key) }

        mutating func video() -> MediaModel.Attachment.Video {
            MediaModel.Attachment.Video(
                width: 1920, height: 1080, duration: .milliseconds(Int64(random.int(5_000..<180_000))),
                poster: image(variant: 3, width: 32, height: 18))
        }

        mutating func carousel(_ db: borrowing Connection, owner: Int64, at time: Int64) throws
            -> [MediaModel.Attachment.CarouselItem]
        {
            var items: [MediaModel.Attachment.CarouselItem] = []
            for _ in 0..<random.int(2..<5) {
                items.append(
                    random.chance(0.8) ? .photo(try photo(db, owner: owner, at: time)) : .video(video()))
            }
            return items
        }

        mutating func poll(closingAt time: Int64) -> MediaModel.Attachment {
            let options: [JSONValue] = (0..<random.int(2..<5)).map { _ in .string(random.pick(Words.common)) }
            return .unknown(
                UnknownPayload(
                    typeName: "poll",
                    raw: [
                        "type": "poll", "options": .array(options), "closesAt": .int(time),
                        "multipleChoice": false,
                    ]))
        }
    }
}
