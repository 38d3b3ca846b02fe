import AppRuntime
import AppTesting
import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import HTTPServer
import ServerAPI
import Synchronization
import TerminalUI
import Testing
import Wire

/// Each app against the backend served over real HTTP (an in-process server on a free port):
/// the same screens as embedded.
@Suite @MainActor struct HTTPScenarios {
    @Test(arguments: ShippedApp.withHome)
    func overHTTP_theAppShowsTheSameFeedAsEmbedded(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            await backend.handle(request)
        }

        let overHTTP = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey enter\nwait\nframe\n", directories: directories,
            extraArguments: ["--server", server.baseURL.absoluteString])
        _ = await server.shutdown(gracePeriod: .seconds(2))
        backend.close()
        let embedded = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\nkey enter\nwait\nframe\n",
            directories: directories.sibling())

        #expect(overHTTP.status == 0, "\(overHTTP.errors)")
        try #require(overHTTP.frames.count == 2, "\(overHTTP.errors)")
        #expect(overHTTP.frames == embedded.frames)
        #expect(lines(overHTTP.frames[1])[0].hasPrefix(app.titlePrefix + " · " + app.threadTitle))
    }

    /// A headless script over a real server with simulated slow or flaky conditions makes
    /// progress and prints its frames: the simulated latency passes within a `wait`, as it does
    /// over the embedded backend, instead of sleeping on the script's clock, which only `advance`
    /// moves (the run hung before printing a frame). On the slow network, two runs print the same
    /// frames. On the flaky one they need not: its seeded draws are taken in the order requests
    /// are sent, and the photo fetches that start beside a thread's load make that order differ
    /// from run to run, so which request meets a 503 differs too (it failed about one run in
    /// three). Each run must still print both frames.
    @Test(arguments: ShippedApp.withHome, ["slow", "flaky"])
    func overHTTP_slowOrFlakyNetwork_aScriptPrintsTheSameFramesEveryRun(app: ShippedApp, network: String)
        async throws
    {
        // Given the same script run twice, each against its own server on the same seed
        var runs: [HeadlessRun] = []
        for _ in 0..<2 {
            let directories = try TestDirectories.make()
            let backend = try directories.openBackend()
            let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
                await backend.handle(request)
            }
            // When it waits, prints the feed, opens the first post and prints it
            runs.append(
                try await runRescuingAHang(
                    app, script: "wait\nframe\nkey enter\nwait\nframe\n",
                    arguments: [
                        "--data-dir", directories.data, "--server", server.baseURL.absoluteString, "--user",
                        "ada",
                        "--network", network,
                    ]))
            _ = await server.shutdown(gracePeriod: .seconds(2))
            backend.close()
        }

        // Then both frames are printed, showing the feed and then a post, the same each run
        for run in runs {
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.frames.count == 2)
        }
        if network == "slow" { #expect(runs[0].frames == runs[1].frames) }
        let feed = lines(try #require(runs[0].frames.first))
        #expect(feed[0].hasPrefix(app.titlePrefix + " · Home"), "\(feed[0])")
        if network == "slow" {
            #expect(
                feed.filter { $0.contains(" · ") }.count > 3,
                "the feed shows posts:\n\(feed.joined(separator: "\n"))")
        }
    }

    /// Runs `script` headless with `arguments`, as `AppLauncher` does. A run that prints no frame
    /// for 5 minutes of real time is stuck on its manual clock: that is recorded as a failure, and
    /// the clock is then moved on until the run ends, so the suite goes on.
    private func runRescuingAHang(_ app: ShippedApp, script text: String, arguments: [String]) async throws
        -> HeadlessRun
    {
        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--script", "-"] + arguments, app: app.id,
            environment: ["HOME": NSTemporaryDirectory()], isTerminal: false)
        let output = CapturedTextOutput()
        let runner = HeadlessRunner(
            definition: app.definition, configuration: configuration,
            script: try HeadlessScript.parse(text, name: "<stdin>"), scriptName: "<stdin>", output: output)
        let clock = try #require(
            (runner.appSession.networkClock as? InstantNetworkClock)?.base as? ManualClock)
        let finished = Mutex(false)
        let run = Task {
            let status = await runner.run()
            finished.withLock { $0 = true }
            return status
        }
        // Progress is a frame printed; a run on a loaded machine (every @MainActor scenario shares
        // the main actor, and eight busy loops may share the cores) can take long, so only a
        // quarter of an hour without one counts as stuck: a hang guard, never a time limit.
        var lastProgress = (ContinuousClock.now, 0)
        while !finished.withLock({ $0 }) && ContinuousClock.now - lastProgress.0 < .seconds(900) {
            try await Task.sleep(for: .milliseconds(50))
            let frames = output.output.components(separatedBy: "--- end ---").count - 1
            if frames > lastProgress.1 { lastProgress = (ContinuousClock.now, frames) }
        }
        if !finished.withLock({ $0 }) {
            Issue.record(
                "the script printed \(lastProgress.1) frames, then none for 15 minutes: it is stuck until its clock moves"
            )
        }
        while !finished.withLock({ $0 }) {
            clock.advance(by: .seconds(5))
            try await Task.sleep(for: .milliseconds(10))
        }
        let status = await run.value
        return HeadlessRun(status: status, output: output.output, errors: output.error)
    }

    /// A person who signed in once and launches again while the server is down starts from the
    /// saved session and the cache, offline: the same feed, a like kept pending, and once the
    /// server answers again, the like is sent and the marker goes, without anything from them.
    /// (The launch used to exit 1, trying to sign in, and the cached feed was dropped.)
    @Test(arguments: ShippedApp.withHome)
    func serverDownAtLaunch_startsOfflineFromTheSavedSessionAndCache_thenSendsWhatIsPending(app: ShippedApp)
        async throws
    {
        // Given a person who signed in once over HTTP, which cached the feed and saved the session
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        defer { backend.close() }
        var server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            await backend.handle(request)
        }
        let port = try #require(server.baseURL.port)
        let url = server.baseURL.absoluteString
        let online = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories, height: 60,
            extraArguments: ["--server", url, "--user", "ada"])
        #expect(online.status == 0, "\(online.errors)")
        let onlineFeed = lines(online.lastFrame)

        // And, with the server down, a launch as another account, which cannot sign in
        _ = await server.shutdown(gracePeriod: .seconds(2))
        let refused = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories, height: 60,
            extraArguments: ["--server", url, "--user", "grace"])
        #expect(refused.status == 1)
        #expect(
            refused.errors
                == "\(app.definition.id): error: cannot sign in as @grace: the backend cannot be reached (the network "
                + "is offline); try again when it is back\n")

        // When the app launches again, without --user
        let launch = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: directories, height: 60,
            extraArguments: ["--server", url])

        // Then it runs, offline, showing the same cached feed in the same order
        #expect(launch.status == 0, "\(launch.errors)")
        let offlineFeed = lines(launch.lastFrame)
        #expect(offlineFeed.first?.contains(" offline") == true, "\(offlineFeed.first ?? "")")
        #expect(offlineFeed.count == onlineFeed.count)
        #expect(offlineFeed.dropFirst(2).dropLast(2) == onlineFeed.dropFirst(2).dropLast(2))

        // When the person likes the first post, still offline
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 60, extraArguments: ["--server", url])
        defer { Task { await session.stop() } }
        _ = session.shell?.handle(.character("l"))
        await session.settle()
        _ = session.shell?.handle(.character(app.syncKey))
        await session.settle()
        let pending = HeadlessHarness.frame(of: session)
        #expect(pending.contains("Changes: 1 pending, 0 failed"), "\(pending)")

        // And the server comes back and answers a request in the background (the events poll)
        server = try HTTPServer.start(HTTPServer.Configuration(port: port)) { request in
            await backend.handle(request)
        }
        defer { Task { _ = await server.shutdown(gracePeriod: .seconds(2)) } }
        _ = try await #require(session.shell).context.client.events(after: "latest")
        await session.settle()

        // Then the like is sent, with no key pressed and no time passing, and the marker is gone
        let sent = HeadlessHarness.frame(of: session)
        #expect(sent.contains("Changes: 0 pending, 0 failed"), "\(sent)")
        // and the title bar names the viewer, whom the offline launch could not ask for
        #expect(lines(sent).first?.hasSuffix(" @ada") == true, "\(lines(sent).first ?? "")")
        #expect(lines(sent).first?.contains("offline") == false, "\(lines(sent).first ?? "")")
    }

    /// A person whose `--server` stops answering sees "offline" in the title bar from the first
    /// request that cannot reach it, keeps what was saved, and sees the marker go with the first
    /// request the server answers again.
    @Test(arguments: ShippedApp.withHome)
    func serverStopped_titleBarSaysOffline_untilTheServerAnswersAgain(app: ShippedApp) async throws {
        // Given an app on a backend server
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        defer { backend.close() }
        var server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            await backend.handle(request)
        }
        let port = try #require(server.baseURL.port)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories,
            extraArguments: ["--server", server.baseURL.absoluteString])
        defer { Task { await session.stop() } }
        let online = lines(HeadlessHarness.frame(of: session))
        #expect(!online[0].contains("offline"), "\(online[0])")

        // When the server stops and the person refreshes (↑ at the top)
        _ = await server.shutdown(gracePeriod: .seconds(2))
        _ = session.shell?.handle(.up)
        await session.settle()
        let offline = lines(HeadlessHarness.frame(of: session))

        // Then the title bar says offline, right before the viewer, the saved posts stay, and the
        // status line says what happened (no "refreshing…" left over)
        let viewer = try #require(online[0].split(separator: " ").last)
        #expect(offline[0].hasSuffix("offline \(viewer)"), "title bar: \(offline[0])")
        #expect(offline[2..<(offline.count - 2)] == online[2..<(online.count - 2)], "the saved feed stays")
        #expect(offline[offline.count - 2] == "offline: showing what was saved; could not refresh")

        // When the server is back
        server = try HTTPServer.start(HTTPServer.Configuration(port: port)) { request in
            await backend.handle(request)
        }
        defer { Task { _ = await server.shutdown(gracePeriod: .seconds(2)) } }

        // And a request in the background is answered (the events poll), before any key
        _ = try await #require(session.shell).context.client.events(after: "latest")
        await session.settle()

        // Then the marker and the failed refresh's message are gone: the online frame again
        #expect(lines(HeadlessHarness.frame(of: session)) == online)

        // And a refresh keeps it so
        _ = session.shell?.handle(.up)
        await session.settle()
        let back = lines(HeadlessHarness.frame(of: session))

        #expect(back == online)
    }
}
