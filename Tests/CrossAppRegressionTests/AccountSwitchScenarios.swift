import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Features
import Foundation
import MediaModel
import ServerAPI
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// Changes belong to the account that made them: what @lynn did offline is never sent as the
/// next account signed in on the device; it is held, said so in Sync, and sent as @lynn when
/// @lynn signs in again.
@Suite @MainActor struct AccountSwitchScenarios {
    @Test(arguments: ShippedApp.withHome)
    func changesMadeOfflineAsLynn_areNotSentAsGrace_andGoAsLynnWhenSheSignsInAgain(app: ShippedApp)
        async throws
    {
        // Given @lynn, offline, who likes the first post and writes a post
        let directories = try TestDirectories.make()
        let text = "Tide tables, written offline as lynn in \(app.id)"
        let before = try Self.serverCounts(directories, text: text)
        let offline = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                network offline
                key l
                key n
                type \(text)
                attach \(try TestPhotos.sample())
                key enter
                wait
                key \(app.syncKey)
                wait
                expect Changes: 2 pending, 0 failed
                frame

                """,
            directories: directories, height: 40, extraArguments: ["--user", "lynn"])
        #expect(offline.status == 0, "\(app.id): \(offline.errors)\n\(offline.lastFrame)")
        // (the first post may be one @lynn liked already: then `l` takes her like back)
        let unlikes = offline.lastFrame.contains("unlike · @")
        let kind = unlikes ? " unlike " : " like "

        // When the app is started again as @grace, online, and used for a minute
        let asGrace = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                advance 60
                wait
                key \(app.syncKey)
                wait
                frame

                """,
            directories: directories, height: 40, extraArguments: ["--user", "grace"])
        #expect(asGrace.status == 0, "\(app.id): \(asGrace.errors)\n\(asGrace.lastFrame)")

