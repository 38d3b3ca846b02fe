@_spi(Testing) import Backend
import FeedCaching
import Foundation
import MediaModel
@_spi(Testing) import Mutations
@_spi(Testing) import Networking
import ServerAPI
import Storage
import Synchronization
import Testing
import Wire

@Suite(.timeLimit(mutationSuiteHangLimit)) struct MutationJournalTests {
    /// A manager on a fresh app database whose sends never answer (it is not started).
    static func idleManager(
        directory: String? = nil,
        configuration: MutationManager.Configuration = MutationManager.Configuration()
    ) throws -> (MutationManager, Database, String) {
        let directory = try directory ?? BackendServer.makeTemporaryDirectory("journal")
        let database = try AppDatabase.open(directory: directory)
        let manager = try MutationManager(
            database: database, send: { _, _ throws(TransportError) in throw .offline() },
            clock: ManualClock(), configuration: configuration)
        return (manager, database, directory)
    }

    @Test func enqueue_returnsOnlyOnceTheRowIsCommitted_soAnotherConnectionSeesIt() async throws {
        // Given a manager
        let (manager, _, directory) = try Self.idleManager()

        // When a like is enqueued
        let token = try await manager.enqueue(.like("m42"))

        // Then another connection to the file sees the row, in WAL mode
        let other = try Database(path: (directory as NSString).appendingPathComponent(AppDatabase.fileName))
        #expect(other.journalMode == "wal")
        let rows = try other.query("SELECT token, lane, kind, state, attempts FROM mutation_journal")
        #expect(rows.count == 1)
        #expect(try rows.first?.string(0) == token.rawValue)
        #expect(try rows.first?.string(1) == "media:m42")
        #expect(try rows.first?.string(2) == "like")
        #expect(try rows.first?.int(3) == 0)
        #expect(try rows.first?.int(4) == 0)
    }

    /// Every launch sets the viewer the journal already keeps: that writes nothing (a durable
    /// commit costs a launch several syncs and a checkpoint at exit); another viewer is
    /// written, and the next launch reads it back.
    @Test func theSameViewerAgain_writesNothing_andAnotherViewerIsKept() throws {
        let (manager, database, directory) = try Self.idleManager()
        let ada = User(id: "u1", handle: "ada", displayName: "Ada")
        manager.setViewer(ada)
        try database.close()

        // Another connection's `data_version` moves with every commit but its own.
        let (next, nextDatabase, _) = try Self.idleManager(directory: directory)
        let observer = try AppDatabase.open(directory: directory)
        func version() throws -> Int64 {
            try observer.withConnection { db in try db.queryFirst("PRAGMA data_version") { try $0.int64(0) } }
                ?? -1
        }
        #expect(next.viewer == ada)
        let before = try version()
        next.setViewer(ada)
        #expect(try version() == before)
        let grace = User(id: "u2", handle: "grace", displayName: "Grace")
        next.setViewer(grace)
        #expect(try version() != before)
        try nextDatabase.close()
        try observer.close()

        let (last, _, _) = try Self.idleManager(directory: directory)
        #expect(last.viewer == grace)
    }

    @Test func aBurst_sharesOneCommit_andKeepsItsOrder() async throws {
        let (manager, _, _) = try Self.idleManager()
        let before = manager.commitCount

        let tokens = try await manager.enqueue((1...50).map { .like(MediaID("m\($0)")) })

        #expect(manager.commitCount == before + 1)
        #expect(manager.pending.map(\.token) == tokens)
        #expect(manager.pending.map(\.sequence) == manager.pending.map(\.sequence).sorted())
    }

    @Test func concurrentEnqueues_arrivingWhileACommitIsUnderWay_shareTheNextCommit() async throws {
        // Given a manager whose database is busy, so the first enqueue's commit waits
        let (manager, database, _) = try Self.idleManager()
        let before = manager.commitCount
        let holding = DispatchSemaphore(value: 0)
        let queued = Mutex(false)
        // The database is held by a thread of its own, which lets go once nine enqueues queue (or
        // after 60 s): the test's tasks never wait for each other on the cooperative pool.
        Thread.detachNewThread {
            try? database.withConnection { _ in
                holding.signal()
                let deadline = Date().addingTimeInterval(60)
                while manager.queuedEnqueueCount < 9, Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.001)
                }
                queued.withLock { $0 = manager.queuedEnqueueCount == 9 }
            }
        }
        holding.wait()

        // When ten enqueues arrive: one leads (and waits for the database), nine queue behind it.
        // The nine start once the leader has taken its batch: started together, some could
        // join the leader's own batch, and fewer than nine would queue. Each runs on a thread of
        // its own, so the leader's wait for the database never takes a thread of the
        // cooperative pool that other tests need.
        let threads = ThreadPerJobExecutor()
        let leader = Task(executorPreference: threads) { try await manager.enqueue(.like(MediaID("m1"))) }
        let deadline = Date().addingTimeInterval(60)
        while !manager.isCommittingAlone, Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
        let tasks =
            [leader]
            + (2...10).map { index in
                Task(executorPreference: threads) { try await manager.enqueue(.like(MediaID("m\(index)"))) }
            }
        var tokens: [MutationToken] = []
        for task in tasks { tokens.append(try await task.value) }

        // Then all ten are journaled in two commits: the leader's, then the nine together
        #expect(queued.withLock { $0 })
        #expect(manager.commitCount == before + 2)
        #expect(Set(manager.pending.map(\.token)) == Set(tokens))
    }

    @Test func anOversizedPayload_isRefusedWithAClearMessage_andNothingIsJournaled() async throws {
        // Given a limit of 1 KiB
        var configuration = MutationManager.Configuration()
        configuration.payloadLimit = 1024
        let (manager, _, _) = try Self.idleManager(configuration: configuration)

        // When a burst holds a post of 2,000 characters
        let text = String(repeating: "a", count: 2000)
        let error = await #expect(throws: MutationError.self) {
            try await manager.enqueue([.like("m1"), .post(text: text, attachments: [])])
        }

        // Then it is refused, saying how big it was and what to do, and nothing was journaled
        #expect(error?.code == .payloadTooLarge)
        #expect(
            error?.message
                == "the post mutation's journal payload is 2018 bytes, over the limit of 1024 bytes; nothing "
                + "was enqueued: send less (fewer or smaller attachments, shorter text)")
        #expect(manager.pending.isEmpty)
    }

    @Test func aJournalWriteThatFails_isSurfacedWithItsStorageError() async throws {
        // Given a manager with a pending change, and its database gone from under it
        let (manager, database, directory) = try Self.idleManager()
        _ = try await manager.enqueue(.like("m2"))
        #expect(manager.journalWriteFailure == nil)
        try database.close()

        // When the network comes back (the backoff of every pending change is reset)
        manager.networkDidChange()

        // Then the write that failed is named, with the storage error, instead of vanishing
        let failure = try #require(manager.journalWriteFailure)
        #expect(failure.hasPrefix("could not save the reset of the backoff to the journal: "))
        #expect(failure.contains("closed"))
        #expect(manager.pending.count == 1, "the change is kept in memory and still sent")
        _ = directory
    }

    @Test func anUnknownLocalID_isRefused() async throws {
        let (manager, _, _) = try Self.idleManager()

        let error = await #expect(throws: MutationError.self) {
            try await manager.enqueue(.like(MutationToken("gone").localMediaID))
        }

        #expect(error?.code == .unknownLocalMedia)
        #expect(
            error?.message.hasPrefix("'local:gone' is a local post id, but no post made on this device")
                == true)
    }

    @Test func migratingAVersion1Database_keepsTheFeedCache_andAddsAnEmptyJournal() async throws {
        // Given an app database at schema version 1 holding a cached feed
        let directory = try BackendServer.makeTemporaryDirectory("migrate")
        let path = (directory as NSString).appendingPathComponent(AppDatabase.fileName)
        let old = try Database(path: path)
        try old.migrate(Array(AppDatabase.migrations.prefix(1)))
        let cache = FeedCache(database: old, mediaStore: MediaStore())
        try cache.merge(firstPage: WireEnvelope(FeedPage(entries: [FeedEntry(id: "p1", media: Self.media)])))
        try old.close()

        // When this build opens it
        let database = try AppDatabase.open(directory: directory)

        // Then the cache is intact and the journal is there, empty
        #expect(try database.userVersion() == AppDatabase.migrations.count)
        #expect(try FeedCache(database: database, mediaStore: MediaStore()).count == 1)
        #expect(try database.query("SELECT COUNT(*) FROM mutation_journal").first?.int(0) == 0)
    }

    @Test func journaledRows_surviveReopening_andInFlightOnesBecomePending() async throws {
        // Given three pending mutations, one marked in flight when the process died
        let (manager, database, directory) = try Self.idleManager()
        let tokens = try await manager.enqueue([
            .like("m1"), .post(text: "hi", attachments: []), .follow("u3"),
        ])
        try database.execute(
            "UPDATE mutation_journal SET state = 1, attempts = 1 WHERE token = ?", tokens[0].rawValue)
        try database.close()

        // When the database is opened again
        let (reopened, _, _) = try Self.idleManager(directory: directory)

        // Then every row is back, in order, pending, with its attempt count
        #expect(reopened.pending.map(\.token) == tokens)
        #expect(reopened.pending.map(\.state) == [.pending, .pending, .pending])
        #expect(reopened.pending.map(\.attempts) == [1, 0, 0])
        #expect(
            reopened.pending.map(\.mutation) == [
                .like("m1"), .post(text: "hi", attachments: []), .follow("u3"),
            ])
    }

    @Test func unreadableRows_sayWhereAndWhyTheyCannotBeRead() async throws {
        // Given a journal holding a row of a format this build does not write, one whose kind's
        // tag it does not know, and one cut short after its tag
        let (_, database, directory) = try Self.idleManager()
        let insert = """
            INSERT INTO mutation_journal (token, lane, kind, payload, state, created_at)
            VALUES (?, 'lane', ?, ?, 0, 0)
            """
        try database.execute(insert, "t-format", "like", [UInt8]([9, 3]))
        try database.execute(insert, "t-tag", "bookmark", [UInt8]([1, 200]))
        try database.execute(insert, "t-short", "like", [UInt8]([1]))
        try database.close()

        // When the journal is opened
        let (reopened, _, _) = try Self.idleManager(directory: directory)

        // Then each is kept as unreadable, with the byte the problem was found at and the reason
        let problems = Dictionary(
            uniqueKeysWithValues: reopened.unreadableRows.map { ($0.token, $0.problem) })
        #expect(problems["t-format"] == "byte 0: journal format 9, this build reads 1")
        #expect(problems["t-tag"] == "byte 1: unknown mutation tag 200")
        #expect(problems["t-short"]?.hasPrefix("byte 1:") == true, "\(problems)")
        #expect(reopened.unreadableRows.map(\.kind) == ["like", "bookmark", "like"])
    }

    @Test(arguments: Self.everyKind)
    func everyKind_survivesTheJournal(mutation: Mutation) async throws {
        // Given a manager whose viewer has an image avatar
        let (manager, database, directory) = try Self.idleManager()
        manager.setViewer(
            User(
                id: "u1", handle: "ada", displayName: "Ada",
                avatar: .image(PixelImage.generated(seed: 1, width: 2, height: 2))))

        // When a mutation of the kind is journaled and read back
        let token = try await manager.enqueue(mutation)
        try database.close()
        let (reopened, _, _) = try Self.idleManager(directory: directory)

        // Then it is the same mutation, in the lane of its kind
        let record = try #require(reopened.record(for: token))
        #expect(record.mutation == mutation)
        #expect(record.lane == mutation.lane)
        #expect(MutationKind(named: mutation.kind.name) == mutation.kind)
    }

    static let media = Media(
        id: "m1", author: User(id: "u1", handle: "ada", displayName: "Ada"),
        createdAt: Date(timeIntervalSince1970: 1_714_000_000), text: "hello")

    /// A change of every kind, a new post with a photo among them.
    static let everyKind: [Mutation] = MutationKind.all.map { kind in
        guard kind.subject == .newPost else { return MutationKindTests.sample(of: kind) }
        return Mutation(
            kind, text: "a photo",
            attachments: [
                .photo(.init(width: 4, height: 3, pixels: PixelImage.generated(seed: 2, width: 4, height: 3)))
            ])
    }
}
