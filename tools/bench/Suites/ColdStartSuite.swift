import Basics
import FeedCaching
import Foundation
import MediaModel
import Networking
import Storage

/// `coldstart`: with 1,000 cached feed entries, the time from opening the app database to having
/// the first screen's entries and every entry's row heights in memory, beside the physical
/// floor measured in the same run: opening the same file and reading only the first screen's
/// rows (their stored bytes, undecoded).
enum ColdStartSuite {
    static let suite = BenchSuite(
        name: "coldstart",
        summary: "open the app database, load the first screen and all heights of 1,000 cached entries"
    ) { runner in
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-coldstart-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let width = 80
        let rows = 40
        try CachedFeed.write(entries: 1000, into: directory, widths: [width, 120])
        let path = (directory as NSString).appendingPathComponent(AppDatabase.fileName)

        // What one cold start loads: opening and migrating the database, the first screen's
        // entries decoded (and their facts applied to a media store), all heights unpacked.
        func coldStart() throws -> FirstScreen {
            let database = try AppDatabase.open(directory: directory)
            return try FeedCache(database: database, mediaStore: MediaStore()).firstScreen(
                width: width, rows: rows)
        }
        let probe = try coldStart()
        let firstScreenCount = probe.entries.count
        runner.log(
            "\(probe.totalCount) cached entries; first screen (\(rows) rows at width \(width)) = \(firstScreenCount) "
                + "entries; heights known for \(probe.heights.knownCount); file "
                + "\(((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int).map { "\($0 / 1024) KiB" } ?? "?")"
        )

        // The floor: the same open, then only the first screen's rows read, nothing decoded.
        func floor() throws -> Int {
            let database = try Database(path: path)
            let bodies = try database.query(
                "SELECT body FROM feed_entries ORDER BY position LIMIT ?", firstScreenCount
            ) { row in try row.bytes(0) }
            return bodies.reduce(0) { $0 + $1.count }
        }

        // Interleave rounds so drift on a noisy machine hits both sides alike.
        var cold: [Double] = []
        var bare: [Double] = []
        for _ in 0..<5 {
            bare += try runner.measure(warmup: 2, runs: 20) { blackHole(try floor()) }.sorted
            cold += try runner.measure(warmup: 2, runs: 20) { blackHole(try coldStart()) }.sorted
        }
        runner.report(
            "cold start: first screen + all 1,000 heights", Samples(cold), unit: .milliseconds,
            baseline: ("open + read first screen's rows", Samples(bare)),
            targets: [.atMost(15), .withinBaseline(factor: 1.5)],
            note: "\(firstScreenCount) entries decoded, facts applied, heights of 1,000 entries unpacked")

        // Where the time goes, for the record (no targets).
        let database = try AppDatabase.open(directory: directory)
        let cache = FeedCache(database: database, mediaStore: MediaStore())
        runner.report(
            "  of which: first screen on an open database",
            runner.measure(warmup: 5, runs: 200) {
                blackHole(try? cache.firstScreen(width: width, rows: rows))
            },
            unit: .microseconds)
        runner.report(
            "  of which: heights of 1,000 entries alone",
            runner.measure(warmup: 5, runs: 200) { blackHole(try? cache.heights(width: width)) },
            unit: .microseconds)
        runner.report(
            "  scroll: next 20 entries from the cache",
            runner.measure(warmup: 5, runs: 200) {
                blackHole(try? cache.entries(from: firstScreenCount, count: 20))
            },
            unit: .microseconds)
    }
}

/// A realistic cached feed for the bench: photos, carousels, videos and text, replies with
/// their parent, reposts, every entry's facts, and heights at the given widths.
enum CachedFeed {
    static func write(entries count: Int, into directory: String, widths: [Int]) throws {
        var random = SplitMix64(seed: 0xC01D)
        let users = (0..<40).map {
            User(id: UserID("u\($0)"), handle: "user\($0)", displayName: "User \($0)")
        }
        let images = (0..<64).map {
            PixelImage.generated(seed: UInt64($0), width: $0 % 2 == 0 ? 24 : 32, height: 24)
        }
        func media(_ id: Int) -> Media {
            let author = users[Int(random.next() % UInt64(users.count))]
            let roll = random.next() % 100
            let image = images[Int(random.next() % UInt64(images.count))]
            let photo = MediaModel.Attachment.Photo(width: 1080, height: 1080, pixels: image)
            let attachments: [MediaModel.Attachment]
            switch roll {
            case 0..<35: attachments = [.photo(photo)]
            case 35..<45: attachments = [.carousel([.photo(photo), .photo(photo), .photo(photo)])]
            case 45..<55:
                attachments = [
                    .video(.init(width: 1920, height: 1080, duration: .seconds(42), poster: image))
                ]
            default: attachments = []
            }
            return Media(
                id: MediaID("m\(id)"), author: author,
                createdAt: Date(timeIntervalSince1970: 1_714_000_000 - Double(id)),
                text:
                    "Post number \(id) with a caption long enough to wrap onto a second line at eighty columns.",
                attachments: attachments)
        }
        var entries: [FeedEntry] = []
        var facts: [MediaID: MediaFacts] = [:]
        for index in 0..<count {
            let item = media(index)
            let context: FeedEntry.Context
            switch random.next() % 10 {
            case 0, 1: context = .reply(parent: media(100_000 + index))
            case 2: context = .repost(by: users[index % users.count])
            default: context = .standalone
            }
            let entry = FeedEntry(id: FeedEntryID("p\(index)"), media: item, context: context)
            for id in entry.mediaIDs {
                facts[id] = MediaFacts(
                    likeCount: index % 17, viewerLiked: index % 3 == 0, replyCount: index % 5)
            }
            entries.append(entry)
        }
        let database = try AppDatabase.open(directory: directory)
        let cache = FeedCache(database: database, mediaStore: MediaStore())
        let pages = stride(from: 0, to: entries.count, by: 20).map {
            Array(entries[$0..<min($0 + 20, entries.count)])
        }
        for (number, page) in pages.enumerated() {
            let pageFacts = Dictionary(
                uniqueKeysWithValues: Set(page.flatMap(\.mediaIDs)).compactMap { id in
                    facts[id].map { (id, $0) }
                })
            let envelope = FeedPageEnvelope(
                FeedPage(entries: page, nextCursor: number + 1 < pages.count ? "c\(number + 1)" : nil),
                facts: pageFacts)
            if number == 0 {
                try cache.merge(firstPage: envelope)
            } else {
                try cache.append(envelope, after: "c\(number)")
            }
        }
        let stored = try cache.entries(from: 0, count: count)
        for width in widths {
            try cache.storeHeights(
                stored.map { cached in
                    let mediaRows = cached.entry.media.attachments.isEmpty ? 0 : 12 * 80 / width
                    let parentRows = if case .reply = cached.entry.context { 3 } else { 0 }
                    return EntryHeights(
                        entryID: cached.id, version: cached.version,
                        rows: [1, parentRows, mediaRows, 2, 1].filter { $0 > 0 })
                }, width: width)
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try database.close()
    }
}
