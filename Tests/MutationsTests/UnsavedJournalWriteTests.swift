import Foundation
import MediaModel
import Mutations
import ServerAPI
import Storage
import Testing
import Wire

/// A journal write refused on the send path is shown, kept and written again: never dropped.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct UnsavedJournalWriteTests {
    /// Makes the journal refuse to delete rows, as a failing disk would.
    static func refuseDeletes(_ database: Database) throws {
        try database.execute(
            """
            CREATE TEMP TRIGGER refuse_deletes BEFORE DELETE ON main.mutation_journal
            BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END
            """)
    }

    static func journalRows(_ harness: MutationHarness, _ token: MutationToken) throws -> Int {
        try harness.database.query(
            "SELECT COUNT(*) FROM mutation_journal WHERE token = ?", token.rawValue
        ).first?.int(0) ?? -1
    }

    @Test func aConfirmationTheJournalRefuses_isShown_andWrittenOnceTheJournalTakesWritesAgain()
        async throws
    {
        // Given a running manager whose journal refuses to delete rows
        let harness = try MutationHarness()
        try Self.refuseDeletes(harness.database)

        // When the server confirms a like
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // Then the like is applied, and the refused write is named in plain words
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        #expect(
            harness.manager.journalWriteFailure
                == "could not save a confirmation to the journal: disk I/O error; nothing is lost, it is "
                + "tried again")
        #expect(try Self.journalRows(harness, token) == 1)

        // When the journal takes writes again and a second passes
        try harness.database.execute("DROP TRIGGER refuse_deletes")
        await harness.advance(by: .seconds(1))

        // Then the confirmation was written after all, and the problem is gone
        #expect(try Self.journalRows(harness, token) == 0)
        #expect(harness.manager.journalWriteFailure == nil)

        // and a restart has nothing to send again
        try await harness.restart()
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: token).count == 1)
        await harness.manager.stop()
    }

    @Test func refusedWrites_areWrittenInOrder_beforeALaterWrite() async throws {
        // Given two confirmations the journal refused
        let harness = try MutationHarness()
        try Self.refuseDeletes(harness.database)
        let first = try await harness.manager.enqueue(.like("m7"))
        let second = try await harness.manager.enqueue(.like("m8"))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.journalWriteFailure?.contains("2 writes are tried again") == true)

        // When the journal recovers and a later write comes (a new viewer)
        try harness.database.execute("DROP TRIGGER refuse_deletes")
        harness.manager.setViewer(User(id: "u9", handle: "nadia", displayName: "Nadia"))

        // Then the refused writes went in with it
        #expect(try Self.journalRows(harness, first) == 0)
        #expect(try Self.journalRows(harness, second) == 0)
        #expect(harness.manager.journalWriteFailure == nil)
        await harness.manager.stop()
    }
}
