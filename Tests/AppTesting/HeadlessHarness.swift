import AppRuntime
@_spi(Testing) import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import Synchronization
import TerminalUI
import Testing
import Wire

/// What a headless run printed: its exit status, standard output and error, and each frame.
package struct HeadlessRun: Sendable {
    /// The exit status the app would have returned.
    package var status: Int32
    /// Everything written to standard output.
    package var output: String
    /// Everything written to standard error.
    package var errors: String

    /// What a run printed, with its status.
    package init(status: Int32, output: String, errors: String) {
        self.status = status
        self.output = output
        self.errors = errors
    }

    /// The frames printed by `frame`, in order, without their markers. Reading a frame the run
    /// did not print records an issue and reads as empty text: one app's difference (a script
    /// that stopped early) is one failed case, never a crash of the whole test process.
    package var frames: PrintedFrames { PrintedFrames(all: allFrames) }

    /// (A frame's header names its number, counted from 1 in the order printed, as a person
    /// matching frames to a script's steps reads them; a header out of order records an issue.)
    private var allFrames: [String] {
        var frames: [String] = []
        var current: [Substring]?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--- frame ") {
                let expected = "--- frame \(frames.count + 1) ---"
                if line != expected { Issue.record("a frame's header is '\(line)', not '\(expected)'") }
                current = []
            } else if line == "--- end ---" {
                if let lines = current { frames.append(lines.joined(separator: "\n")) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return frames
    }

    /// The last frame printed.
    package var lastFrame: String { allFrames.last ?? "" }
}

/// The frames a headless run printed, in order. An index past the last records an issue in the
/// running test (naming how many frames there are) and gives empty text instead of trapping.
package struct PrintedFrames: RandomAccessCollection, Equatable, Sendable {
    /// Every frame.
    package let all: [String]

    package var startIndex: Int { all.startIndex }
    package var endIndex: Int { all.endIndex }

    package subscript(position: Int) -> String {
        guard all.indices.contains(position) else {
            Issue.record("frame \(position) was asked for, but the run printed \(all.count) frames")
            return ""
        }
        return all[position]
    }
}

/// Where one test's app keeps its data: its own data directory and a backend directory holding
/// a copy of the default seed (seeded once per test process).
package struct TestDirectories: Sendable {
    /// The app's data directory.
    package let data: String
    /// The backend's directory.
    package let backend: String

    /// Fresh directories with a seeded backend.
    package static func make() throws -> TestDirectories {
        let root = try TestDirectories.root()
        let base = "\(root)/\(UUID().uuidString)"
        let backend = "\(base)/backend"
        try FileManager.default.createDirectory(atPath: backend, withIntermediateDirectories: true)
        let template = try TestDirectories.template()
        try FileManager.default.copyItem(
            atPath: template, toPath: "\(backend)/\((template as NSString).lastPathComponent)")
        return TestDirectories(data: "\(base)/data", backend: backend)
    }

    /// Another app's data directory on the same backend.
    package func sibling() -> TestDirectories {
        TestDirectories(
            data: (data as NSString).deletingLastPathComponent + "/data-\(UUID().uuidString.prefix(8))",
            backend: backend)
    }

    private static let seeded = Mutex<String?>(nil)

    private static func root() throws -> String { try testRoot.get() }

    /// This process's directories: a folder under the backend's test root, which is removed
    /// when the process exits (and swept if the process died), so the seeded copies each scenario
    /// makes (about 5 MB) never pile up.
    private static let testRoot = Result { try BackendServer.makeTemporaryDirectory("app-tests") }

    /// The seeded database file, made once per process.
    private static func template() throws -> String {
        if let path = seeded.withLock({ $0 }) { return path }
        let directory = try root() + "/template-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = try BackendServer(
            directory: directory, seed: BackendSeed.defaultSeed, clock: ManualClock())
        let path = server.databasePath
        server.close()
        return seeded.withLock { current in
            if let current { return current }
            current = path
            return path
        }
    }

    /// Opens the backend these directories hold (to set up data a scenario needs, or to serve it
    /// over HTTP), in demo mode as the embedded backend and `backend-server --demo` run: the seed
    /// accounts sign in with `DemoAccounts.password`.
    package func openBackend() throws -> BackendServer {
        try BackendServer(
            directory: backend, seed: BackendSeed.defaultSeed, clock: ManualClock(), demoMode: true)
    }
}

