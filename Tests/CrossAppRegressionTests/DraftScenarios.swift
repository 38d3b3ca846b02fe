import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import Mutations
import Sockets
import Storage
import TerminalUI
import Testing

/// A draft is never lost: esc leaves the composer and keeps it, it survives other tabs and a
/// restart, and only an explicit, confirmed discard (or posting) removes it. The composer always
/// opens with the text focused.
@Suite @MainActor struct DraftScenarios {
    /// A draft kept before drafts were per account (`draft.json`) is not lost: it is the draft of
    /// the account signed in when the app next starts, in that account's file.
    @Test(arguments: ShippedApp.withComposer)
    func aDraftKeptBeforeDraftsWerePerAccount_isTheNextAccountsDraft(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        try FileManager.default.createDirectory(atPath: directories.data, withIntermediateDirectories: true)
        let legacy = DraftStore(path: directories.data + "/draft.json")
        legacy.save(DraftStore.Saved(text: "Written by an older build"))
        legacy.flush()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        session.shell?.openTab(.compose)
        let composer = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(composer.text == "Written by an older build", "\(app.id)")
        #expect(!FileManager.default.fileExists(atPath: directories.data + "/draft.json"))
        #expect(
            FileManager.default.fileExists(
                atPath: directories.data + "/drafts/" + DraftStore.fileName(BackendSeed.firstHandle)))
    }

    @Test(arguments: ShippedApp.withComposer)
    func aDraft_survivesEscOtherTabsAndARestart_untilDiscardedWithAConfirm(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let words = "Half a thought about the harbor"
        func composer() throws -> ComposerScreen {
            session.shell?.openTab(.compose)
            return try #require(session.shell?.currentScreen as? ComposerScreen)
        }
        func type(_ text: String) {
            for character in text { _ = session.shell?.handle(.character(character)) }
        }

        _ = try composer()
        type(words)
        _ = session.shell?.handle(.escape)
        #expect(session.shell?.currentScreen is ComposerScreen == false, "\(app.id): esc leaves the composer")
        #expect(HeadlessHarness.frame(of: session).contains("draft kept"), "and says the draft is kept")
        #expect(try composer().text == words, "\(app.id): back in the composer, the draft is there")

        session.shell?.openTab(.home)
        try await session.restart()
        #expect(try composer().text == words, "\(app.id): a restart keeps the draft")

        _ = session.shell?.handle(.control("d"))
        #expect(try composer().text == words, "one ctrl-d only asks")
        #expect(HeadlessHarness.frame(of: session).contains("ctrl-d again"), "and says how to confirm")
        _ = session.shell?.handle(.control("d"))
        #expect(try composer().text.isEmpty, "\(app.id): the confirmed discard empties it")
        try await session.restart()
        #expect(try composer().text.isEmpty, "and it stays discarded after a restart")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withComposer)
    func theComposer_opensWithTheTextFocused_evenIfThePickerHadIt(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        session.shell?.openTab(.compose)
        let composer = try #require(session.shell?.currentScreen as? ComposerScreen)
        try composer.attach(path: try TestPhotos.sample())
        _ = session.shell?.handle(.tab)
        #expect(!composer.capturesText, "\(app.id): tab gave the photos the focus")
        _ = session.shell?.handle(.escape)
        session.shell?.openTab(.compose)
        for character in "caption" { _ = session.shell?.handle(.character(character)) }
        #expect(composer.text == "caption", "\(app.id): typing goes to the text")
    }

    /// A post the device cannot save (a full disk) is not lost: the composer keeps the text and
    /// the draft, says so and keeps saying it, and enter posts it once the disk takes writes again.
    @Test(arguments: ShippedApp.withComposer)
    func aPostTheJournalCannotSave_keepsTheDraft_andSaysSo_untilItIsPosted(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let words = "Written on a full disk"
        session.shell?.openTab(.compose)
        let composer = try #require(session.shell?.currentScreen as? ComposerScreen)
        for character in words { _ = session.shell?.handle(.character(character)) }
        // (a photo too: every app's composer takes one for a new post, and some require it)
        try composer.attach(path: try TestPhotos.sample())

        // Given a journal that refuses new rows, as a full disk does
        let database = try Database(path: directories.data + "/app.sqlite")
        try database.execute(
            """
            CREATE TRIGGER full_disk BEFORE INSERT ON mutation_journal
            BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
            """)

        // When the person posts
        _ = session.shell?.handle(.enter)
        await session.settle()

        // Then nothing is cleared: the composer still holds the text, and says why it did not post
        #expect(session.shell?.currentScreen === composer, "\(app.id): the composer stays open")
        #expect(composer.text == words, "\(app.id): the text is kept")
        let frame = HeadlessHarness.frame(of: session)
        #expect(frame.contains("not posted"), "\(app.id): the composer says it did not post:\n\(frame)")
        // and keeps saying it after another key
        _ = session.shell?.handle(.character(" "))
        _ = session.shell?.handle(.backspace)
        await session.settle()
        #expect(
            HeadlessHarness.frame(of: session).contains("not posted"), "\(app.id): still said after a key")
        // and Sync does not claim everything is sent
        session.shell?.openTab(.mutations)
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)
        #expect(!sync.contains("everything is sent"), "\(app.id): Sync names the unsaved post:\n\(sync)")
        #expect(sync.contains("not saved"), "\(app.id): Sync says a post was not saved:\n\(sync)")

        // and the draft survives a restart
        try await session.restart()
        session.shell?.openTab(.compose)
        let reopened = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(reopened.text == words, "\(app.id): a restart keeps the unsaved post's draft")

        // When the disk takes writes again and the person posts
        try database.execute("DROP TRIGGER full_disk")
        _ = session.shell?.handle(.enter)
        await session.settle()

        // Then it is posted once, the draft is gone, and a restart does not bring it back (the
        // send is the mutation manager's, off the UI: on a loaded machine it may land after the
        // first settle, so the server is asked again for a while before the count is judged)
        func postedCount() throws -> Int? {
            let server = try directories.openBackend()
            defer { server.close() }
            return try server.database.query(
                "SELECT count(*) FROM posts WHERE instr(CAST(json AS TEXT), ?) > 0", words
            ).first?.int(0)
        }
        var posted = try postedCount()
        let deadline = ContinuousClock.now + .seconds(15)
        while posted == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            await session.settle()
            posted = try postedCount()
        }
        let manager = session.shell?.context.manager
        #expect(
            posted == 1,
            """
            \(app.id): the server has the post once; waiting: \(manager?.pending.map { "\($0.state)" } ?? []), \
            failed: \(manager?.failed.map { "\($0.state)" } ?? [])
            \(HeadlessHarness.frame(of: session))
            """)
        session.shell?.openTab(.compose)
        let emptied = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(emptied.text.isEmpty, "\(app.id): posting empties the composer")
        session.shell?.openTab(.home)
        try await session.restart()
        session.shell?.openTab(.compose)
        let afterRestart = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(afterRestart.text.isEmpty, "\(app.id): the posted text does not come back as a draft")
        await session.stop()
    }

    /// A session stopped (a restart in the same process: a headless script's `restart`, a test)
    /// never sweeps the photo copies of the session after it. A late report from the stopped
    /// session's manager once did: it saw no change naming a copy the next session had just made
    /// for a post, and deleted it, so the post failed with "the photo file cannot be read".
    @Test(arguments: ShippedApp.all)
    func aStoppedSession_neverSweepsTheNextSessionsPhotoCopies(app: ShippedApp) async throws {
        // Given a session that stopped
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        // (its context kept alive a while, as a task still running for it does on a loaded machine)
        let stoppedContext = try #require(session.shell?.context)
        let stoppedManager = stoppedContext.manager
        let viewer = stoppedManager.viewer
        await session.stop()

        // and a copy the next session made for a post it is about to journal
        let uploads = directories.data + "/uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let copy = uploads + "/made-by-the-next-session.jpg"
        #expect(FileManager.default.createFile(atPath: copy, contents: Data([0xFF, 0xD8, 0xFF])))

        // When the stopped session's manager still reports a change
        stoppedManager.setViewer(viewer)
        for _ in 0..<50 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(50))
        for _ in 0..<50 { await Task.yield() }

        // Then the copy is still there
        #expect(FileManager.default.fileExists(atPath: copy), "\(app.id): the stopped session deleted it")
        withExtendedLifetime(stoppedContext) {}
    }

    /// A kill between the post's journal commit and the draft file's removal (the file is still
    /// there at the next launch) does not bring the posted text back as a draft.
    @Test(arguments: ShippedApp.withComposer)
    func aDraftFileLeftBehindByACrashAfterPosting_doesNotComeBack(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let words = "Posted just before the kill"
        session.shell?.openTab(.compose)
        let composer = try #require(session.shell?.currentScreen as? ComposerScreen)
        for character in words { _ = session.shell?.handle(.character(character)) }
        try composer.attach(path: try TestPhotos.sample())
        // Given the draft as it is on disk just before posting
        session.shell?.context.drafts?.flush()
        let draftFile = directories.data + "/drafts/" + DraftStore.fileName(BackendSeed.firstHandle)
        let kept = try #require(FileManager.default.contents(atPath: draftFile), "the draft is on disk")

        // When the post is journaled, and the app dies before the draft file is gone (put back
        // while the app is stopped)
        _ = session.shell?.handle(.enter)
        await session.settle()
        try await session.restart(whileStopped: {
            _ = FileManager.default.createFile(atPath: draftFile, contents: kept)
        })

        // Then the composer opens empty, and the stale file is gone
        session.shell?.openTab(.compose)
        let reopened = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(reopened.text.isEmpty, "\(app.id): the posted text came back as a draft")
        #expect(
            !FileManager.default.fileExists(atPath: draftFile), "\(app.id): the used-up draft file is removed"
        )
        // and a new draft typed now is kept as usual
        for character in "Next one" { _ = session.shell?.handle(.character(character)) }
        _ = session.shell?.handle(.escape)
        try await session.restart()
        session.shell?.openTab(.compose)
        let next = try #require(session.shell?.currentScreen as? ComposerScreen)
        #expect(next.text == "Next one", "\(app.id): the next draft survives a restart")
        await session.stop()
    }

}
