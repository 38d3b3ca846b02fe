@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import Networking
import ServerAPI
import Storage
import Testing
import Wire

/// Each change belongs to the account signed in when it was made: only that account's changes
/// are sent, listed and merged; the others are held, kept, and sent when their account is named
/// again.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct AccountTests {
    @Test func changesOfAnotherAccount_areHeld_neitherSentNorMerged_andGoInOrderWhenItReturns() async throws {
        // Given @lynn's like, post and unlike, made while nothing was sent
        let harness = try MutationHarness(start: false)
        let manager = harness.manager
        manager.setAccount("lynn")
        let like = try await manager.enqueue(.like("m5"))
        let post = try await manager.enqueue(.post(text: "lynn's post", attachments: []))
        let unlike = try await manager.enqueue(.unlike("m5"))
        #expect(manager.pending.map(\.token) == [like, post, unlike])
        #expect(manager.pending.map(\.account) == ["lynn", "lynn", "lynn"])

        // When @grace signs in and the manager sends
        manager.setAccount("grace")
        manager.start()
        await manager.waitUntilIdle()

        // Then nothing of @lynn's is sent, listed as @grace's, or merged into @grace's screens
        #expect(harness.recorder.handled.isEmpty, "\(harness.recorder.handled)")
        #expect(manager.pending.isEmpty)
        #expect(manager.failed.isEmpty)
        #expect(manager.held.map(\.token) == [like, post, unlike])
        #expect(manager.held.map(\.account) == ["lynn", "lynn", "lynn"])
        #expect(manager.mergedFacts(MediaFacts(likeCount: 3), for: "m5") == MediaFacts(likeCount: 3))
        #expect(try harness.homeFeed().allSatisfy { $0.entry.media.text != "lynn's post" })
        let refusal = #expect(throws: MutationError.self) { try manager.sendNow(like) }
        #expect(refusal?.code == .heldForAccount)
        #expect((try? manager.discard(like)) == nil, "another account's change is never discarded here")

        // And @grace's own change goes, made as @grace, past @lynn's held like in the same lane
        let graces = try await manager.enqueue(.like("m5"))
        await manager.waitUntilIdle()
        #expect(harness.recorder.handled.map(\.token) == [graces.rawValue])
        #expect(manager.record(for: like)?.state == .pending, "still held, kept")

        // When @lynn signs in again (after a cold start, which knows no account until named)
        try await harness.restart(start: true)
        await harness.manager.waitUntilIdle()
        #expect(harness.recorder.handled.map(\.token) == [graces.rawValue], "held across the restart")
        #expect(harness.manager.held.map(\.token) == [like, post, unlike])
        harness.manager.setAccount("lynn")
        await harness.manager.waitUntilIdle()

        // Then hers are sent, once each, her like before her unlike (one lane), and nothing is held
        let sent = harness.recorder.handled.map(\.token)
        #expect(sent.first == graces.rawValue && sent.count == 4, "\(sent)")
        #expect(Set(sent.dropFirst()) == [like.rawValue, post.rawValue, unlike.rawValue], "\(sent)")
        #expect(
            (sent.firstIndex(of: like.rawValue) ?? .max) < (sent.firstIndex(of: unlike.rawValue) ?? -1),
            "\(sent)")
        #expect(harness.recorder.handled.allSatisfy { $0.applied })
        #expect(harness.manager.held.isEmpty)
        #expect(harness.manager.pending.isEmpty)
    }

    @Test func aClientSignedInAsAnotherAccount_neverSendsTheChange() async throws {
        // Given a manager whose client is signed in as @grace, but which still names @lynn
        let harness = try MutationHarness(start: false)
        let client = harness.client.signedIn(
            with: Credentials(
                handle: "grace", token: harness.session.token, expiresAt: .distantFuture, renewToken: "r",
                renewExpiresAt: .distantFuture, onChange: { _ in }))
        let manager = try MutationManager(
            database: harness.database, client: { client }, clock: harness.clock,
            configuration: harness.configuration, account: "lynn")
        let like = try await manager.enqueue(.like("m5"))

        // When it sends
        manager.start()
        await manager.waitUntilIdle()
        await manager.stop()

        // Then the server never saw it; it waits, saying why
        #expect(harness.recorder.handled.isEmpty, "\(harness.recorder.handled)")
        let record = try #require(manager.record(for: like))
        #expect(record.state == .pending)
        #expect(
            record.lastError?.contains(
                "signed in as @grace, but the change was made as @lynn; it is held until that account signs in again"
            )
                == true, "\(record.lastError ?? "")")
    }

    /// Writes a journal at schema 2 (before accounts) in a new directory: a waiting like and a
    /// failed like (payloads as this build writes them: their format did not change), and the
    /// viewer it recorded, if any.
    static func journalBeforeAccounts(viewer: String?) async throws -> String {
        let current = try MutationHarness(start: false)
        try await current.manager.enqueue(.like("m5"))
        let payload = try #require(try current.database.query("SELECT payload FROM mutation_journal").first)
            .bytes(0)
        let directory = try BackendServer.makeTemporaryDirectory("journal-v2")
        let old = try Database(path: directory + "/" + AppDatabase.fileName)
        defer { try? old.close() }
        try old.migrate(Array(AppDatabase.migrations.prefix(2)))
        for (sequence, state) in [(1, 0), (2, 2)] {
            try old.execute(
                "INSERT INTO mutation_journal (sequence, token, lane, kind, payload, state, created_at) "
                    + "VALUES (?, ?, 'media:m5', 'like', ?, ?, 1)", sequence, "t-\(sequence)", payload, state)
        }
        if let viewer {
            try old.execute(
                "INSERT INTO mutation_meta (key, value) VALUES ('viewer', ?)",
                Array(#"{"id": "u7", "handle": "\#(viewer)", "displayName": "Someone"}"#.utf8))
        }
        return directory
    }

    @Test func aJournalOfTheSchemaBeforeAccounts_keepsItsRows_asTheRecordedViewers() async throws {
        // Given a journal at schema 2 with a waiting and a failed like, and @lynn as its viewer
        let directory = try await Self.journalBeforeAccounts(viewer: "lynn")

        // When this build opens it
        let database = try AppDatabase.open(directory: directory)
        defer { try? database.close() }

        // Then both rows are kept, made as @lynn: hers to send, held from anyone else
        #expect(
            try MutationJournalSchema.unsentCounts(database).map {
                "\($0.account ?? "-") \($0.waiting) \($0.failed)"
            }
                == ["lynn 1 1"])
        let asLynn = try MutationManager(
            database: database, send: { _, _ throws(TransportError) in throw TransportError(.offline, "x") },
            account: "lynn")
        #expect(asLynn.pending.map(\.token.rawValue) == ["t-1"])
        #expect(asLynn.failed.map(\.token.rawValue) == ["t-2"])
        #expect(asLynn.unreadableRows.isEmpty)
        let asGrace = try MutationManager(
            database: database, send: { _, _ throws(TransportError) in throw TransportError(.offline, "x") },
            account: "grace")
        #expect(asGrace.pending.isEmpty && asGrace.failed.isEmpty)
        #expect(asGrace.held.map(\.token.rawValue) == ["t-1", "t-2"])
    }

    @Test func aJournalOfTheSchemaBeforeAccounts_withNoViewer_holdsItsRowsFromEveryAccount() async throws {
        // Given a journal at schema 2 that never recorded a viewer
        let directory = try await Self.journalBeforeAccounts(viewer: nil)

        // When this build opens it, the rows are kept with no account: held from whoever signs in
        let database = try AppDatabase.open(directory: directory)
        defer { try? database.close() }
        #expect(
            try MutationJournalSchema.unsentCounts(database).map {
                "\($0.account ?? "-") \($0.waiting) \($0.failed)"
            }
                == ["- 1 1"])
        let asGrace = try MutationManager(
            database: database, send: { _, _ throws(TransportError) in throw TransportError(.offline, "x") },
            account: "grace")
        #expect(asGrace.pending.isEmpty && asGrace.failed.isEmpty)
        #expect(asGrace.held.map(\.account) == [nil, nil])
    }
}
