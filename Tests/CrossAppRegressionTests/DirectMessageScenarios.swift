import AppRuntime
import AppTesting
import Backend
import CommandLineKit
import Composition
import DirectMessages
import Features
import Foundation
import Mutations
import Sockets
import TerminalUI
import Testing
import Wire

/// Direct messages, for every app whose registry has them: a conversation between two apps'
/// accounts in both directions; messages typed offline, across a restart, sent once and in
/// order; a post shared in a message opening in the other app; the unsent text kept. And an app
/// without them shows no trace of them.
@Suite @MainActor struct DirectMessageScenarios {
    /// Another app with messages than `app` (the same app when it is the only one).
    static func partner(of app: ShippedApp) -> ShippedApp {
        ShippedApp.withDirect.first { $0.id != app.id } ?? app
    }

    /// The script that opens the inbox, finds `handle` with `/` and opens the conversation.
    static func openConversation(with handle: String, in app: ShippedApp) -> String {
        """
        wait
        key \(app.inboxKey)
        wait
        key /
        type \(handle)
        wait
        key enter
        wait

        """
    }

    /// The script that opens the inbox and its first conversation, and prints the frame.
    static func openNewestConversation(in app: ShippedApp) -> String {
        "wait\nkey \(app.inboxKey)\nwait\nkey enter\nwait\nframe\n"
    }

