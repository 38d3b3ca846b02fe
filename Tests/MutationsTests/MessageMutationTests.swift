@_spi(Testing) import Backend
import Foundation
import MediaModel
@_spi(Testing) import Mutations
import ServerAPI
import Storage
import Testing
import Wire

/// Direct messages through the mutation manager: the conversation is the lane, a message shows
/// at once, takes the server's order once confirmed without changing its row, and survives
/// going offline and restarting, reaching the server exactly once.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct MessageMutationTests {
    /// Starts ada's conversation with `members` on the harness's server.
    static func conversation(_ harness: MutationHarness, with members: [UserID] = ["u2"]) async throws
        -> ConversationID
    {
        try await harness.client.startConversation(with: members).payload.id
    }

    /// The server's messages of a conversation as ada reads them, oldest first.
    static func page(_ harness: MutationHarness, _ id: ConversationID) async throws -> MessagePage {
        try await APIClient(
            transport: harness.recorder, bearerToken: harness.server.testToken(forHandle: "ada"),
            clock: harness.clock
        ).messages(in: id).payload
    }

    /// Sends a message as `handle` straight to the server (another person's device).
    static func say(_ harness: MutationHarness, as handle: String, _ id: ConversationID, _ text: String)
        async throws
    {
        _ = try await APIClient(
            transport: harness.recorder, bearerToken: harness.server.testToken(forHandle: handle),
            clock: harness.clock
        ).send(.message(in: id, text: text), clientToken: "\(handle)-" + text.filter(\.isLetter))
    }

    @Test func aMessage_showsAtOnceAsSending_thenTakesTheServersOrder_underTheSameRow() async throws {
        // Given ada's conversation with grace, read while empty, and ada offline
        let harness = try MutationHarness()
        harness.manager.setViewer(User(id: "u1", handle: "ada", displayName: "Ada"))
        let id = try await Self.conversation(harness)
        let empty = try await Self.page(harness, id)
        harness.faults.setFaultProfile(.offline)

        // When ada types a message, grace writes meanwhile, and ada's network comes back
        let token = try await harness.manager.enqueue(.message(in: id, text: "on my way"))
        await harness.manager.waitUntilIdle()
        let typed = harness.manager.mergedConversation(id, page: empty)
        try await Self.say(harness, as: "grace", id, "where are you?")
        let stale = try await Self.page(harness, id)
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()
        let confirmed = harness.manager.mergedConversation(id, page: empty)
        let overStale = harness.manager.mergedConversation(id, page: stale)
        let page = try await Self.page(harness, id)
        let refreshed = harness.manager.mergedConversation(page)

        // Then the message showed at once at the bottom, sending, as ada
        #expect(typed.messages.map(\.message.text) == ["on my way"])
        #expect(typed.messages.map(\.statusText) == ["sending…"])
        #expect(typed.messages.first?.status == .pending(token))
        #expect(typed.messages.first?.message.sender.handle == "ada")
        let row = "local:\(token.rawValue)"
        #expect(typed.messages.map(\.id) == [row])
        // and once confirmed it is the server's message, under the same row, before any page has it
        #expect(confirmed.messages.map(\.id) == [row])
        #expect(confirmed.messages.map(\.status) == [.server])
        #expect(confirmed.messages.first?.message.id.rawValue.hasPrefix("dm") == true)
        // (over a page read before it was confirmed, it goes where the server put it: after grace's)
        #expect(overStale.messages.map(\.message.text) == ["where are you?", "on my way"])
        #expect(overStale.messages.map(\.id).last == row)
        // and the next page puts it in the server's order (after grace's), still the same row,
        // and it leaves the optimistic layer
        #expect(refreshed.messages.map(\.message.text) == ["where are you?", "on my way"])
        #expect(refreshed.messages.last?.id == row)
        #expect(refreshed.messages.map(\.status) == [.server, .server])
        #expect(harness.manager.record(for: token) == nil)
        #expect(harness.manager.mergedConversation(id, page: empty).messages.isEmpty)
        await harness.manager.stop()
    }

    @Test func messagesOfOneConversation_reachTheServerInTheOrderTyped_throughFailuresAndRetries()
        async throws
    {
        // Given a conversation and a server that fails the first attempt (500) and loses the
        // answer to the second after applying it
        let harness = try MutationHarness()
        let id = try await Self.conversation(harness)
        harness.faults.injectFaults([.serverError(status: 500), .dropResponseAfterApply])

        // When ada types three messages and time passes for the retries
        let tokens = try await harness.manager.enqueue([
            .message(in: id, text: "one"), .message(in: id, text: "two"), .message(in: id, text: "three"),
        ])
        await harness.manager.waitUntilIdle()
        let meanwhile = harness.manager.mergedConversation(id, page: nil)
        await harness.advance(by: .seconds(10))

        // Then meanwhile they showed in the order typed, and the server holds them in that order,
        // each once; the first's retry (its answer lost) came back from the server's record
        #expect(meanwhile.messages.map(\.message.text) == ["one", "two", "three"])
        #expect(try await Self.page(harness, id).messages.map(\.text) == ["one", "two", "three"])
        let applied = harness.recorder.handled.filter(\.applied).map(\.token)
        #expect(applied == tokens.map(\.rawValue))
        #expect(harness.handlings(of: tokens[0]).map(\.replayed) == [false, true])
        #expect(harness.handlings(of: tokens[1]).map(\.applied) == [true])
        #expect(try harness.backendCount("SELECT COUNT(*) FROM messages") == 3)
        await harness.manager.stop()
    }

    @Test func aMessageStuckInOneConversation_doesNotHoldUpAnother() async throws {
        // Given a message to grace stuck behind a 503
        let harness = try MutationHarness()
        let withGrace = try await Self.conversation(harness, with: ["u2"])
        let withAlan = try await Self.conversation(harness, with: ["u3"])
        harness.faults.injectFaults([.serverError(status: 503)])
        let stuck = try await harness.manager.enqueue(.message(in: withGrace, text: "hello grace"))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: stuck)?.state == .pending)

        // When ada writes to alan, twice
        let others = try await harness.manager.enqueue([
            .message(in: withAlan, text: "hi alan"), .message(in: withAlan, text: "lunch?"),
        ])
        await harness.manager.waitUntilIdle()

        // Then those go at once, in order, while the first still waits in its own lane
        #expect(harness.recorder.handled.map(\.token) == others.map(\.rawValue))
        #expect(try await Self.page(harness, withAlan).messages.map(\.text) == ["hi alan", "lunch?"])
        #expect(harness.manager.record(for: stuck)?.state == .pending)
        #expect(harness.manager.record(for: stuck)?.lane == .conversation(withGrace))
        #expect(
            harness.manager.mergedConversation(withGrace, page: nil).messages.map(\.statusText) == [
                "sending…"
            ])
        await harness.manager.stop()
    }

    @Test func offlineMessages_goAfterARestart_whenTheNetworkReturns_exactlyOnce() async throws {
        // Given two messages typed offline, and a third applied by the server whose answer was
        // lost when the app was killed
        let lossy = FaultProfile(name: "lossy", dropTimeout: .seconds(5))
        let harness = try MutationHarness(profile: lossy)
        let id = try await Self.conversation(harness)
        harness.faults.injectFaults([.dropResponseAfterApply])
        let inFlight = try await harness.manager.enqueue(.message(in: id, text: "first"))
        await eventually("the first is applied, its answer held back") {
            harness.manager.record(for: inFlight)?.state == .inFlight
                && !harness.handlings(of: inFlight).isEmpty
        }
        harness.faults.setFaultProfile(.offline)
        let offline = try await harness.manager.enqueue([
            .message(in: id, text: "second"), .message(in: id, text: "third"),
        ])

        // When the app restarts, still offline
        try await harness.restart(start: false)
        let afterRestart = harness.manager.mergedConversation(id, page: nil)
        harness.manager.start()
        await harness.manager.waitUntilIdle()

        // Then all three are back, pending, in the order typed, and nothing more reached the server
        #expect(afterRestart.messages.map(\.message.text) == ["first", "second", "third"])
        #expect(afterRestart.messages.map(\.statusText) == ["sending…", "sending…", "sending…"])
        #expect(harness.manager.pending.map(\.token) == [inFlight] + offline)
        #expect(try harness.backendCount("SELECT COUNT(*) FROM messages") == 1)

        // and once the network is back each reaches the server once: the first is answered from
        // the server's record of its key
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: inFlight).map(\.replayed) == [false, true])
        for token in [inFlight] + offline {
            #expect(
                try harness.backendCount(
                    "SELECT COUNT(*) FROM messages WHERE client_token = ?", token.rawValue)
                    == 1)
        }
        #expect(try await Self.page(harness, id).messages.map(\.text) == ["first", "second", "third"])
        #expect(harness.manager.pending.isEmpty)
        await harness.manager.stop()
    }

    @Test func aConfirmedMessage_staysShownAcrossARestart_untilAPageHoldsIt() async throws {
        // Given a message confirmed, and no page read since
        let harness = try MutationHarness()
        let id = try await Self.conversation(harness)
        let token = try await harness.manager.enqueue(.message(in: id, text: "kept"))
        await harness.manager.waitUntilIdle()

        // When the app restarts
        try await harness.restart()
        let shown = harness.manager.mergedConversation(id, page: nil)

        // Then the confirmation came back from the journal: the server's message, same row
        #expect(shown.messages.map(\.message.text) == ["kept"])
        #expect(shown.messages.map(\.status) == [.server])
        #expect(shown.messages.map(\.id) == ["local:\(token.rawValue)"])
        #expect(shown.messages.first?.message.id.rawValue.hasPrefix("dm") == true)
        await harness.manager.stop()
    }

    @Test func aRefusedMessage_staysAtTheBottomWithItsReason_andTheLaneGoesOn() async throws {
        // Given a conversation
        let harness = try MutationHarness()
        let id = try await Self.conversation(harness)

        // When ada sends an empty message, then a real one
        let tokens = try await harness.manager.enqueue([
            .message(in: id, text: "   "), .message(in: id, text: "sorry, this one"),
        ])
        await harness.manager.waitUntilIdle()
        let page = try await Self.page(harness, id)
        let merged = harness.manager.mergedConversation(page)

        // Then the real one is the server's, and the refused one stays below it, failed, saying why
        #expect(merged.messages.map(\.message.text) == ["sorry, this one", "   "])
        #expect(merged.messages.last?.status.token == tokens[0])
        let reason = try #require(merged.messages.last?.statusText)
        #expect(reason.contains("a message needs text, an attachment or a shared post"), "\(reason)")
        await harness.manager.stop()
    }

    @Test func aMessageSharingAPendingPost_waitsForIt_andSharesTheServersID() async throws {
        // Given a post and a message sharing it, made offline
        let harness = try MutationHarness()
        let id = try await Self.conversation(harness)
        harness.faults.setFaultProfile(.offline)
        let post = try await harness.manager.enqueue(.post(text: "look at this", attachments: []))
        let message = try await harness.manager.enqueue(
            .message(in: id, text: "", sharing: post.localMediaID))
        #expect(harness.manager.record(for: message)?.dependsOn == post)

        // When the network is back
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()

        // Then the message shares the post under its server id
        let serverID = try #require(harness.manager.serverID(of: post))
        let shown = try await Self.page(harness, id).messages
        #expect(shown.map(\.sharedPostID) == [serverID])
        #expect(shown.first?.sharedPost?.text == "look at this")
        await harness.manager.stop()
    }

    @Test func messages_haveNoPostKey_andTakeNoneOfThePostKeys() {
        // The help's and footer's post keys derive from the kinds: a message is not a change of a
        // post, so it adds none, and the post keys stay one per character.
        #expect(MutationKind.message.key == nil)
        let keys = MutationKind.all.compactMap(\.key?.character)
        #expect(Set(keys).count == keys.count, "\(keys)")
        #expect(Set(["l", "r", "s", "d"]).isSubset(of: keys))
        #expect(MutationKind.message.undo == nil)
    }

    @Test func anOldJournal_stillReads_andOldKindsKeepTheirBytes() async throws {
        // Given a journal written before messages: a like, a post, a follow and a reply, in the
        // bytes that build wrote (format 1, the kind's tag, its id or text, no author)
        let (_, database, directory) = try MutationJournalTests.idleManager()
        let old: [(token: String, lane: String, kind: String, payload: [UInt8])] = [
            ("old-like", "media:m7", "like", [1, 3, 2] + Array("m7".utf8) + [0]),
            ("old-post", "posts", "post", [1, 1, 2] + Array("hi".utf8) + [0, 0]),
            ("old-follow", "user:u3", "follow", [1, 7, 2] + Array("u3".utf8) + [0]),
            (
                "old-reply", "thread:m1", "reply",
                [1, 2, 2] + Array("m1".utf8) + [2] + Array("yo".utf8) + [0, 0]
            ),
        ]
        for row in old {
            try database.execute(
                """
                INSERT INTO mutation_journal (token, lane, kind, payload, state, created_at)
                VALUES (?, ?, ?, ?, 0, 0)
                """, row.token, row.lane, row.kind, row.payload)
        }
        try database.close()

        // When this build opens it, and journals the same changes anew
        let (reopened, reopenedDatabase, _) = try MutationJournalTests.idleManager(directory: directory)
        let fresh = try await reopened.enqueue([.like("m7"), .follow("u3")])

        // Then every old row reads as what it was, in its lane
        #expect(reopened.unreadableRows.isEmpty)
        #expect(
            reopened.pending.prefix(4).map(\.mutation) == [
                .like("m7"), .post(text: "hi", attachments: []), .follow("u3"),
                .reply(to: "m1", text: "yo", attachments: []),
            ])
        #expect(reopened.pending.prefix(4).map(\.lane.rawValue) == old.map(\.lane))
        // and the old kinds are written in exactly the old bytes
        let written = try fresh.map { token in
            try reopenedDatabase.queryFirst(
                "SELECT payload FROM mutation_journal WHERE token = ?", token.rawValue,
                map: { try $0.bytes(0) })
        }
        #expect(written == [old[0].payload, old[2].payload])
    }
}
