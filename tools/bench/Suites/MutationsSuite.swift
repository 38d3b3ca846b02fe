import Foundation
import MediaModel
import Mutations
import Networking
import ServerAPI
import Storage
import Wire

/// `mutations`: the mutation manager's hot paths, each beside a baseline measured in the same run:
/// - durable enqueue, one at a time (median and p99), beside a raw SQLite insert of the same row
///   with the same settings (WAL, `synchronous = FULL`, one transaction);
/// - a burst of 1,000 in one commit, beside 1,000 raw inserts in one transaction;
/// - a cold start replaying 100,000 pending mutations (open the database, read and decode the
///   journal, rebuild the queue and the optimistic layer), beside reading the same rows raw;
/// - one merge of 1,000 feed entries with 1,000 pending mutations, beside the same merge with
///   nothing pending.
enum MutationsSuite {
    static let suite = BenchSuite(
        name: "mutations",
        summary:
            "durable enqueue, burst commit, cold-start replay of 100,000, merge of 1,000 with 1,000 pending"
    ) { runner in
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-mutations-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: root) }

        try await durableEnqueue(runner, root: root + "/enqueue")
        try await burst(runner, root: root + "/burst")
        try await coldStart(runner, root: root + "/coldstart")
        try await merge(runner, root: root + "/merge")
    }

    /// A manager that never sends (it is not started).
    static func manager(_ directory: String) throws -> MutationManager {
        try MutationManager(
            database: AppDatabase.open(directory: directory),
            send: { _, _ throws(TransportError) in throw .offline() }, clock: ManualClock())
    }

    /// A database with a copy of the journal table, for the raw baselines.
    static func rawDatabase(_ directory: String) throws -> Database {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let database = try Database(path: directory + "/raw.sqlite")
        try database.migrate(AppDatabase.migrations)
        return database
    }

    static let rawInsert = """
        INSERT INTO mutation_journal (token, lane, kind, payload, state, attempts, streak, created_at)
        VALUES (?, ?, 'like', ?, 0, 0, 0, ?)
        """

    /// One raw row like a like's: a UUID token, its lane, a 12-byte payload.
    static func rawRow(_ statement: borrowing Statement, _ index: Int) throws {
        try statement.execute { row in
            try row.bind(UUID().uuidString.lowercased())
            try row.bind("media:m\(index % 5000)")
            try row.bind([1, 3, 5, 109, 52, 50, 0, 0, 0, 0, 0, UInt8(index % 250)] as [UInt8])
            try row.bind(Int64(1_714_564_800_000))
        }
    }

    static func durableEnqueue(_ runner: BenchRunner, root: String) async throws {
        let manager = try manager(root)
        let raw = try rawDatabase(root + "-raw")
        var index = 0
        var enqueued: [Double] = []
        var inserted: [Double] = []
        // Interleave rounds so drift on a noisy machine hits both sides alike.
        for _ in 0..<5 {
            inserted += try runner.measure(warmup: 5, runs: 100) {
                index += 1
                try raw.transaction(.immediate, synchronous: .full) { db in
                    try rawRow(try db.prepare(rawInsert), index)
                }
            }.sorted
            enqueued += try await runner.measure(warmup: 5, runs: 100) {
                index += 1
                try await manager.enqueue(.like(MediaID("m\(index % 5000)")))
            }.sorted
        }
        runner.report(
            "durable enqueue, one at a time", Samples(enqueued), unit: .milliseconds,
            baseline: ("raw insert, same settings", Samples(inserted)), targets: [.atMost(1)],
            note: "WAL, synchronous=FULL, one commit each; p99 in the line")
    }

    static func burst(_ runner: BenchRunner, root: String) async throws {
        let manager = try manager(root)
        let raw = try rawDatabase(root + "-raw")
        let mutations = (0..<1000).map { Mutation.like(MediaID("m\($0)")) }
        var index = 0
        let enqueued = try await runner.measure(warmup: 2, runs: 20) {
            try await manager.enqueue(mutations)
        }
        let inserted = try runner.measure(warmup: 2, runs: 20) {
            try raw.transaction(.immediate, synchronous: .full) { db in
                let statement = try db.prepare(rawInsert)
                for _ in 0..<1000 {
                    index += 1
                    try rawRow(statement, index)
                }
            }
        }
        runner.report(
            "burst of 1,000 in one commit", value: 1000 / enqueued.median, unit: .perSecond,
            baseline: ("raw inserts, one commit", 1000 / inserted.median), targets: [.atLeast(50_000)],
            note: "median of 20 bursts; \(BenchFormat.number(enqueued.median * 1000)) ms per burst")
    }

    static func coldStart(_ runner: BenchRunner, root: String) async throws {
        // 100,000 pending mutations of every kind the layer indexes: likes and unlikes of 5,000
        // media, reposts, deletes, follows, text posts and replies.
        let writer = try manager(root)
        writer.setViewer(User(id: "u1", handle: "ada", displayName: "Ada"))
        for chunk in 0..<100 {
            let burst = (0..<1000).map { item -> Mutation in
                let index = chunk * 1000 + item
                let media = MediaID("m\(index % 5000)")
                switch index % 20 {
                case 0..<7: return .like(media)
                case 7..<12: return .unlike(media)
                case 12, 13: return .repost(media)
                case 14: return .delete(MediaID("m\(5000 + index)"))
                case 15, 16: return .follow(UserID("u\(index % 300)"))
                case 17: return .unfollow(UserID("u\(index % 300)"))
                case 18: return .post(text: "post \(index)", attachments: [])
                default: return .reply(to: media, text: "reply \(index)", attachments: [])
                }
            }
            try await writer.enqueue(burst)
        }
        try writer.database.close()
        var replayed: [Double] = []
        var read: [Double] = []
        // Kept alive until the end, so freeing them is not timed.
        var opened: [(MutationManager, Database)] = []
        for _ in 0..<3 {
            read += try runner.measure(warmup: 1, runs: 3) {
                let database = try Database(path: root + "/" + AppDatabase.fileName)
                let bytes = try database.query(
                    "SELECT sequence, token, lane, payload, state, created_at FROM mutation_journal"
                ) { row in try row.bytes(3).count }
                blackHole(bytes)
                try database.close()
            }.sorted
            replayed += try runner.measure(warmup: 1, runs: 3) {
                let database = try AppDatabase.open(directory: root)
                let manager = try MutationManager(
                    database: database, send: { _, _ throws(TransportError) in throw .offline() },
                    clock: ManualClock())
                opened.append((manager, database))
            }.sorted
        }
        let pending = opened.first?.0.pending.count ?? 0
        for (_, database) in opened { try database.close() }
        runner.report(
            "cold-start replay of 100,000 pending", Samples(replayed), unit: .milliseconds,
            baseline: ("read the rows raw, undecoded", Samples(read)), targets: [.atMost(1000)],
            note: "\(pending) rows decoded; queue and optimistic layer rebuilt")
    }

    static func merge(_ runner: BenchRunner, root: String) async throws {
        let author = User(id: "u1", handle: "ada", displayName: "Ada")
        let other = User(id: "u2", handle: "bo", displayName: "Bo")
        let epoch = Date(timeIntervalSince1970: 1_714_000_000)
        let entries = (0..<1000).map { index in
            let media = Media(
                id: MediaID("m\(index)"), author: index % 3 == 0 ? author : other,
                createdAt: epoch.addingTimeInterval(Double(-index)), text: "entry \(index)")
            let context: FeedEntry.Context =
                index % 5 == 0
                ? .reply(
                    parent: Media(
                        id: MediaID("m\(index + 5000)"), author: other, createdAt: epoch, text: "parent"))
                : .standalone
            return FeedEntry(id: FeedEntryID("p\(index)"), media: media, context: context)
        }
        var facts: [MediaID: MediaFacts] = [:]
        for entry in entries {
            for id in entry.mediaIDs { facts[id] = MediaFacts(likeCount: 3, replyCount: 1, revision: 2) }
        }
        let busy = try manager(root)
        busy.setViewer(author)
        try await busy.enqueue(
            (0..<1000).map { index -> Mutation in
                let media = MediaID("m\(index)")
                switch index % 10 {
                case 0..<4: return .like(media)
                case 4, 5: return .unlike(media)
                case 6: return .repost(media)
                case 7: return .reply(to: media, text: "reply \(index)", attachments: [])
                case 8: return index % 100 == 8 ? .delete(media) : .like(media)
                default: return index % 50 == 9 ? .post(text: "new \(index)", attachments: []) : .like(media)
                }
            })
        let idle = try manager(root + "-empty")
        var rows = 0
        let merged = runner.measure(warmup: 20, runs: 200) {
            rows = busy.mergedHomeFeed(entries, facts: facts).count
        }
        let passThrough = runner.measure(warmup: 20, runs: 200) {
            blackHole(idle.mergedHomeFeed(entries, facts: facts).count)
        }
        runner.report(
            "merge: 1,000 entries with 1,000 pending", merged, unit: .milliseconds,
            baseline: ("the same merge, nothing pending", passThrough), targets: [.atMost(1)],
            note: "\(rows) rows out (new posts on top, deleted ones out)")
    }
}
