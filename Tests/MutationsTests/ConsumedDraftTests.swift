import MediaModel
import Mutations
import ServerAPI
import Storage
import Testing

/// A change made from an app-side draft records, in its own commit, that the draft is used up:
/// the record survives a restart, and a commit that fails records nothing.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct ConsumedDraftTests {
    @Test func aPostMadeFromADraft_marksTheDraftUsedUp_acrossARestart() async throws {
        // Given a manager, and a draft not posted yet
        let harness = try MutationHarness()
        #expect(!harness.manager.isDraftConsumed("draft-1"))

        // When a post made from it is journaled
        try await harness.manager.enqueue(
            .post(text: "From a draft", attachments: []), consumingDraft: "draft-1")

        // Then that draft (and no other) is used up, in this launch and the next
        #expect(harness.manager.isDraftConsumed("draft-1"))
        #expect(!harness.manager.isDraftConsumed("draft-2"))
        try await harness.restart()
        #expect(harness.manager.isDraftConsumed("draft-1"))
        await harness.manager.stop()
    }

    @Test func aCommitTheJournalRefuses_doesNotMarkTheDraftUsedUp() async throws {
        // Given a journal that refuses new rows, as a full disk does
        let harness = try MutationHarness()
        try harness.database.execute(
            """
            CREATE TEMP TRIGGER full_disk BEFORE INSERT ON main.mutation_journal
            BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
            """)

        // When a post made from a draft is enqueued
        await #expect(throws: MutationError.self) {
            try await harness.manager.enqueue(
                .post(text: "Lost?", attachments: []), consumingDraft: "draft-1")
        }

        // Then the draft is not used up (the app keeps it), in this launch and the next
        #expect(!harness.manager.isDraftConsumed("draft-1"))
        try await harness.restart()
        #expect(!harness.manager.isDraftConsumed("draft-1"))
        await harness.manager.stop()
    }
}
