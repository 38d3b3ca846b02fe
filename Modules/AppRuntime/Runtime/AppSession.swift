import Backend
import Basics
import Composition
import DirectMessages
import Features
import FeedCaching
import Foundation
import HTTPClient
import MediaModel
import Mutations
import ServerAPI
import Sockets
import Storage
import TerminalUI
import Wire

/// One run of an app: launches its definition, signs in, builds the shell, and can stop and
/// launch again on the same data (a cold start, `restart` in a script).
@MainActor
package final class AppSession {
    /// The app's definition.
    package let definition: AppDefinition
    /// What the command line asked for.
    package let configuration: LaunchConfiguration
    /// The app's clock.
    package let clock: any WallClock
    /// The clock the network side uses (the app's clock, or one whose sleeps return at once in
    /// headless runs).
    package let networkClock: any WallClock
    /// How colors are drawn.
    package let colorMode: ColorMode
    /// How photos are drawn.
    package let imageMode: ImageMode
    /// Outstanding work.
    package let tracker = WorkTracker()
    /// The running app, while launched.
    package private(set) var app: RunningApp?
    /// The shell, while launched.
    package private(set) var shell: AppShell?
    private var width: Int
    private var height: Int
    /// Called when the frame should be drawn again.
    package var onNeedsDisplay: (@MainActor () -> Void)?
    /// Whether the app hears the backend's event stream as it happens (`activity.events`' own
    /// long-poll loop, started at every launch): true in a terminal, where the interactive runner
    /// sets it. Headless runs and tests on a manual clock step the stream themselves (a long
    /// poll's wait never ends on a clock that does not move).
    package var hearsEventsAsTheyHappen = false
    /// The hold on the data directory, while launched.
    private var directoryLock: DataDirectoryLock?
    /// The network conditions in force when the app last stopped for a restart: a cold start
    /// does not change the network, so the next launch starts with these rather than with the
    /// command line's `--network`.
    private var networkAtRestart: FaultProfile?

    /// Makes a session; nothing runs until `launch()`. Without `imageMode`, photos are drawn as
    /// a run without a terminal draws them (`LaunchConfiguration.headlessImageMode`), with
    /// characters when `colorMode` has no color.
    package init(
        definition: AppDefinition, configuration: LaunchConfiguration, clock: any WallClock,
        networkClock: any WallClock, colorMode: ColorMode, imageMode: ImageMode? = nil, width: Int,
        height: Int
    ) {
        self.definition = definition
        self.configuration = configuration
        self.clock = clock
        self.networkClock = networkClock
        self.colorMode = colorMode
        self.imageMode =
            imageMode
            ?? (colorMode == .none
                ? configuration.imageMode(
                    colorMode: .none, speaksKitty: false, registry: KittyImageRegistry())
                : configuration.headlessImageMode)
        self.width = width
        self.height = height
    }

    /// The launch values: the command line's, with the session's clocks and saved viewer.
    func launchValues() -> LaunchValues {
        var values = configuration.launchValues(clock: clock)
        if let profile = networkAtRestart {
            values[EmbeddedFaultProfileKey.self] = profile
            values[HTTPFaultProfileKey.self] = profile
        }
        values[BackendClockKey.self] = networkClock
        values[HTTPFaultClockKey.self] = networkClock
        values[WorkTrackerKey.self] = tracker
        if let saved = savedSession(), saved.isRenewable,
            configuration.user == nil || configuration.user == saved.handle,
            let credentials = restoredCredentials(saved)
        {
            values[ViewerKey.self] = credentials
        }
        return values
    }

    /// The credentials of a saved session: they renew themselves, and each new pair is saved.
    private func restoredCredentials(_ saved: SessionStore.Saved) -> Credentials? {
        guard let renewToken = saved.renewToken, let expiresAt = saved.expiresAt,
            let renewExpiresAt = saved.renewExpiresAt
        else { return nil }
        return Credentials(
            handle: saved.handle, token: saved.token,
            expiresAt: Date(timeIntervalSince1970: Double(expiresAt) / 1000), renewToken: renewToken,
            renewExpiresAt: Date(timeIntervalSince1970: Double(renewExpiresAt) / 1000),
            onChange: credentialsHandler())
    }

    /// What happens when credentials change: a renewed pair is saved (mode 0600) before any
    /// request uses it; credentials the server refused to renew ask the person to sign in again.
    private func credentialsHandler() -> @Sendable (Credentials.Change) -> Void {
        let store = SessionStore(dataDirectory: configuration.dataDirectory)
        let tracker = tracker
        return { [weak self] change in
            switch change {
            case .renewed(let session):
                do {
                    try store.save(SessionStore.Saved(session))
                } catch {
                    let problem = "\(error)"
                    tracker.begin()
                    Task { @MainActor in
                        self?.shell?.showMessage("✕ " + problem)
                        tracker.end()
                    }
                }
            case .ended:
                tracker.begin()
                Task { @MainActor in
                    await self?.credentialsEnded()
                    tracker.end()
                }
            }
        }
    }

    /// The session saved by the last sign-in on this data directory. A launch without `--user`
    /// uses it, headless too, so it starts from the cache without the server (offline when the
    /// server cannot be reached); with `--user`, only when it is that account's.
    private func savedSession() -> SessionStore.Saved? {
        SessionStore(dataDirectory: configuration.dataDirectory).load()
    }

    private var isHeadless: Bool {
        if case .headless = configuration.mode { return true }
        return false
    }

    /// The network conditions switch of the transport the app talks through: the HTTP
    /// transport's when a server URL was given, else the embedded backend's.
    static func faultControl(of app: RunningApp) -> (any FaultControl)? {
        if let http = app.service(.httpBackend), http.transport != nil { return http.faultControl }
        return app.service(.embeddedBackend)?.embeddedTransport
    }

    /// Runs on a data directory the caller already holds (an interactive launch takes it before
    /// the terminal, so a refusal is said without the screen flashing); `launch()` then does not
    /// take it again.
    package func holdDataDirectory(_ lock: DataDirectoryLock) {
        directoryLock = lock
    }

    /// Launches the app's services, signs in, and shows the first tab.
    ///
    /// - Throws: `DataDirectoryLockError` when another session (in this process or another) runs
    ///   on the same data directory; a launch error otherwise.
    package func launch() async throws {
        try configuration.createDirectories()
        if directoryLock == nil {
            directoryLock = try DataDirectoryLock.acquire(
                directory: configuration.dataDirectory, app: definition.id)
        }
        let app = try await AppHost.launch(definition, values: launchValues())
        self.app = app
        setAsideDatabase = app.service(.appDatabase)?.setAside
        let context: AppContext
        do {
            context = try AppContext(
                app: app, colorMode: colorMode, imageMode: imageMode, clock: clock, tracker: tracker,
                photoArt: app.service(.photoArt)?.store)
            context.faultControl = Self.faultControl(of: app)
            // Screens read the manager through `PendingChanges`; the session also steers it.
            guard let manager = try? app.service(.mutationReplay)?.manager else {
                throw AppContextError("the manifest does not enable 'mutations.replay'")
            }
            self.manager = manager
            useDrafts(of: context.client.credentials?.handle, context: context)
            context.photosDirectory = configuration.photosDirectory
            context.dataDirectory = configuration.dataDirectory
        } catch {
            await app.stop()
            self.app = nil
            throw error
        }
        if let handle = configuration.user, context.client.credentials == nil {
            try await signIn(handle: handle, context: context)
        } else if isHeadless, context.client.credentials == nil {
            // Headless runs without --user are the seed's first user, signed in with the demo
            // password (or the saved session's account, when that could not be kept).
            try await signIn(handle: savedSession()?.handle ?? BackendSeed.firstHandle, context: context)
        }
        let shell = AppShell(context: context, width: width, height: height, makeScreen: ScreenFactory.make)
        shell.onNeedsDisplay = { [weak self] in self?.onNeedsDisplay?() }
        self.shell = shell
        let tracker = tracker
        guard let manager else { return }
        if let viewer = context.viewer { manager.setViewer(viewer) }
        // Until the server says who the viewer is (offline it cannot), the viewer the journal
        // kept for this account stands in, so the viewer's own messages and conversations are
        // drawn as theirs; the launch still asks the server.
        if context.viewer == nil, let kept = manager.viewer, kept.handle == context.client.credentials?.handle
        {
            context.viewer = kept
            keptViewerStandsIn = context
        }
        context.actions = MutationActions(
            manager: manager, context: context, uploadsDirectory: configuration.dataDirectory + "/uploads")
        context.networkChangeHandlers.append { manager.networkDidChange() }
        // A viewer not known yet (the launch's ask failed) is asked for at once, as waiting
        // changes are retried at once.
        context.networkChangeHandlers.append { [weak self, weak context] in
            if let context { self?.loadViewer(context) }
        }
        // The one path of a change to the screen: the manager's observer. What arrives before the
        // UI actor runs is coalesced into one call (a like's commit, attempt and confirmation made
        // in one turn cost one re-merge); the hop is tracked so a headless `wait` includes it.
        let coalescer = ChangeCoalescer()
        mutationObservation = manager.observe { [weak shell] change in
            guard coalescer.add(change) else { return }
            tracker.begin()
            Task { @MainActor in
                shell?.dataDidChange(content: coalescer.take())
                tracker.end()
            }
        }
        // The title bar's offline marker reads the client's reachability when drawn; a change
        // asks for a redraw (tracked, so a headless `wait` includes it).
        // When the server answers again after it could not be reached, changes waiting for a
        // retry are tried at once rather than at their backoff's time: what the person did while
        // offline is sent without them doing anything.
        // A viewer not known yet (the launch was offline) is asked for then too.
        // While it cannot be reached, the server is asked again on a short backoff, so the
        // marker goes within seconds of it coming back (`ReachabilityProbe`).
        let probe = ReachabilityProbe(clock: clock) { [weak context, tracker] in
            guard let client = context?.client else { return }
            tracker.run {
                if client.bearerToken != nil {
                    _ = try? await client.events(after: "latest", limit: 1)
                } else {
                    _ = try? await client.accounts()
                }
            }
        }
        reachabilityProbe = probe
        reachabilityObservation = context.network.reachability.observe {
            [weak self, weak shell, weak context] status in
            tracker.begin()
            Task { @MainActor in
                if status == .reachable {
                    probe.serverReachable()
                    manager.networkDidChange()
                    if let context { self?.loadViewer(context) }
                } else if status == .unreachable {
                    probe.serverUnreachable()
                }
                shell?.setNeedsDisplay()
                tracker.end()
            }
        }
        app.service(.activityEvents)?.setAnnouncementHandler { [weak shell] text in
            tracker.begin()
            Task { @MainActor in
                shell?.showBanner(text)
                tracker.end()
            }
        }
        // Each event goes to the screens too (an open conversation shows a new message at once).
        app.service(.activityEvents)?.setEventHandler { [weak context] event in
            tracker.begin()
            Task { @MainActor in
                context?.eventDidArrive(event)
                tracker.end()
            }
        }
        // An app in a terminal hears the event stream as it happens (the service's own long-poll
        // loop, ended when the app stops, started again by a restart's launch).
        if hearsEventsAsTheyHappen { app.service(.activityEvents)?.listen(wait: 25) }
        // An app with direct messages counts the unread ones from the start, for its tab's badge.
        let inbox = DirectInbox.attach(to: context)
        if let setAsideDatabase { shell.showMessage(setAsideDatabase.summary) }
        context.switchAccount = { [weak self, weak context] in
            guard let self, let context else { return }
            self.presentAccountSwitch(context: context)
        }
        if needsOnboarding {
            let saved = savedSession()
            presentOnboarding(
                notice: saved.map { "your session as @\($0.handle) ended; sign in again" }, context: context)
            return
        }
        shell.start()
        // The first frame is drawn when the launch returns: with the cached content, not the
        // empty or loading state it replaces a moment later. The launch's own requests (who the
        // viewer is, the inbox) start after the cache is read, so they do not hold it up.
        await shell.showsCachedContent()
        loadViewer(context)
        inbox?.reload()
        // The saved session may have ended while the services started (the events poll asked
        // first), before there was a shell to ask the person: ask now.
        if context.client.credentials?.hasEnded == true { await credentialsEnded() }
    }

    /// The damaged app database this launch kept aside before starting with a fresh one, if
    /// any: the status line says so, and the runner writes the whole story to standard error.
    package private(set) var setAsideDatabase: SetAsideDatabase?

    /// An interactive launch with nobody signed in: no `--user`, and no saved session that can
    /// be kept (none, or one from before tokens expired).
    private var needsOnboarding: Bool {
        configuration.mode == .interactive && configuration.user == nil
            && shell?.context.client.credentials == nil
    }

    /// Shows onboarding; the session it makes is adopted.
    ///
    /// - Parameters:
    ///   - signingInAgain: whether tabs were shown for another session (one that ended, or the
    ///     account switched from): they are loaded afresh for the new one.
    ///   - onCancel: esc on the list of accounts (an account switch called off); none at launch.
    ///   - signedIn: runs once the new session is adopted and shown.
    private func presentOnboarding(
        notice: String?, signingInAgain: Bool = false, context: AppContext,
        onCancel: (@MainActor () -> Void)? = nil, signedIn: (@MainActor (Session) -> Void)? = nil
    ) {
        shell?.presentModal(
            OnboardingScreen(context: context, notice: notice, onCancel: onCancel) { [weak self] session in
                guard let self else { return }
                self.adopt(session, context: context)
                self.shell?.dismissModal()
                if signingInAgain { self.shell?.restartTabs() }
                DirectInbox.attach(to: context)?.reload()
                // Changes refused while signed out are sent at once with the new session.
                manager?.networkDidChange()
                signedIn?(session)
            })
    }

    /// Signs in as another account inside the run (`a` on the viewer's own profile): onboarding
    /// over the app, esc to stay. Once another account is in, every tab is loaded afresh as it,
    /// its own draft and changes are the ones shown, and the account before is signed out on the
    /// server; its changes not yet sent stay in the journal, held for it until it signs in again.
    private func presentAccountSwitch(context: AppContext) {
        guard !(shell?.modal is OnboardingScreen) else { return }
        let before = context.client
        presentOnboarding(
            notice:
                "signed in as @\(before.credentials?.handle ?? "?"): choose the account to switch to, or esc",
            signingInAgain: true, context: context,
            onCancel: { [weak self] in self?.shell?.dismissModal(showingFirstTab: false) },
            signedIn: { session in
                if before.credentials?.token != session.token { Task { try? await before.signOut() } }
            })
    }

    /// Whether a headless run is signing in again after its session ended (once at a time).
    private var isSigningInAgain = false

    /// The server refused to renew the session (signed out elsewhere, or unused too long): an
    /// interactive app asks the person to sign in again; a headless run signs in again with the
    /// demo password, as its launch did.
    private func credentialsEnded() async {
        guard let context = shell?.context, context.client.credentials?.hasEnded == true, !isSigningInAgain
        else { return }
        let handle = context.client.credentials?.handle ?? configuration.user ?? BackendSeed.firstHandle
        if isHeadless {
            isSigningInAgain = true
            defer { isSigningInAgain = false }
            do {
                try await signIn(handle: handle, context: context)
                manager?.networkDidChange()
                shell?.restartTabs()
            } catch {
                shell?.showMessage("✕ \(error)")
            }
            return
        }
        guard !(shell?.modal is OnboardingScreen) else { return }
        presentOnboarding(
            notice: "your session as @\(handle) ended; sign in again", signingInAgain: true, context: context)
    }

    /// Signs in with a session (onboarding's, or the launch's), saves it, and makes the feed
    /// cache the new viewer's.
    private func adopt(_ session: Session, context: AppContext) {
        let credentials = Credentials(
            session: session, issuedAt: networkClock.now, onChange: credentialsHandler())
        // Changes are the account's that made them: from here on only this account's are sent
        // and shown, before its session is used; another account's wait for it to sign in again.
        manager?.setAccount(session.user.handle)
        context.network.signIn(credentials)
        do {
            try context.feedCache?.prepare(viewer: context.network.viewerIdentity)
        } catch {
            shell?.showMessage("✕ \(error)")
        }
        do {
            try SessionStore(dataDirectory: configuration.dataDirectory).save(SessionStore.Saved(session))
        } catch {
            // Signed in for this run; the next launch asks again. Said, not hidden.
            shell?.showMessage("✕ \(error)")
        }
        context.viewer = session.user
        keptViewerStandsIn = nil
        // The manager draws pending posts under the viewer: without this, a new account's first
        // post showed as "@you" until the server had it.
        manager?.setViewer(session.user)
        useDrafts(of: session.user.handle, context: context)
    }

    /// Makes the composer's draft `handle`'s own (none while nobody is signed in): a draft typed
    /// as one account is never shown to, or posted as, another signed in on this device.
    private func useDrafts(of handle: String?, context: AppContext) {
        context.flushDrafts()
        guard let handle, let manager else {
            context.drafts = nil
            return
        }
        context.drafts = DraftStore(dataDirectory: configuration.dataDirectory, account: handle) {
            manager.isDraftConsumed($0)
        }
    }

    /// Signs in as a demo account with the shared demo password (`--user`, headless runs), saves
    /// the session, and makes the feed cache the new viewer's.
    func signIn(handle: String, context: AppContext) async throws {
        let anonymous = context.client.signedIn(with: nil)
        var attempt = 1
        while true {
            do {
                let session = try await anonymous.signIn(handle: handle, password: DemoAccounts.password)
                    .payload
                adopt(session, context: context)
                return
            } catch {
                // A server too busy checking passwords says when to come back (503 with
                // Retry-After): wait that long, a few times, rather than fail the launch.
                guard error.errorClass == .serverError, let wait = error.retryAfter,
                    attempt < Self.busyAttempts
                else { throw SessionError(Self.signInProblem(handle: handle, error)) }
                attempt += 1
                try? await Task.sleep(for: min(max(wait, .milliseconds(100)), .seconds(5)))
            }
        }
    }

    /// How many times a launch's sign-in is tried while the server says it is busy.
    static let busyAttempts = 5

    /// Why signing in as `handle` with the demo password failed, and what to do, in the person's
    /// terms (no routes or status codes: those are in the backend's log).
    static func signInProblem(handle: String, _ error: TransportError) -> String {
        switch error.errorClass {
        case .unauthorized:
            "cannot sign in as @\(handle): --user signs in with the demo password, and @\(handle) has its own; "
                + "start without --user and sign in with its password"
        case .forbidden where error.serverCode == "demo_disabled":
            "cannot sign in as @\(handle): it is a demo account and the server is not in demo mode; start "
                + "backend-server with --demo, or start without --user and create an account"
        case .rateLimited:
            "cannot sign in as @\(handle): too many failed sign-ins; try again in "
                + AgeFormatter.wait(error.retryAfter ?? .seconds(60))
        case .notFound:
            "there is no account @\(handle) on this backend; start without --user to make one, or pass the "
                + "handle of an existing account"
        case .offline:
            "cannot sign in as @\(handle): the backend cannot be reached (the network is offline); try again "
                + "when it is back"
        case .timeout, .requestTimeout:
            "cannot sign in as @\(handle): the backend did not answer in time; try again"
        case .badRequest:
            "'\(handle)' is not a handle an account can have: 2 to 24 characters of a-z, 0-9 and _"
        default:
            "cannot sign in as @\(handle): the backend refused (\(error.errorClass)); try again, or start "
                + "without --user"
        }
    }

    /// Asks the server who the viewer is (`/v1/me`) when the launch did not sign in (a saved
    /// session): until the answer comes, the app cannot tell the viewer's posts from others'
    /// (`d` on their own post would say only they can delete it).
    ///
    /// It never holds up the first frame. A failed ask is tried again on the session's clock, 1 s
    /// after the first failure doubling to a minute (or after the server's `Retry-After`), until
    /// it succeeds: a manual clock makes the retries move only when a test or script advances it,
    /// and `settle()` starts one that has come due. An offline failure waits instead for the
    /// network to come back (the reachability observer asks again), an unauthorized one for the
    /// person to sign in again (which names the viewer); a switch of network conditions asks at
    /// once.
    ///
    /// - Returns: whether an ask was started (none when the viewer is known, one is in flight, or
    ///   `context` is not the running launch's).
    @discardableResult
    private func loadViewer(_ context: AppContext) -> Bool {
        guard shell?.context === context else { return false }
        let failures = viewerRetry?.failures ?? 0
        // A waiting retry ends here whatever happens: asked now, or not needed any more (the
        // viewer became known another way), so a due retry is never found again by `settle()`.
        viewerRetry = nil
        viewerRetryTimer?.cancel()
        viewerRetryTimer = nil
        guard needsViewer(context), !isLoadingViewer else { return false }
        isLoadingViewer = true
        tracker.run { [weak self, weak context] in
            guard let context else { return }
            let answer: Result<User, TransportError>
            do throws(TransportError) {
                answer = .success(try await context.client.me(limit: 1).payload.user)
            } catch {
                answer = .failure(error)
            }
            // A launch stopped meanwhile (a restart) has its own ask.
            guard let self, self.shell?.context === context else { return }
            self.isLoadingViewer = false
            switch answer {
            case .success(let viewer):
                context.viewer = viewer
                if self.keptViewerStandsIn === context { self.keptViewerStandsIn = nil }
                manager?.setViewer(viewer)
                context.navigator?.setNeedsDisplay()
            case .failure(let error):
                self.retryViewer(after: error, failures: failures + 1, context)
            }
        }
        return true
    }

    /// How long the viewer's ask waits after failures: 1 s doubling to a minute.
    static let viewerRetryPolicy = RetryPolicy(base: .seconds(1), cap: .seconds(60))

    /// Schedules the next ask for the viewer after `error`, the `failures`-th in a row.
    private func retryViewer(after error: TransportError, failures: Int, _ context: AppContext) {
        switch error.errorClass {
        case .offline, .cancelled, .unauthorized: return
        default: break
        }
        guard shell?.context === context, needsViewer(context) else { return }
        let wait = max(Self.viewerRetryPolicy.ceiling(afterFailures: failures), error.retryAfter ?? .zero)
        let (seconds, attoseconds) = wait.components
        viewerRetry = (failures, clock.now.addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18))
        let clock = clock
        viewerRetryTimer = Task { @MainActor [weak self] in
            do {
                try await clock.sleep(for: wait)
            } catch {
                return
            }
            self?.startViewerRetryIfDue()
        }
    }

    /// Asks for the viewer again if its retry has come due on the clock; returns whether an ask
    /// was started.
    @discardableResult
    private func startViewerRetryIfDue() -> Bool {
        guard let retry = viewerRetry, retry.due <= clock.now else { return false }
        guard let context = shell?.context else {
            viewerRetry = nil
            return false
        }
        return loadViewer(context)
    }

    /// Whether the viewer's ask is in flight.
    private var isLoadingViewer = false
    /// The context whose viewer is the one the journal kept, until the server answers.
    private weak var keptViewerStandsIn: AppContext?

    /// Whether `context`'s viewer is still to be asked of the server: unknown, or the journal's.
    private func needsViewer(_ context: AppContext) -> Bool {
        context.viewer == nil || keptViewerStandsIn === context
    }

    /// Whether the server said who the viewer is since the launch (or the sign-in); until it
    /// does, the viewer shown is the one the journal kept, if any (for tests).
    package var viewerIsFromTheServer: Bool {
        guard let context = shell?.context else { return false }
        return !needsViewer(context)
    }
    /// The viewer's next ask, while one waits: the failures so far and when it is due.
    private var viewerRetry: (failures: Int, due: Date)?
    /// Wakes the viewer's next ask when the clock reaches it.
    private var viewerRetryTimer: Task<Void, Never>?

    /// The network conditions changed: changes waiting for a retry are tried again at once.
    package func networkDidChange() {
        shell?.context.networkDidChange()
    }

    private var mutationObservation: ObservationToken?
    /// The running app's mutation manager (`mutations.replay`), which the session steers (the
    /// viewer, the account, network changes); screens read it as `PendingChanges`.
    private var manager: MutationManager?
    private var reachabilityObservation: ObservationToken?
    /// Asks the server again while it cannot be reached.
    private var reachabilityProbe: ReachabilityProbe?

    /// Waits until all work started so far has finished: the screens' loads, and the mutation
    /// manager's sends (nothing in flight, nothing due at the clock's time).
    package func settle() async {
        while true {
            await tracker.idle()
            guard shell != nil, let manager else { return }
            await manager.waitUntilIdle()
            await Task.yield()
            // A retry that came due when the clock moved is started here, not left to its timer's
            // task, so a `wait` after `advance` includes it.
            if startViewerRetryIfDue() { continue }
            if reachabilityProbe?.startIfDue() == true { continue }
            if tracker.outstanding == 0 && manager.isIdle() { break }
        }
        await onSettled?(self)
    }

    /// Called at the end of every `settle()` that found a running app: tests install an oracle
    /// here that compares the screen with the server's truth.
    package var onSettled: (@MainActor (AppSession) async -> Void)?

    /// Stops the services (reverse order) and launches again on the same data: a cold start. The
    /// network stays as it was (a script's `network offline` holds across the restart), so
    /// changes still waiting come back to the conditions they left, with their backoff.
    ///
    /// - Parameter whileStopped: runs after the stop and before the launch: what happens to the
    ///   world while the app is not running (a test moves the clock there).
    package func restart(whileStopped: () -> Void = {}) async throws {
        await settle()
        if let profile = shell?.context.faultControl?.faultProfile { networkAtRestart = profile }
        await stop()
        whileStopped()
        try await launch()
    }

    /// Stops the services in reverse order.
    package func stop() async {
        mutationObservation?.cancel()
        mutationObservation = nil
        reachabilityObservation?.cancel()
        reachabilityObservation = nil
        reachabilityProbe?.cancel()
        reachabilityProbe = nil
        viewerRetryTimer?.cancel()
        viewerRetryTimer = nil
        viewerRetry = nil
        isLoadingViewer = false
        shell?.context.flushDrafts()
        (shell?.context.actions as? MutationActions)?.stop()
        shell = nil
        manager = nil
        if let app {
            await app.stop()
        }
        app = nil
        directoryLock?.release()
        directoryLock = nil
    }

    /// Resizes the frame.
    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        shell?.resize(width: width, height: height)
    }

    /// The current frame as a screen buffer.
    package func render() -> (buffer: ScreenBuffer, cursor: Point?) {
        var buffer = ScreenBuffer(width: width, height: height)
        let cursor = shell?.draw(into: &buffer)
        if firstContentFrame == nil, shell?.showsContent == true, let origin = app?.origin {
            firstContentFrame = ContinuousClock.now - origin
        }
        return (buffer, cursor)
    }

    /// From the start of the first launch to the first frame that showed content (the feed from
    /// the cache or the server), once drawn.
    package private(set) var firstContentFrame: Duration?

    /// The launch trace of the current launch, with the first frame marked.
    package var trace: LaunchTrace? {
        guard var trace = app?.trace else { return nil }
        if let firstContentFrame { trace.mark("firstFrame", at: firstContentFrame) }
        return trace
    }
}

/// A sign-in that failed, with what to do.
package struct SessionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var message: String

    init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
