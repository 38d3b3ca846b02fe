import AppTesting
import Backend
import Composition
import Foundation
import HTTPServer
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
}
