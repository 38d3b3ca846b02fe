import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import HTTPServer
import ServerAPI
import TerminalUI
import Testing
import Wire

/// Each app against the backend served over real HTTP (an in-process server on a free port):
/// the same screens as embedded.
@Suite @MainActor struct HTTPScenarios {
    @Test(arguments: ShippedApp.all)
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
        #expect(overHTTP.frames.count == 2)
        #expect(overHTTP.frames == embedded.frames)
        #expect(lines(overHTTP.frames[1])[0].hasPrefix(app.titlePrefix + " · " + app.threadTitle))
    }

    /// A person whose `--server` stops answering sees "offline" in the title bar from the first
    /// request that cannot reach it, keeps what was saved, and sees the marker go with the first
    /// request the server answers again.
    @Test(arguments: ShippedApp.all)
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