    /// The text lines of a conversation's frame, top to bottom: what is between the title's
    /// rule and the composer's, blank lines left out.
    static func conversation(_ frame: String) -> [String] {
        let rows = lines(frame)
        guard let composer = rows.indices.dropFirst(2).first(where: { rows[$0].hasPrefix("────") }) else {
            return []
        }
        return rows[2..<composer].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A conversation's unsent message belongs to the account that typed it: @grace's words are
    /// not in the message field @ada opens on the same device for the same conversation (where
    /// enter would send them as @ada), and they are @grace's again when she comes back.
    @Test(arguments: ShippedApp.withDirect)
    func anUnsentMessageOfGraces_isNotInAdasField_onTheSameDevice(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let words = "Unsent words of grace's in \(app.id)"
        func open(as handle: String, with other: String, typing: String = "") async -> HeadlessRun {
            await HeadlessHarness.run(
                app.definition,
                script: Self.openConversation(with: other, in: app)
                    + (typing.isEmpty ? "" : "type \(typing)\nwait\n")
                    + "frame\n",
                directories: directories, height: 30, extraArguments: ["--user", handle])
        }
        let grace = await open(as: "grace", with: "ada", typing: words)
        #expect(
            grace.status == 0 && grace.lastFrame.contains(words),
            "\(app.id): \(grace.errors)\n\(grace.lastFrame)")
        let ada = await open(as: "ada", with: "grace")
        #expect(ada.status == 0, "\(app.id): \(ada.errors)")
        #expect(
            !ada.lastFrame.contains("Unsent words"),
            "\(app.id): @ada's field holds @grace's words\n\(ada.lastFrame)")
        let back = await open(as: "grace", with: "ada")
        #expect(back.lastFrame.contains(words), "\(app.id): @grace's words are gone\n\(back.lastFrame)")
    }

    @Test(arguments: ShippedApp.withDirect)
    func aConversation_betweenTwoAppsAccounts_goesBothWays_andCountsWhatIsUnread(app: ShippedApp) async throws
    {
        let other = Self.partner(of: app)
        let directories = try TestDirectories.make()
        let adas = directories.sibling()

        // Given @grace in one app writes to @ada
        let grace = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app)
                + "type Are you at the market?\nkey enter\nwait\nframe\n",
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        #expect(grace.status == 0, "\(app.id): \(grace.errors)")
        let sent = Self.conversation(grace.lastFrame)
        #expect(
            lines(grace.lastFrame)[0].contains("Ada Abbott"), "the conversation's title: \(grace.lastFrame)")
        #expect(
            sent.suffix(2) == ["\(app.ownMark) · now", "Are you at the market?"],
            "\(app.id):\n\(grace.lastFrame)")

        // When @ada opens the other app: its inbox tab counts one unread, and the row says who and what
        let ada = await HeadlessHarness.run(
            other.definition,
            script: """
                wait
                frame
                key \(other.inboxKey)
                wait
                frame
                key enter
                wait
                type By the bread stall.
                key enter
                wait
                frame
                key esc
                wait
                frame

                """,
            directories: adas, height: 30, extraArguments: ["--user", "ada"])
        #expect(ada.status == 0, "\(other.id): \(ada.errors)")
        try #require(ada.frames.count == 4)
        let tabBar = lines(ada.frames[0])[29]
        #expect(
            tabBar.contains("✉ ") && tabBar.contains("●1"), "\(other.id)'s inbox tab counts it: \(tabBar)")
        let inbox = lines(ada.frames[1])
        #expect(inbox[2].hasPrefix("▌● Grace Baker: \"Are you at the market?\" · now"), "\(inbox[2])")
        #expect(inbox[2].hasSuffix(" 1"), "the unread count: \(inbox[2])")
        #expect(inbox[3].trimmingCharacters(in: .whitespaces).isEmpty, "one conversation")

        // Then her answer is under grace's message, and opening it read it: no badge, no mark
        #expect(
            Self.conversation(ada.frames[2]).suffix(4)
                == [
                    "Grace Baker · now", "Are you at the market?", "\(other.ownMark) · now",
                    "By the bread stall.",
                ],
            "\(ada.frames[2])")
        #expect(!lines(ada.frames[3])[29].contains("●"), "read: \(lines(ada.frames[3])[29])")
        #expect(
            lines(ada.frames[3])[2].hasPrefix("▌  Grace Baker: \(other.ownMark): \"By the bread stall.\""))

        // And grace's app shows the answer, unread until she opens it, then both in order, her
        // message marked seen (ada read it)
        let back = await HeadlessHarness.run(
            app.definition,
            script: "wait\nkey \(app.inboxKey)\nwait\nframe\nkey enter\nwait\nframe\n",
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        try #require(back.frames.count == 2)
        #expect(
            lines(back.frames[0])[2].hasPrefix("▌● Ada Abbott: \"By the bread stall.\""), "\(back.frames[0])")
        #expect(
            Self.conversation(back.frames[1]).suffix(5)
                == [
                    "\(app.ownMark) · now", "Are you at the market?", "seen", "Ada Abbott · now",
                    "By the bread stall.",
                ],
            "\(back.frames[1])")
    }

    /// An inbox read empty is known to be empty: after a restart offline it says there are no
    /// conversations (with why it could not ask again), not that it is loading or that nothing
    /// was kept.
    @Test(arguments: ShippedApp.withDirect)
    func anEmptyInboxReadOnce_isStillEmpty_afterARestartOffline(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let run = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key \(app.inboxKey)
                wait
                frame
                network offline
                restart
                key \(app.inboxKey)
                frame
                wait
                frame

                """,
            directories: directories, extraArguments: ["--user", "ada"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 3)
        let title = app.titlePrefix + " · " + (app.registry?[.direct]?.inboxTitle ?? "")
        for frame in run.frames {
            let rows = lines(frame)
            #expect(rows[0].hasPrefix(title), "\(frame)")
            #expect(
                rows[2].isEmpty && rows[3] == "  No conversations yet. Press / to message someone.",
                "\(frame)")
            #expect(!frame.contains("Loading") && !frame.contains("Nothing saved"), "\(frame)")
        }
        #expect(DeleteScenarios.status(run.frames[2]).contains("load your conversations"), "\(run.frames[2])")
    }

    @Test(arguments: ShippedApp.withDirect)
    func messagesTypedOffline_surviveARestart_andArriveOnceInOrder(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let texts = ["first, offline", "second, offline", "third, after the restart"]

        // Given @grace in a conversation with @ada, offline: two messages, a restart, a third
        let run = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + """
                network offline
                type \(texts[0])
                key enter
                type \(texts[1])
                key enter
                wait
                frame
                restart
                wait
                key \(app.inboxKey)
                wait
                key enter
                wait
                type \(texts[2])
                key enter
                wait
                frame
                network perfect
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 3)

        // Then offline they show at once, in the order typed, each "sending…"
        #expect(
            Self.conversation(run.frames[0]).suffix(5)
                == [app.ownMark, texts[0], "sending…", texts[1], "sending…"], "\(run.frames[0])")
        // And after the restart they are still there, with the third under them
        #expect(
            Self.conversation(run.frames[1]).suffix(7)
                == [app.ownMark, texts[0], "sending…", texts[1], "sending…", texts[2], "sending…"],
            "\(run.frames[1])")
        // And back online all three are sent, in order, none left going
        #expect(
            Self.conversation(run.frames[2]).suffix(4) == [
                "\(app.ownMark) · now", texts[0], texts[1], texts[2],
            ],
            "\(run.frames[2])")

        // And @ada sees each exactly once, in the order typed
        let ada = await HeadlessHarness.run(
            Self.partner(of: app).definition,
            script: Self.openNewestConversation(in: Self.partner(of: app)),
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "ada"])
        let seen = Self.conversation(ada.lastFrame)
        for text in texts {
            #expect(seen.filter { $0 == text }.count == 1, "\(text) once:\n\(ada.lastFrame)")
        }
        #expect(seen.suffix(4) == ["Grace Baker · now"] + texts, "\(ada.lastFrame)")
    }

    @Test(arguments: ShippedApp.withDirect)
    func manyMessagesTypedAtOnce_areJournaledInTheOrderTyped(app: ShippedApp) async throws {
        // Given a conversation open, offline, and 40 messages sent one after another with no pause
        let directories = try TestDirectories.make()
        let session = try await Self.graceWritingToAda(in: app, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        session.shell?.context.faultControl?.setFaultProfile(.offline)
        let texts = (1...40).map { "burst \($0)" }
        for text in texts {
            for character in text { _ = shell.handle(.character(character)) }
            _ = shell.handle(.enter)
        }
        await session.settle()

        // Then the journal holds them in the order typed (the order they are sent in)
        let pending = try #require(session.shell?.context.manager.pending)
        #expect(pending.map(\.mutation.text) == texts)
    }

    @Test(arguments: ShippedApp.withDirect)
    func messagesOverALossyNetwork_keepTheOrderTyped(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let texts = (1...6).map { "lossy message \($0)" }
        let run = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + "network lossy\n"
                + texts.map { "type \($0)\nkey enter\n" }.joined() + "wait\nnetwork perfect\nwait\nframe\n",
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        let shown = Self.conversation(run.lastFrame)
        #expect(shown.suffix(7) == ["\(app.ownMark) · now"] + texts, "\(run.lastFrame)")
        #expect(!run.lastFrame.contains("sending…") && !run.lastFrame.contains("✕"), "\(run.lastFrame)")

        let ada = await HeadlessHarness.run(
            Self.partner(of: app).definition,
            script: Self.openNewestConversation(in: Self.partner(of: app)),
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "ada"])
        #expect(
            Self.conversation(ada.lastFrame).suffix(7) == ["Grace Baker · now"] + texts, "\(ada.lastFrame)")
    }

    @Test(arguments: ShippedApp.withDirect.filter { $0.hasTab(.home) })
    func aPostSharedInAMessage_opensInTheOtherApp(app: ShippedApp) async throws {
        let other = Self.partner(of: app)
        let directories = try TestDirectories.make()

        // Given @grace has a conversation with @ada, and sends her the first post of Home with `m`
        let grace = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + """
                type look at this
                key enter
                wait
                key esc
                key 1
                wait
                frame
                key m
                wait
                frame
                key enter
                wait
                network offline
                key \(app.inboxKey)
                wait
                frame
                key enter
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        #expect(grace.status == 0, "\(app.id): \(grace.errors)")
        try #require(grace.frames.count == 4)
        let home = feedEntries(grace.frames[0])
        // The author is the handle before the time on the post's header (a repost's first line
        // names who reposted it)
        let header = try #require(
            home.first?.first { $0.contains(" · ") && $0.contains("@") }, "\(grace.frames[0])")
        let author = try #require(
            header.split(separator: " ").first { $0.hasPrefix("@") }?.dropFirst(), "\(header)")
        #expect(lines(grace.frames[1])[0].contains("Send to…"), "\(grace.frames[1])")
        #expect(lines(grace.frames[1])[2].contains("Ada Abbott"), "\(grace.frames[1])")
        // The inbox, offline (its list as last read, before the share), names the share as the
        // last message: it was sent since
        #expect(
            lines(grace.frames[2])[2].hasPrefix("▌  Ada Abbott: \(app.ownMark): shared a post · now"),
            "\(grace.frames[2])")
        let card = try #require(Self.conversation(grace.frames[3]).last, "\(grace.frames[3])")
        #expect(card.hasPrefix("┃ ✉ @\(author):"), "the post as a card: \(grace.frames[3])")

        // When @ada opens it in the other app and chooses the card: the post opens
        let ada = await HeadlessHarness.run(
            other.definition,
            script:
                Self.openNewestConversation(in: other) + "key tab\nkey enter\nwait\nframe\n",
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "ada"])
        try #require(ada.frames.count == 2)
        #expect(Self.conversation(ada.frames[0]).last == card, "the same card: \(ada.frames[0])")
        #expect(lines(ada.frames[1])[0].contains(other.threadTitle), "\(ada.frames[1])")
        #expect(lines(ada.frames[1])[2].contains("@\(author)"), "the shared post opens: \(ada.frames[1])")
    }

    @Test(arguments: ShippedApp.withDirect)
    func aPhotoFromDisk_goesInAMessage_andTheOtherAppDrawsIt(app: ShippedApp) async throws {
        let other = Self.partner(of: app)
        let directories = try TestDirectories.make()

        // Given @ada attaches a photo from disk and sends it with a line of text
        let ada = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "grace", in: app) + """
                attach \(try TestPhotos.sample())
                frame
                type the harbor this morning
                key enter
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--user", "ada"])
        #expect(ada.status == 0, "\(app.id): \(ada.errors)")
        try #require(ada.frames.count == 2)
        // Then the photo is named above the composer before it goes, and drawn once sent
        let picked = lines(ada.frames[0])
        let composer = try #require(picked.firstIndex { $0.hasPrefix("› ") }, "\(ada.frames[0])")
        #expect(picked[composer - 1].hasPrefix("  ▣ "), "the photo going with it: \(ada.frames[0])")
        let sent = Self.conversation(ada.frames[1])
        #expect(sent.last == "the harbor this morning" || sent.contains("the harbor this morning"))
        let art = sent.drop { $0 != "the harbor this morning" }.dropFirst()
        #expect(art.count >= 2 && art.allSatisfy { $0.contains("▀") || $0.contains("▄") }, "\(ada.frames[1])")

        // And @grace's app shows the text and the photo's art, from the server's copy
        let grace = await HeadlessHarness.run(
            other.definition,
            script: "wait\nkey \(other.inboxKey)\nwait\nframe\nkey enter\nwait\nframe\n",
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "grace"])
        try #require(grace.frames.count == 2)
        #expect(
            lines(grace.frames[0])[2].contains("Ada Abbott: \"the harbor this morning\""),
            "\(grace.frames[0])")
        let seen = Self.conversation(grace.frames[1])
        let seenArt = seen.drop { $0 != "the harbor this morning" }.dropFirst()
        #expect(seenArt.count == art.count, "the same cells: \(grace.frames[1])")
    }

    @Test(arguments: ShippedApp.withDirect.filter { $0.hasTab(.activity) })
    func aMessagesActivityRow_opensItsConversation(app: ShippedApp) async throws {
        // Given @grace wrote to @ada
        let directories = try TestDirectories.make()
        let grace = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + "type Lunch?\nkey enter\nwait\n",
            directories: directories, height: 30, extraArguments: ["--user", "grace"])
        #expect(grace.status == 0, "\(grace.errors)")

        // When @ada opens Activity and presses enter on the message's row
        let ada = await HeadlessHarness.run(
            app.definition,
            script: "wait\nkey \(app.tabKey(.activity))\nwait\nframe\nkey enter\nwait\nframe\n",
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "ada"])
        try #require(ada.frames.count == 2)
        let row = lines(ada.frames[0])[2]
        #expect(row.hasPrefix("▌✉ Grace Baker (@grace) sent you a message: \"Lunch?\""), "\(ada.frames[0])")

        // Then the conversation opens, its message at the bottom
        #expect(lines(ada.frames[1])[0].contains("Grace Baker"), "\(ada.frames[1])")
        #expect(
            Self.conversation(ada.frames[1]).suffix(2) == ["Grace Baker · now", "Lunch?"], "\(ada.frames[1])")
    }

    /// Opens the conversation with `handle` in a running session (the inbox, `/`, the handle).
    static func openConversation(with handle: String, in app: ShippedApp, session: AppSession) async {
        for key in [Key.character(app.inboxKey), .character("/")] + handle.map(Key.character) + [.enter] {
            _ = session.shell?.handle(key)
            await session.settle()
        }
    }

    /// @grace's app on `directories` (30 rows), the conversation with @ada open. The caller
    /// stops the session.
    static func graceWritingToAda(in app: ShippedApp, directories: TestDirectories) async throws -> AppSession
    {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30, extraArguments: ["--user", "grace"])
        await openConversation(with: "ada", in: app, session: session)
        return session
    }

    /// Types `text` and presses enter.
    static func send(_ text: String, in session: AppSession) async {
        for key in text.map(Key.character) + [.enter] {
            _ = session.shell?.handle(key)
            await session.settle()
        }
    }

    /// `r` on a message the server refused sends it again, once, where it was; `x` on another
    /// deletes it. Each key does what the row under the message says, to that message only.
    @Test(arguments: ShippedApp.withDirect)
    func aRefusedMessage_isSentAgainByR_andAnotherIsDeletedByX(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let session = try await Self.graceWritingToAda(in: app, directories: directories)
        defer { Task { await session.stop() } }
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)

        // Given two messages the server refused, each marked under it with the keys that act on it
        for words in ["Refused first", "Refused second"] {
            transport.injectFaults([.serverError(status: 403)])
            await Self.send(words, in: session)
        }
        let refused = Self.conversation(HeadlessHarness.frame(of: session)).suffix(4)
        #expect(refused.count == 4, "\(app.id): \(refused)")
        for (index, words) in zip(refused.indices, ["Refused first", nil, "Refused second", nil]) {
            if let words {
                #expect(refused[index] == words, "\(app.id): \(refused)")
            } else {
                // The keys before the reason, which the screen's edge may cut
                #expect(refused[index].hasPrefix("✕ not sent (r retry, x delete): "), "\(refused[index])")
            }
        }

        // When the first is chosen (tab chooses the newest, ↑ the one above) and sent again with
        // r, then the second chosen (↓) and deleted with x
        for key in [Key.tab, .up, .character("r"), .down, .character("x")] {
            _ = session.shell?.handle(key)
            await session.settle()
        }

        // Then the first is sent, in its place, and the second is gone (the choice on the first)
        let after = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(after.suffix(2) == ["\(app.ownMark) · now", "▌ Refused first"], "\(app.id): \(after)")
        #expect(
            !after.contains { $0.contains("Refused second") || $0.contains("not sent") },
            "\(app.id): \(after)")

        // And @ada's app has the first once and never the second
        let partner = Self.partner(of: app)
        let ada = await HeadlessHarness.run(
            partner.definition, script: Self.openNewestConversation(in: partner),
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "ada"])
        let received = Self.conversation(ada.lastFrame)
        #expect(received.filter { $0 == "Refused first" }.count == 1, "\(partner.id): \(ada.lastFrame)")
        #expect(!ada.lastFrame.contains("Refused second"), "\(partner.id): \(ada.lastFrame)")
    }

    /// Lines pasted into the message field are one message, its lines kept: what the person
    /// pasted is what is sent.
    @Test(arguments: ShippedApp.withDirect)
    func linesPastedIntoTheField_goAsOneMessage_theirLinesKept(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let session = try await Self.graceWritingToAda(in: app, directories: directories)
        defer { Task { await session.stop() } }

        _ = session.shell?.handle(.paste("Pasted first line\nand its second"))
        await session.settle()
        // The field shows both lines right under the composer's rule, the keys right under them
        let frame = HeadlessHarness.frame(of: session)
        let rows = lines(frame)
        let rule = try #require(rows.indices.last { rows[$0].hasPrefix("────") }, "\(frame)")
        #expect(
            Array(rows[(rule + 1)...].prefix(2)) == ["› Pasted first line", "  and its second"]
                && rows[rule + 3].hasPrefix("type a message"), "\(app.id):\n\(frame)")
        await Self.send("", in: session)

        let sent = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(
            sent.suffix(3) == ["\(app.ownMark) · now", "Pasted first line", "and its second"],
            "\(app.id): \(sent)")
    }

    /// A run of one sender's messages shares one header while each follows the one before within
    /// five minutes (exactly five still does); a longer pause starts a new header.
    @Test(arguments: ShippedApp.withDirect)
    func messagesFiveMinutesApart_shareAHeader_andOneSecondMoreStartsANewOne(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + """
                type one
                key enter
                wait
                advance 300
                type two
                key enter
                wait
                advance 301
                type three
                key enter
                wait
                frame

                """,
            directories: try TestDirectories.make(), height: 30, extraArguments: ["--user", "grace"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        let rows = Array(Self.conversation(run.lastFrame).suffix(5))
        try #require(rows.count == 5, "\(app.id): \(run.lastFrame)")
        #expect(rows[0].hasPrefix(app.ownMark + " · ") && rows[1] == "one" && rows[2] == "two", "\(rows)")
        #expect(rows[3] == "\(app.ownMark) · now" && rows[4] == "three", "\(rows)")
    }

    /// A conversation longer than a page, walked up to its first message: the older pages come
    /// in above, every message once and in the order sent, the choice on the first; and walked
    /// back down to the newest.
    @Test(arguments: ShippedApp.withDirect)
    func aLongConversation_walkedToItsFirstMessage_showsEveryMessageOnceInOrder(app: ShippedApp) async throws
    {
        // Given @grace sent @ada 110 messages (more than two of the server's pages of 50)
        let directories = try TestDirectories.make()
        let texts = (1...110).map { "note \($0)" }
        do {
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: directories, extraArguments: ["--user", "grace"])
            await Self.openConversation(with: "ada", in: app, session: session)
            for text in texts {
                for key in text.map(Key.character) + [.enter] { _ = session.shell?.handle(key) }
            }
            await session.settle()
            await session.stop()
        }

        // When @ada opens it in the other app and walks up past the top of each page
        let partner = Self.partner(of: app)
        let (session, _) = try await HeadlessHarness.session(
            partner.definition, directories: directories.sibling(), extraArguments: ["--user", "ada"])
        defer { Task { await session.stop() } }
        for key in [Key.character(partner.inboxKey), .enter, .tab] {
            _ = session.shell?.handle(key)
            await session.settle()
        }
        let screen = try #require(session.shell?.currentScreen as? ConversationScreen)
        #expect(screen.messages.count == 50, "\(partner.id): the newest page first")
        for _ in 0..<(texts.count + 10) {
            _ = session.shell?.handle(.up)
            await session.settle()
        }

        // Then every message is there once, in order, and the first is on screen, chosen
        #expect(screen.messages.map(\.message.text) == texts, "\(partner.id)")
        let top = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(top.prefix(3) == ["Grace Baker · now", "▌ note 1", "note 2"], "\(partner.id): \(top)")

        // And walking down again ends at the newest, chosen, with the one before above it
        for _ in 0..<(texts.count - 1) {
            _ = session.shell?.handle(.down)
            await session.settle()
        }
        let bottom = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(bottom.suffix(2) == ["note 109", "▌ note 110"], "\(partner.id): \(bottom)")

        // And the one above the newest, chosen, stays chosen when the conversation shows again
        // (back from its sender's profile) and reads what is new
        for key in [Key.up, .enter, .escape] {
            _ = session.shell?.handle(key)
            await session.settle()
        }
        let again = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(again.suffix(2) == ["▌ note 109", "note 110"], "\(partner.id): \(again)")
    }

    /// A conversation shown again (after a screen opened from it closes) reads what came in
    /// meanwhile, every time: the second return shows the second answer too.
    @Test(arguments: ShippedApp.withDirect)
    func aConversationShownAgain_readsWhatCameMeanwhile_eachTime(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let partner = Self.partner(of: app)
        let session = try await Self.graceWritingToAda(in: app, directories: directories)
        defer { Task { await session.stop() } }
        await Self.send("Are you there?", in: session)
        _ = session.shell?.handle(.tab)
        await session.settle()
        // (One data directory for @ada: a headless run's change tokens come from its seed and its
        // journal's sequence, so a second fresh directory would send the same token again.)
        let adas = directories.sibling()

        for answer in ["first answer", "second answer"] {
            // Given @ada answers in the other app while @grace's conversation is open
            let ada = await HeadlessHarness.run(
                partner.definition,
                script: Self.openNewestConversation(in: partner) + "type \(answer)\nkey enter\nwait\n",
                directories: adas, height: 30, extraArguments: ["--user", "ada"])
            #expect(ada.status == 0, "\(partner.id): \(ada.errors)")

            // When @grace opens the chosen message's sender and comes back
            for key in [Key.enter, .escape] {
                _ = session.shell?.handle(key)
                await session.settle()
            }
        }

        // Then both answers are under her message, in order, once each
        let rows = Self.conversation(HeadlessHarness.frame(of: session))
        #expect(rows.filter { $0.hasSuffix("answer") }.count == 2, "\(app.id): \(rows)")
        #expect(
            Array(rows.suffix(3)).map { $0.replacingOccurrences(of: "▌ ", with: "") }
                == ["Ada Abbott · now", "first answer", "second answer"], "\(app.id): \(rows)")
    }

    /// A conversation read is read on this device from then on: after a restart offline, the
    /// inbox (what the device kept of it) shows it read, with no badge on the tab.
    @Test(arguments: ShippedApp.withDirect)
    func aConversationRead_staysRead_afterARestartOffline(app: ShippedApp) async throws {
        // Given @grace wrote to @ada from another app
        let directories = try TestDirectories.make()
        let partner = Self.partner(of: app)
        let grace = await HeadlessHarness.run(
            partner.definition,
            script: Self.openConversation(with: "ada", in: partner) + "type Lunch?\nkey enter\nwait\n",
            directories: directories.sibling(), height: 30, extraArguments: ["--user", "grace"])
        #expect(grace.status == 0, "\(partner.id): \(grace.errors)")

        // When @ada opens it, goes back to the inbox offline (no new list from the server), and
        // starts the app again
        let ada = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key \(app.inboxKey)
                wait
                frame
                key enter
                wait
                network offline
                key esc
                wait
                frame
                restart
                key \(app.inboxKey)
                wait
                frame

                """,
            directories: directories, height: 30, extraArguments: ["--user", "ada"])
        #expect(ada.status == 0, "\(app.id): \(ada.errors)")
        try #require(ada.frames.count == 3)

        // Then it was unread, and is read before and after the restart: no mark, no badge
        #expect(lines(ada.frames[0])[2].hasPrefix("▌● Grace Baker: \"Lunch?\""), "\(ada.frames[0])")
        #expect(lines(ada.frames[0])[29].contains("●1"), "\(lines(ada.frames[0])[29])")
        for frame in ada.frames.dropFirst() {
            let rows = lines(frame)
            #expect(rows[2].hasPrefix("▌  Grace Baker: \"Lunch?\""), "\(app.id):\n\(frame)")
            #expect(rows[3].trimmingCharacters(in: .whitespaces).isEmpty, "one conversation:\n\(frame)")
            #expect(!rows[29].contains("●"), "\(app.id): \(rows[29])")
        }
    }

    /// Offline after a restart the server cannot say who the viewer is: the account's own
    /// messages are still drawn as its own, and its conversation named by the other member.
    @Test(arguments: ShippedApp.withDirect)
    func ownMessages_areStillOwn_afterARestartOffline(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + """
                type Hello from grace
                key enter
                wait
                network offline
                restart
                key \(app.inboxKey)
                wait
                frame
                key enter
                wait
                frame

                """,
            directories: try TestDirectories.make(), height: 30, extraArguments: ["--user", "grace"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 2)
        let row = String(lines(run.frames[0])[2])
        #expect(
            row.hasPrefix("▌  Ada Abbott: \(app.ownMark): \"Hello from grace\""),
            "\(app.id):\n\(run.frames[0])")
        #expect(
            Self.conversation(run.frames[1]).suffix(2) == ["\(app.ownMark) · now", "Hello from grace"],
            "\(app.id):\n\(run.frames[1])")
    }

    /// Runs the app's executable headless with `script` (a process of its own, which exits at
    /// the end): its status and the frames it printed, read as an in-process run's are.
    static func runExecutable(
        _ app: ShippedApp, script: String, directories: TestDirectories, user: String
    ) throws -> HeadlessRun {
        let scriptFile = directories.data + "-\(UUID().uuidString.prefix(8)).script"
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptFile))
        defer { try? FileManager.default.removeItem(atPath: scriptFile) }
        // Spawned with posix_spawn: Foundation's `Process.run()` on Linux (Swift 6.3.1) can crash
        // the whole test process (swift-corelibs-foundation#5472), and it did once here.
        let run = try Subprocess.run(
            AppInATerminal.executable(app.id),
            [
                "--headless", "--script", scriptFile, "--data-dir", directories.data, "--backend-dir",
                directories.backend, "--user", user, "--height", "30",
            ])
        return HeadlessRun(
            status: run.status, output: String(decoding: run.output, as: UTF8.self), errors: run.errorText)
    }

    /// Messages sent just before the app exits leave no draft behind: the next launch's message
    /// field is empty, not a piece of a message already sent. Every draft write asked for is on
    /// disk before the process ends.
    @Test(arguments: ShippedApp.withDirect)
    func messagesSentJustBeforeTheAppExits_leaveTheFieldEmptyAtTheNextLaunch(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let typing = (1...20).map { "type quick note \($0)\nkey enter\n" }.joined()
        let sent = try Self.runExecutable(
            app, script: Self.openConversation(with: "ada", in: app) + typing, directories: directories,
            user: "grace")
        #expect(sent.status == 0, "\(app.id)")

        let next = try Self.runExecutable(
            app, script: Self.openNewestConversation(in: app), directories: directories, user: "grace")
        let rows = lines(next.lastFrame)
        let rule = try #require(rows.indices.last { rows[$0].hasPrefix("────") }, "\(next.lastFrame)")
        #expect(
            rows[rule - 1].hasSuffix("quick note 20"), "\(app.id): the last message sent:\n\(next.lastFrame)")
        #expect(rows[rule + 1] == "› Message…", "\(app.id): the field is empty:\n\(next.lastFrame)")
    }

    @Test(arguments: ShippedApp.withDirect)
    func theUnsentText_isKeptAcrossARestart(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition,
            script: Self.openConversation(with: "ada", in: app) + """
                type half a thought
                restart
                wait
                key \(app.inboxKey)
                wait
                key enter
                wait
                frame

                """,
            directories: try TestDirectories.make(), height: 30, extraArguments: ["--user", "grace"])
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        let rows = lines(run.lastFrame)
        let composer = try #require(rows.firstIndex { $0.hasPrefix("› ") }, "\(run.lastFrame)")
        #expect(rows[composer] == "› half a thought", "\(run.lastFrame)")
    }

    @Test(arguments: ShippedApp.withoutDirect)
    func anAppWithoutMessages_showsNoTraceOfThem(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey ?\nframe\nkey ?\nkey m\nframe\n",
            directories: try TestDirectories.make(), height: 40)
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        try #require(run.frames.count == 3)
        #expect(!lines(run.frames[0])[39].contains("✉"), "no inbox tab: \(lines(run.frames[0])[39])")
        #expect(!run.frames[1].contains("message"), "the help offers no messages:\n\(run.frames[1])")
        #expect(lines(run.frames[2])[38] == "m does nothing here; ? for help")
    }
}