/// Runs an app's headless mode in process, exactly as `<app> --headless --script -` would.
package enum HeadlessHarness {
    /// Runs `script` against `app` on `directories` and returns what it printed.
    ///
    /// With `oracle` (the default), a ``ScreenOracle`` looks at the app at launch and after every
    /// step, and records an issue in the running test for everything it finds wrong, naming the
    /// app, the script line and the frame.
    @MainActor
    package static func run(
        _ app: AppDefinition, script: String, directories: TestDirectories, width: Int = 80, height: Int = 24,
        extraArguments: [String] = [], oracle: Bool = true
    ) async -> HeadlessRun {
        let output = CapturedTextOutput()
        let observer = oracle ? Self.oracleObserver(for: app) : nil
        let arguments =
            [
                "--headless", "--script", "-", "--width", "\(width)", "--height", "\(height)",
                "--data-dir", directories.data, "--backend-dir", directories.backend,
            ] + extraArguments
        let status = await HeadlessStepObservation.$observer.withValue(observer) {
            await AppLauncher.run(
                app, arguments: arguments, environment: ["HOME": NSTemporaryDirectory()], isTerminal: false,
                output: output, standardInput: { script })
        }
        return HeadlessRun(status: status, output: output.output, errors: output.error)
    }
}

extension HeadlessHarness {
    /// A check that runs the oracle for `app` on a session and records what it finds in the
    /// current test; `place` says where the run is, `settled` whether the app finished its work.
    typealias OracleCheck = @MainActor @Sendable (AppSession, _ place: String, _ settled: Bool) async -> Void

    static func oracleCheck(for app: AppDefinition, allowsDeletionsBehindTheApp: Bool = false) -> OracleCheck
    {
        // The app's rules read from the definition launched, so a test's variant of an app (a
        // socket rebound) is held to what its own registry says.
        let oracle = ScreenOracle(
            app: ShippedApp(app),
            allowsDeletionsBehindTheApp: allowsDeletionsBehindTheApp)
        let off = ProcessInfo.processInfo.environment["LOOM_ORACLE"] == "off"
        return { session, place, settled in
            guard !off else { return }
            let found = await oracle.violations(in: session, settled: settled)
            guard !found.isEmpty else { return }
            Issue.record(
                Comment(
                    rawValue:
                        "\(app.id): the screen disagrees with the server and the pending changes \(place):\n- "
                        + found.joined(separator: "\n- ")
                        + "\n--- frame ---\n\(frame(of: session))\n--- end ---"))
        }
    }

    /// An observer for script runs: the oracle at launch and after every step.
    static func oracleObserver(for app: AppDefinition) -> HeadlessStepObservation.Observer {
        let check = oracleCheck(for: app)
        return { session, step in
            guard let step else { return await check(session, "at launch", false) }
            await check(session, "after script line \(step.line) (\(step.command))", settles(step.command))
        }
    }

    /// Whether the app has finished its work after `command` (so server checks apply).
    static func settles(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .wait, .advance, .event, .push, .resize: true
        default: false
        }
    }
}

