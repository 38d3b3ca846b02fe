import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import HTTPServer
import MediaModel
import Mutations
import ServerAPI
import Sockets
import Storage
import Synchronization
import TerminalUI
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Signing in as a person meets it: tokens expire and are renewed without anyone noticing, a
/// new account is protected by the password chosen at onboarding, a wrong password says so and
/// loses nothing, and a session the server no longer accepts leads to signing in again.
@Suite @MainActor struct IdentityScenarios {
    /// The clock moves two hours on (the token lived one): the next like renews the session
    /// silently, is sent once, the Sync tab shows nothing failed, and the renewed pair is saved
    /// (mode 0600).
    @Test(arguments: ShippedApp.withHome)
    func twoHoursLater_aLikeStillGoesOnce_andTheRenewedSessionIsSaved(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let store = SessionStore(dataDirectory: directories.data)
        let before = try #require(store.load(), "the headless launch signed in and saved its session")
        let context = try #require(session.shell?.context)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let post = try #require(feed.postList.selectedItem?.media)
        let likedBefore = try Self.likes(of: post.id, by: before.handle, on: server)

        // When two hours pass and the person likes the selected post
        _ = clock.advance(by: .seconds(7200))
        _ = session.shell?.handle(.character("l"))
        await session.settle()

        // Then it reached the server once, nothing waits or failed, and the session was renewed
        #expect(try Self.likes(of: post.id, by: before.handle, on: server) == likedBefore + 1)
        #expect(context.manager.pending.isEmpty, "\(app.id): \(context.manager.pending)")
        #expect(context.manager.failed.isEmpty, "\(app.id): \(context.manager.failed)")
        #expect(context.client.credentials?.renewalCount == 1)
        let after = try #require(store.load())
        #expect(after.handle == before.handle)
        #expect(after.token != before.token, "the renewed token was saved")
        #expect(after.renewToken != before.renewToken)
        #expect(try Self.mode(of: store.path) == 0o600)
        session.shell?.openTab(.mutations)
        await session.settle()
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("0 pending, 0 failed"), "\(app.id):\n\(sync)")
        #expect(sync.contains("everything is sent"), "\(app.id):\n\(sync)")
    }

    /// A long session: the token expires four times over (two hours each, the token living one),
    /// and a like after each renews the session. Every renewal takes the renew token the last
    /// one brought: the viewer is never signed out by their own client, every like reaches the
    /// server once, and the title keeps naming them.
    @Test(arguments: ShippedApp.withHome)
    func fourRenewalsInOneSession_neverSignTheViewerOut(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let context = try #require(session.shell?.context)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let handle = try #require(context.client.credentials?.handle)

        for renewal in 1...4 {
            // When two hours pass and the person likes (or unlikes) the selected post
            let post = try #require(feed.postList.selectedItem?.media)
            let likedBefore = try Self.likes(of: post.id, by: handle, on: server)
            _ = clock.advance(by: .seconds(7200))
            _ = session.shell?.handle(.character("l"))
            await session.settle()

            // Then the session was renewed again, the change reached the server once, nothing
            // failed, and the viewer is still signed in
            let place = "\(app.id), renewal \(renewal)"
            #expect(context.client.credentials?.renewalCount == renewal, "\(place)")
            #expect(context.client.credentials?.canRenew == true, "\(place): the session ended")
            #expect(try Self.likes(of: post.id, by: handle, on: server) == 1 - likedBefore, "\(place)")
            #expect(context.manager.failed.isEmpty, "\(place): \(context.manager.failed)")
            let title = lines(HeadlessHarness.frame(of: session))[0]
            #expect(title.hasSuffix("@\(handle)"), "\(place): the title bar reads \(title)")
        }
    }

    /// A script that advances the clock past the token's life keeps working, as a person sees it.
    @Test(arguments: ShippedApp.all)
    func headlessScript_advancingTwoHours_keepsWorking(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let script = """
            wait
            advance 7200
            key l
            wait
            key \(app.syncKey)
            wait
            expect 0 pending, 0 failed
            expect everything is sent
            frame
            """
        let run = await HeadlessHarness.run(app.definition, script: script, directories: directories)
        #expect(run.status == 0, "\(app.id): \(run.errors)\n\(run.lastFrame)")
        #expect(!run.lastFrame.contains("unauthorized") && !run.lastFrame.contains("sign in again"))
    }

    /// Onboarding makes an account with a password: typed masked, its length said as it is
    /// typed, too short refused; the account then needs that password to sign in.
    @Test(arguments: ShippedApp.all)
    func onboarding_createsAnAccountWithAPassword_thatIsThenRequired(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen, "a first launch shows onboarding")
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)

        // When the person types a handle, enter, then a short password
        for character in "wren_new" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        for character in "hunt" { _ = shell.handle(.character(character)) }
        let typing = HeadlessHarness.frame(of: session)
        #expect(typing.contains("Password: ••••"), "masked:\n\(typing)")
        #expect(!typing.contains("hunt"), "never shown:\n\(typing)")
        #expect(typing.contains("4 of 8 characters at least"), "its length said:\n\(typing)")
        _ = shell.handle(.enter)
        await session.settle()
        let refused = HeadlessHarness.frame(of: session)
        #expect(refused.contains("a password has 8 characters at least (4 so far)"), "\(refused)")
        #expect(shell.modal is OnboardingScreen, "not created with a short password")

        // And then makes it long enough
        for character in "er2-go" { _ = shell.handle(.character(character)) }
        #expect(HeadlessHarness.frame(of: session).contains("✓ 10 characters"))
        _ = shell.handle(.enter)
        await session.settle()

        // Then the account exists, is signed in and saved, and its password is what signs it in
        #expect(shell.modal == nil, "\(app.id) left onboarding:\n\(HeadlessHarness.frame(of: session))")
        #expect(SessionStore(dataDirectory: directories.data).load()?.handle == "wren_new")
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        let anonymous = APIClient(transport: transport, credentials: nil)
        let wrong = await Self.refusal {
            _ = try await anonymous.signIn(handle: "wren_new", password: "hunter2")
        }
        #expect(wrong?.serverCode == "invalid_credentials")
        let demo = await Self.refusal {
            _ = try await anonymous.signIn(handle: "wren_new", password: DemoAccounts.password)
        }
        #expect(demo?.serverCode == "invalid_credentials", "the demo password does not open a new account")
        let right = try await anonymous.signIn(handle: "wren_new", password: "hunter2-go").payload
        #expect(right.user.handle == "wren_new")
    }

    /// Continuing as an account that is not a demo account asks for its password; a wrong one
    /// says so plainly and keeps the person where they were, the right one signs in.
    @Test(arguments: ShippedApp.all)
    func continuingAsAnAccountWithItsOwnPassword_aWrongOneSaysSo_theRightOneSignsIn(app: ShippedApp)
        async throws
    {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        try await BackendFixtures.createAccount(
            on: backend, handle: "kit_own", displayName: "Kit Own", password: "kit-secret-1")
        backend.close()
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        try #require(onboarding.findsOtherAccounts, "every welcome screen signs in to any account")
        for _ in 0..<onboarding.offered.count { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in "kit_own" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        let asked = HeadlessHarness.frame(of: session)
        #expect(asked.contains("Sign in as @kit_own\n  Password:"), "a password is asked:\n\(asked)")

        // A wrong password
        for character in "kit-secret-2" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        let wrong = HeadlessHarness.frame(of: session)
        #expect(wrong.contains("wrong password for @kit_own; try again"), "\(app.id):\n\(wrong)")
        #expect(shell.modal is OnboardingScreen, "still signing in")
        #expect(SessionStore(dataDirectory: directories.data).load() == nil, "nothing saved")

        // The right one
        for character in "kit-secret-1" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        #expect(shell.modal == nil, "\(app.id):\n\(HeadlessHarness.frame(of: session))")
        #expect(SessionStore(dataDirectory: directories.data).load()?.handle == "kit_own")
    }

    /// A demo account is continued as without a password being asked (the embedded backend is
    /// always in demo mode).
    @Test(arguments: ShippedApp.all)
    func continuingAsADemoAccount_asksNoPassword(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        try #require(onboarding.findsOtherAccounts, "every welcome screen signs in to any account")
        for _ in 0..<onboarding.offered.count { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in "grace" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        #expect(shell.modal == nil, "\(app.id):\n\(HeadlessHarness.frame(of: session))")
        #expect(SessionStore(dataDirectory: directories.data).load()?.handle == "grace")
    }

    /// The server signed the saved session out (elsewhere): a headless run with `--user` signs in
    /// again with the demo password and goes on; an interactive launch asks the person to sign in
    /// again.
    @Test(arguments: ShippedApp.withHome)
    func savedSessionSignedOutElsewhere_headlessSignsInAgain_interactiveAsks(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (first, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, extraArguments: ["--user", "grace"])
        let firstToken = try #require(first.shell?.context.client.bearerToken)
        try await first.shell?.context.client.signOut()
        await first.stop()

        // Headless with --user: signs in again and shows the feed
        let (again, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, extraArguments: ["--user", "grace"])
        let feed = try #require(again.shell?.currentScreen as? FeedScreen)
        #expect(!feed.postList.items.isEmpty, "\(app.id):\n\(HeadlessHarness.frame(of: again))")
        let saved = try #require(SessionStore(dataDirectory: directories.data).load())
        #expect(saved.handle == "grace")
        #expect(saved.token != firstToken)
        try await again.shell?.context.client.signOut()
        await again.stop()

        // Interactive: onboarding says why
        let (interactive, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await interactive.stop() } }
        let frame = HeadlessHarness.frame(of: interactive)
        #expect(interactive.shell?.modal is OnboardingScreen, "\(app.id):\n\(frame)")
        #expect(frame.contains("your session as @grace ended; sign in again"), "\(app.id):\n\(frame)")
    }

    /// A session file from before tokens expired (a handle and a token only) still loads, and
    /// leads to signing in again rather than to a launch that fails.
    @Test(arguments: ShippedApp.all)
    func oldSessionFile_leadsToSigningInAgain(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        try FileManager.default.createDirectory(atPath: directories.data, withIntermediateDirectories: true)
        try Data(#"{"handle":"grace","token":"seed-grace"}"#.utf8).write(
            to: URL(fileURLWithPath: directories.data + "/session.json"))
        let (interactive, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        let frame = HeadlessHarness.frame(of: interactive)
        #expect(interactive.shell?.modal is OnboardingScreen, "\(app.id):\n\(frame)")
        #expect(frame.contains("your session as @grace ended; sign in again"), "\(app.id):\n\(frame)")
        await interactive.stop()

        let (headless, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await headless.stop() } }
        #expect(headless.shell?.context.viewer?.handle == "grace", "the saved account, signed in again")
        #expect(SessionStore(dataDirectory: directories.data).load()?.isRenewable == true)
    }

    /// A server busy checking passwords (503 with Retry-After) at the first sign-in: the launch
    /// waits and tries again rather than failing.
    @Test(arguments: ShippedApp.all)
    func aServerBusyAtSignIn_isWaitedFor(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        defer { backend.close() }
        let refused = Mutex(0)
        let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            if request.path == "/v1/sessions",
                refused.withLock({ count in
                    count += 1
                    return count == 1
                })
            {
                return .error(
                    503, code: "busy", message: "too many sign-ins are being checked at once",
                    headers: ["Retry-After": "1"])
            }
            return await backend.handle(request)
        }
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories,
            extraArguments: ["--server", server.baseURL.absoluteString, "--user", "grace"])
        _ = await server.shutdown(gracePeriod: .seconds(2))
        #expect(run.status == 0, "\(app.id): \(run.errors)")
        #expect(refused.withLock { $0 } == 2, "refused once, then signed in")
        #expect(run.lastFrame.split(separator: "\n").first?.hasSuffix("@grace") == true, "\(run.lastFrame)")
    }

    // MARK: Helpers

    /// `--sign-out` revokes the saved session on the server and forgets it here: the old token
    /// (and its renew token) no longer work for anyone who copied them, and a second sign-out
    /// says there is nothing to sign out.
    @Test(arguments: ShippedApp.all)
    func signOut_revokesTheSessionOnTheServer_andForgetsItHere(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let signedIn = await HeadlessHarness.run(
            app.definition, script: "wait\n", directories: directories, extraArguments: ["--user", "grace"])
        #expect(signedIn.status == 0, "\(app.id): \(signedIn.errors)")
        let store = SessionStore(dataDirectory: directories.data)
        let saved = try #require(store.load())

        let run = await Self.signOut(app, directories)
        #expect(run.status == 0, "\(app.id): \(run.error)")
        #expect(
            run.output
                == "signed out @grace: the session is revoked on the server and removed here; the next launch "
                + "shows onboarding\n", "\(app.id): \(run.output)")
        #expect(store.load() == nil && !FileManager.default.fileExists(atPath: store.path))

        let backend = try directories.openBackend()
        defer { backend.close() }
        let me = await backend.handle(
            Request(.get, "/v1/me", headers: ["Authorization": "Bearer \(saved.token)"]))
        #expect(me.status == 401, "the revoked token is refused")
        let renew = await backend.handle(
            Request(
                .post, "/v1/sessions/renew", headers: ["Content-Type": "application/json"],
                body: Data("{\"renewToken\": \"\(saved.renewToken ?? "")\"}".utf8)))
        #expect(renew.status == 401, "the revoked renew token is refused")

        let again = await Self.signOut(app, directories)
        #expect(again.status == 0, "\(app.id): \(again.error)")
        #expect(again.output == "not signed in here (no session in \(directories.data))\n")
    }

    /// A change made offline has not reached the server: signing out would lose it, or send it
    /// later as whoever signs in next. `--sign-out` refuses and keeps the session.
    @Test(arguments: ShippedApp.withHome)
    func signOut_withAChangeWaiting_isRefused_andTheSessionKept(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let liked = await HeadlessHarness.run(
            app.definition, script: "wait\nnetwork offline\nkey l\nwait\n", directories: directories,
            extraArguments: ["--user", "grace"])
        #expect(liked.status == 0, "\(app.id): \(liked.errors)")
        let store = SessionStore(dataDirectory: directories.data)
        let saved = try #require(store.load())

        let run = await Self.signOut(app, directories)
        #expect(run.status == 1)
        #expect(
            run.error.contains(
                "1 change made as @grace has not reached the server (1 waiting, 0 failed); signing out now "
                    + "would leave it unsent until @grace signs in here again"),
            "\(app.id): \(run.error)")
        #expect(
            run.error.contains(
                "run the app online until Sync says everything is sent (or discard failed ones with x), then sign out"
            ),
            "\(app.id): \(run.error)")
        #expect(store.load() == saved, "the session is kept")

        // A failed change (the Sync tab keeps it until retried or discarded) counts too
        do {
            let database = try Database(path: directories.data + "/app.sqlite")
            defer { try? database.close() }
            _ = try database.execute("UPDATE mutation_journal SET state = 2 WHERE state IN (0, 1)")
        }
        let failed = await Self.signOut(app, directories)
        #expect(failed.status == 1)
        #expect(failed.error.contains("(0 waiting, 1 failed)"), "\(app.id): \(failed.error)")
        #expect(store.load() == saved, "the session is kept")
    }

    /// The server cannot be reached: the session cannot be revoked, so it is kept (forgetting it
    /// here would leave it alive on the server with nobody able to end it).
    @Test(arguments: ShippedApp.all)
    func signOut_whenTheServerCannotBeReached_keepsTheSession(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let signedIn = await HeadlessHarness.run(
            app.definition, script: "wait\n", directories: directories, extraArguments: ["--user", "grace"])
        #expect(signedIn.status == 0, "\(app.id): \(signedIn.errors)")
        let store = SessionStore(dataDirectory: directories.data)
        let saved = try #require(store.load())

        let run = await Self.signOut(app, directories, extraArguments: ["--network", "offline"])
        #expect(run.status == 1)
        #expect(
            run.error.contains(
                "the server cannot be reached, so the session could not be revoked; it is kept: try again when online"
            ),
            "\(app.id): \(run.error)")
        #expect(store.load() == saved)
    }

    /// A session the server already ended (signed out elsewhere) counts as signed out: the file
    /// is removed and the run says so.
    @Test(arguments: ShippedApp.all)
    func signOut_ofASessionAlreadyEnded_removesIt(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let signedIn = await HeadlessHarness.run(
            app.definition, script: "wait\n", directories: directories, extraArguments: ["--user", "grace"])
        #expect(signedIn.status == 0, "\(app.id): \(signedIn.errors)")
        let store = SessionStore(dataDirectory: directories.data)
        let saved = try #require(store.load())
        do {
            let backend = try directories.openBackend()
            defer { backend.close() }
            let ended = await backend.handle(
                Request(.delete, "/v1/sessions/current", headers: ["Authorization": "Bearer \(saved.token)"]))
            #expect(ended.status == 204)
        }

        let run = await Self.signOut(app, directories)
        #expect(run.status == 0, "\(app.id): \(run.error)")
        #expect(
            run.output.contains("the session of @grace had already ended on the server"),
            "\(app.id): \(run.output)")
        #expect(store.load() == nil)
    }

    /// A running app holds the data directory: `--sign-out` waits its turn rather than pulling
    /// the session from under it.
    @Test(arguments: ShippedApp.all)
    func signOut_whileTheAppRuns_isRefused(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, extraArguments: ["--user", "grace"])
        let run = await Self.signOut(app, directories)
        #expect(run.status == 1)
        #expect(
            run.error.contains("is in use by another app (process \(getpid()))"), "\(app.id): \(run.error)")
        #expect(SessionStore(dataDirectory: directories.data).load() != nil)
        await session.stop()
    }

    /// Runs `app --sign-out` on `directories`.
    static func signOut(
        _ app: ShippedApp, _ directories: TestDirectories, extraArguments: [String] = []
    ) async -> (status: Int32, output: String, error: String) {
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(
            app.definition,
            arguments: ["--sign-out", "--data-dir", directories.data, "--backend-dir", directories.backend]
                + extraArguments,
            environment: ["HOME": NSTemporaryDirectory()], output: output, standardInput: { nil })
        return (status, output.output, output.error)
    }

    static func likes(of post: MediaID, by handle: String, on server: BackendServer) throws -> Int {
        try server.database.query(
            "SELECT COUNT(*) FROM likes JOIN users ON users.id = likes.user WHERE users.handle = ? AND likes.post = ?",
            handle, Int64(post.rawValue.dropFirst()) ?? -1
        ).first?.int(0) ?? -1
    }

    static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }

    static func refusal(_ body: () async throws -> Void) async -> TransportError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? TransportError
        }
    }
}