        // Then nothing reached the server, as anyone: @grace did not like or post anything
        let whileGrace = try Self.serverCounts(directories, text: text)
        #expect(whileGrace == before, "\(app.id): sent while @grace was signed in")
        // And Sync shows @grace none of @lynn's changes as hers, and says they are held
        let sync = asGrace.lastFrame
        #expect(sync.contains("Changes: 0 pending, 0 failed"), "\(app.id):\n\(sync)")
        #expect(
            sync.contains("2 changes made as @lynn are held until @lynn signs in again"),
            "\(app.id):\n\(sync)")
        #expect(!sync.contains("everything is sent"), "\(app.id): two changes are not sent yet:\n\(sync)")
        #expect(sync.contains("nothing else waits to be sent"), "\(app.id):\n\(sync)")
        #expect(!sync.contains("Tide tables"), "\(app.id): @lynn's post is not listed as @grace's:\n\(sync)")

        // When @lynn signs in again
        let asLynn = await HeadlessHarness.run(
            app.definition,
            script: """
                wait
                key \(app.syncKey)
                wait
                expect Changes: 0 pending, 0 failed
                expect everything is sent
                frame

                """,
            directories: directories, height: 40, extraArguments: ["--user", "lynn"])
        #expect(asLynn.status == 0, "\(app.id): \(asLynn.errors)\n\(asLynn.lastFrame)")

        // Then both are sent as @lynn, once each
        let after = try Self.serverCounts(directories, text: text)
        #expect(
            after
                == ServerCounts(
                    lynnLikes: before.lynnLikes + (unlikes ? -1 : 1), graceLikes: before.graceLikes,
                    lynnPosts: 1, gracePosts: 0,
                    lynnTokens: before.lynnTokens + 2, graceTokens: before.graceTokens),
            "\(app.id)")
        // (each in its own lane: lanes keep their own order, and these two are sent side by side)
        let confirmed = asLynn.lastFrame.split(separator: "\n").filter { $0.contains(" confirmed ") }
        #expect(confirmed.count == 2, "\(app.id):\n\(asLynn.lastFrame)")
        #expect(confirmed.filter { $0.contains(" post ") }.count == 1, "\(app.id):\n\(asLynn.lastFrame)")
        #expect(confirmed.filter { $0.contains(kind) }.count == 1, "\(app.id):\n\(asLynn.lastFrame)")
        #expect(!asLynn.lastFrame.contains("held until"), "\(app.id):\n\(asLynn.lastFrame)")
    }

    /// `--sign-out` counts only the signed-in account's changes: @grace, with nothing of hers
    /// waiting, signs out while @lynn's like is held, and is told it stays held.
    @Test(arguments: ShippedApp.withHome)
    func signOutAsGrace_withLynnsChangeHeld_signsOut_andSaysItStays(app: ShippedApp) async throws {
        // Given @lynn's like made offline, then @grace signed in
        let directories = try TestDirectories.make()
        let liked = await HeadlessHarness.run(
            app.definition, script: "wait\nnetwork offline\nkey l\nwait\n", directories: directories,
            extraArguments: ["--user", "lynn"])
        #expect(liked.status == 0, "\(app.id): \(liked.errors)")
        let asGrace = await HeadlessHarness.run(
            app.definition, script: "wait\n", directories: directories, extraArguments: ["--user", "grace"])
        #expect(asGrace.status == 0, "\(app.id): \(asGrace.errors)")

        // When @grace signs out
        let run = await IdentityScenarios.signOut(app, directories)

        // Then she is signed out, told that @lynn's change stays held, and it is still there
        #expect(run.status == 0, "\(app.id): \(run.error)")
        #expect(
            run.output
                == "signed out @grace: the session is revoked on the server and removed here; the next launch "
                + "shows onboarding\nnote: 1 change made as @lynn is held until @lynn signs in again\n",
            "\(app.id): \(run.output)")
        let database = try Database(path: directories.data + "/app.sqlite")
        defer { try? database.close() }
        #expect(
            try database.query("SELECT account FROM mutation_journal WHERE state IN (0, 1)").map {
                try $0.string(0)
            } == ["lynn"])
    }

    /// What the server holds of @lynn's and @grace's doing: their likes, their posts with `text`,
    /// and the change tokens the server applied for each.
    /// An account switch inside the run (`a` on the viewer's own profile), there and back: esc
    /// on the switch keeps the profile as it was; another account signed in shows only what is
    /// its own (the oracle after every step: the title's handle, Home as the server ranks it for
    /// that account, nothing pending of another), with an empty composer where the first account
    /// left a draft; and the first account, signed in again, finds its draft. The account left is
    /// signed out on the server.
    @Test(arguments: ShippedApp.withHome)
    func switchingAccountInsideTheRun_showsOnlyTheNewAccounts_andTheFirstComesBack(app: ShippedApp)
        async throws
    {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let oracle = ScreenOracle(app: app)
        func check(_ step: String) async throws {
            await session.settle()
            let problems = await oracle.violations(in: session, settled: true)
            try #require(
                problems.isEmpty, "\(app.id), \(step): \(problems)\n\(HeadlessHarness.frame(of: session))")
        }
        func composerText() async throws -> String {
            shell.openTab(.compose)
            await session.settle()
            return try #require(shell.currentScreen as? ComposerScreen, "\(app.id): no composer").text
        }
        /// Opens the switch from the viewer's own profile.
        func openSwitch() async throws -> OnboardingScreen {
            _ = try await HeadlessHarness.openOwnProfile(in: session)
            _ = shell.handle(.character("a"))
            await session.settle()
            return try #require(shell.modal as? OnboardingScreen, "\(app.id): `a` opened no switch")
        }
        /// Switches to `handle` through "another account": its handle typed, then enter.
        func switchTo(_ handle: String) async throws {
            _ = try await openSwitch()
            for key in [Key.character("G"), .enter] + handle.map(Key.character) + [.enter] {
                _ = shell.handle(key)
                await session.settle()
            }
            clock.advance(by: .seconds(1))  // past the moment keys still belong to the welcome screen
            await session.settle()
            try #require(
                shell.modal == nil, "\(app.id): still switching\n\(HeadlessHarness.frame(of: session))")
            #expect(shell.context.viewer?.handle == handle, "\(app.id)")
        }

        // Given @ada with a draft
        let words = "Ada's words before the switch, in \(app.id)"
        #expect(try await composerText() == "")
        for character in words { _ = shell.handle(.character(character)) }
        shell.context.drafts?.flush()
        try await check("ada's draft")
        let adaToken = try #require(shell.context.client.bearerToken)

        // When she opens the switch and calls it off, her profile is as it was
        _ = try await openSwitch()
        _ = shell.handle(.escape)
        clock.advance(by: .seconds(1))
        await session.settle()
        #expect(shell.modal == nil && shell.currentScreen is ProfileScreen, "\(app.id): esc left the profile")
        #expect(shell.context.viewer?.handle == BackendSeed.firstHandle)

        // When she switches to @grace: only @grace's, and no draft of ada's
        try await switchTo("grace")
        shell.openTab(.home)
        try await check("grace's Home")
        #expect(try await composerText() == "", "\(app.id): @grace's composer holds @ada's draft")
        try await check("grace's composer")
        let server = try directories.openBackend()
        defer { server.close() }
        let refused = await server.handle(
            Request(.get, "/v1/feed", headers: ["Authorization": "Bearer \(adaToken)"]))
        #expect(refused.status == 401, "\(app.id): @ada's session was not signed out: \(refused.status)")

        // Then @ada comes back to her draft
        try await switchTo(BackendSeed.firstHandle)
        shell.openTab(.home)
        try await check("ada's Home again")
        #expect(try await composerText() == words, "\(app.id): @ada's draft is gone")
    }

    /// A new post's draft belongs to the account that typed it: @lynn's unsent words are not in
    /// the composer @grace opens on the same device (where enter would post them as @grace), and
    /// they are @lynn's again when she comes back, with @grace's own draft kept for her.
    @Test(arguments: ShippedApp.withComposer)
    func aDraftTypedAsLynn_isNotGracesComposer_andIsLynnsAgainWhenSheComesBack(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        /// Opens the composer as `handle`, returns its text, then types `typing` (kept as a draft).
        func compose(as handle: String, typing: String) async throws -> String {
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: directories, extraArguments: ["--user", handle])
            session.shell?.openTab(.compose)
            await session.settle()
            let composer = try #require(
                session.shell?.currentScreen as? ComposerScreen, "\(app.id): no composer")
            let found = composer.text
            for character in typing { _ = session.shell?.handle(.character(character)) }
            await session.stop()
            return found
        }
        let lynns = "Half a thought of lynn's, in \(app.id)"
        let graces = "Grace's own beginning, in \(app.id)"
        #expect(try await compose(as: "lynn", typing: lynns) == "")
        #expect(
            try await compose(as: "grace", typing: graces) == "",
            "\(app.id): @grace's composer opened with @lynn's draft")
        #expect(
            try await compose(as: "lynn", typing: "") == lynns, "\(app.id): @lynn's draft is not hers again")
        #expect(
            try await compose(as: "grace", typing: "") == graces, "\(app.id): @grace's draft was not kept")
    }

    struct ServerCounts: Equatable {
        var lynnLikes: Int
        var graceLikes: Int
        var lynnPosts: Int
        var gracePosts: Int
        var lynnTokens: Int
        var graceTokens: Int
    }

    static func serverCounts(_ directories: TestDirectories, text: String) throws -> ServerCounts {
        let server = try directories.openBackend()
        defer { server.close() }
        func count(_ sql: String, _ handle: String, _ extra: String? = nil) throws -> Int {
            let rows =
                if let extra {
                    try server.database.query(sql, handle, extra)
                } else {
                    try server.database.query(sql, handle)
                }
            return try rows.first?.int(0) ?? -1
        }
        let likes = "SELECT count(*) FROM likes JOIN users ON users.id = likes.user WHERE users.handle = ?"
        let posts = """
            SELECT count(*) FROM posts JOIN users ON users.id = posts.author
            WHERE users.handle = ? AND instr(CAST(posts.json AS TEXT), ?) > 0
            """
        let tokens =
            "SELECT count(*) FROM mutations JOIN users ON users.id = mutations.user WHERE users.handle = ?"
        return ServerCounts(
            lynnLikes: try count(likes, "lynn"), graceLikes: try count(likes, "grace"),
            lynnPosts: try count(posts, "lynn", text), gracePosts: try count(posts, "grace", text),
            lynnTokens: try count(tokens, "lynn"), graceTokens: try count(tokens, "grace"))
    }
}