/// Makes posts on a backend directly, as other users, for scenarios that need them.
package enum BackendFixtures {
    /// Posts `text` (with `attachments` as raw JSON) as `handle`; returns the new media id.
    @discardableResult
    package static func post(
        on server: BackendServer, as handle: String, text: String, attachmentsJSON: String = "[]"
    ) async throws -> String {
        let body = "{\"text\": \(jsonString(text)), \"attachments\": \(attachmentsJSON)}"
        let result = try await send(.post, "/v1/posts", body: body, as: handle, on: server, expecting: 201)
        guard let id = result.media?.id else { throw FixtureError("the post came back without a media id") }
        return id.rawValue
    }

    /// Replies to `mediaID` as `handle`; returns the reply's media id.
    @discardableResult
    package static func reply(on server: BackendServer, as handle: String, to mediaID: String, text: String)
        async throws
        -> String
    {
        let body = "{\"text\": \(jsonString(text))}"
        let result = try await send(
            .post, "/v1/posts/\(mediaID)/replies", body: body, as: handle, on: server, expecting: 201)
        guard let id = result.media?.id else { throw FixtureError("the reply came back without a media id") }
        return id.rawValue
    }

    /// Reposts `mediaID` as `handle`.
    package static func repost(on server: BackendServer, as handle: String, _ mediaID: String) async throws {
        _ = try await send(
            .put, "/v1/posts/\(mediaID)/repost", body: nil, as: handle, on: server, expecting: 200)
    }

    /// Deletes `mediaID`, as its author `handle`.
    package static func delete(on server: BackendServer, as handle: String, _ mediaID: String) async throws {
        _ = try await send(.delete, "/v1/posts/\(mediaID)", body: nil, as: handle, on: server, expecting: 200)
    }

    /// Sends a request that checks a password, waiting and asking again while the server says
    /// too many are waiting (429 or 503, with `Retry-After`), as a client does, for at most a
    /// minute. The gate that checks passwords is one per process (one machine's cores), so the
    /// backends of scenarios running at once share it, and their sign-ins come from one address.
    static func sendWaitingForPasswordChecks(_ request: Request, on server: BackendServer) async -> Response {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let response = await server.handle(request)
            guard response.status == 429 || response.status == 503, ContinuousClock.now < deadline else {
                return response
            }
            let seconds = response.headers["Retry-After"].flatMap(Double.init) ?? 0.2
            try? await Task.sleep(for: .milliseconds(Int(min(max(seconds, 0.05), 2) * 1000)))
        }
    }

    /// Makes an account `handle` protected by `password` (as a person would through onboarding),
    /// with `bio` when given (onboarding asks for none; only the API sets one).
    package static func createAccount(
        on server: BackendServer, handle: String, displayName: String, bio: String? = nil,
        password: String = "fixture-password"
    ) async throws {
        let body =
            "{\"handle\": \(jsonString(handle)), \"displayName\": \(jsonString(displayName)), "
            + (bio.map { "\"bio\": \(jsonString($0)), " } ?? "")
            + "\"password\": \(jsonString(password))}"
        let response = await sendWaitingForPasswordChecks(
            Request(
                .post, "/v1/accounts",
                headers: [
                    "Idempotency-Key": "fixture-\(UUID().uuidString)", "Content-Type": "application/json",
                ],
                body: Data(body.utf8)), on: server)
        guard response.status == 201 else {
            throw FixtureError(
                "POST /v1/accounts answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
    }

    /// Signs in as `handle` with `password` through `POST /v1/sessions` and saves the session in
    /// `dataDirectory`, as onboarding would have: the next launch there is that account (a
    /// non-demo account, which `--user` cannot sign in).
    package static func signIn(
        on server: BackendServer, handle: String, password: String = "fixture-password",
        savingIn dataDirectory: String
    ) async throws {
        let body = "{\"handle\": \(jsonString(handle)), \"password\": \(jsonString(password))}"
        let response = await sendWaitingForPasswordChecks(
            Request(
                .post, "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data(body.utf8)),
            on: server)
        guard response.status == 200 else {
            throw FixtureError(
                "POST /v1/sessions answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
        let session = try WireFormat.decode(Session.self, from: response.body).payload
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        try SessionStore(dataDirectory: dataDirectory).save(SessionStore.Saved(session))
    }

    /// Makes `handle` follow the seed user `followee` (so the followee's posts reach their home
    /// feed).
    package static func follow(on server: BackendServer, as handle: String, _ followee: String) async throws {
        guard let index = BackendSeed.handles.firstIndex(of: followee) else {
            throw FixtureError("'\(followee)' is not a seed user; the seed has \(BackendSeed.handles.count)")
        }
        _ = try await send(
            .put, "/v1/users/u\(index + 1)/follow", body: nil, as: handle, on: server, expecting: 200)
    }

    /// Likes `mediaID` as `handle`.
    package static func like(on server: BackendServer, as handle: String, _ mediaID: String) async throws {
        _ = try await send(
            .put, "/v1/posts/\(mediaID)/like", body: nil, as: handle, on: server, expecting: 200)
    }

    static func send(
        _ method: HTTPMethod, _ path: String, body: String?, as handle: String, on server: BackendServer,
        expecting status: Int
    ) async throws -> MutationResult {
        var headers: Headers = [
            "Authorization": "Bearer \(server.testToken(forHandle: handle))",
            "Idempotency-Key": "fixture-\(UUID().uuidString)",
        ]
        if body != nil { headers["Content-Type"] = "application/json" }
        let response = await server.handle(
            Request(method, path, headers: headers, body: Data((body ?? "").utf8)))
        guard response.status == status else {
            throw FixtureError(
                "\(method.rawValue) \(path) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
        return try WireFormat.decode(MutationResult.self, from: response.body).payload
    }

    /// A small photo attachment (a 4x4 checkerboard), as wire JSON.
    package static let photoJSON: String = {
        var rgb: [UInt8] = []
        for index in 0..<16 {
            let light = (index + index / 4) % 2 == 0
            rgb += light ? [220, 120, 40] : [30, 60, 140]
        }
        let pixels = Data(rgb).base64EncodedString()
        return "[{\"type\": \"photo\", \"width\": 1080, \"height\": 1080, \"pixels\": "
            + "{\"width\": 4, \"height\": 4, \"rgb\": \"\(pixels)\"}}]"
    }()

    static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}

/// A fixture that could not be set up.
package struct FixtureError: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension HeadlessHarness {
    /// A launched headless session of `app` on `directories` (manual clock, instant network, 24-bit
    /// color unless `colorMode` says otherwise), for scenarios that drive screens directly. Stop it
    /// when done.
    ///
    /// With `oracle` (the default), a ``ScreenOracle`` looks at the app at the end of every
    /// `settle()` and records an issue in the running test for everything it finds wrong.
    /// `deletesBehindTheApp` tells it the scenario deletes posts on the server while the app runs.
    @MainActor
    package static func session(
        _ app: AppDefinition, directories: TestDirectories, width: Int = 80, height: Int = 24,
        extraArguments: [String] = [], colorMode: ColorMode = .trueColor, oracle: Bool = true,
        deletesBehindTheApp: Bool = false
    ) async throws -> (session: AppSession, clock: ManualClock) {
        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--data-dir", directories.data, "--backend-dir", directories.backend]
                + extraArguments,
            app: app.id, environment: ["HOME": NSTemporaryDirectory()], isTerminal: false)
        let clock = ManualClock()
        let session = AppSession(
            definition: app, configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock),
            colorMode: colorMode, width: width, height: height)
        if oracle {
            let check = oracleCheck(for: app, allowsDeletionsBehindTheApp: deletesBehindTheApp)
            session.onSettled = { session in await check(session, "after a settle", true) }
        }
        try await session.launch()
        await session.settle()
        return (session, clock)
    }

    /// Shows onboarding over `session`, as a first launch does, and waits for its accounts;
    /// `onDone` gets the session it signs in.
    @MainActor
    package static func presentOnboarding(
        in session: AppSession, onDone: @escaping @MainActor (Session) -> Void = { _ in }
    ) async throws -> OnboardingScreen {
        guard let shell = session.shell else {
            throw FixtureError("the session has no shell; launch it first")
        }
        let onboarding = OnboardingScreen(context: shell.context, onDone: onDone)
        shell.presentModal(onboarding)
        await session.settle()
        return onboarding
    }

    /// Opens the signed-in account's own profile (its tab) and returns it once it has loaded.
    @MainActor
    package static func openOwnProfile(in session: AppSession) async throws -> ProfileScreen {
        guard let shell = session.shell else {
            throw FixtureError("the session has no shell; launch it first")
        }
        shell.openTab(.profile)
        await session.settle()
        guard let profile = shell.currentScreen as? ProfileScreen else {
            throw FixtureError("the profile tab shows no profile: \(frame(of: session))")
        }
        return profile
    }

    /// The session's frame as plain text.
    @MainActor
    package static func frame(of session: AppSession) -> String {
        HeadlessRenderer.text(of: session.render().buffer)
    }
}

extension AppContext {
    /// The mutation manager behind `mutations` (screens read it as `PendingChanges`), for
    /// scenarios that look into the journal: what is pending, failed, held or confirmed.
    package var manager: MutationManager {
        guard let manager = mutations as? MutationManager else {
            preconditionFailure(
                "this context's changes are a \(type(of: mutations)), not the app's MutationManager")
        }
        return manager
    }
}
