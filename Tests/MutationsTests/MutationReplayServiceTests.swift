@_spi(Testing) import Backend
import Composition
import Foundation
import MediaModel
import Mutations
import Networking
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

@Suite(.timeLimit(mutationSuiteHangLimit)) struct MutationReplayServiceTests {
    static let services = [
        "backend.embedded", "storage.database", "network.client", "feed.cache", "mutations.replay",
    ]

    static func definition() -> AppDefinition {
        networkTestApp(services: services)
    }

    static func values(backend: String, app: String, clock: ManualClock, profile: FaultProfile)
        -> LaunchValues
    {
        var values = LaunchValues()
        values[BackendDirectoryKey.self] = backend
        values[AppDataDirectoryKey.self] = app
        values[BackendClockKey.self] = clock
        values[NetworkClockKey.self] = clock
        values[EmbeddedFaultProfileKey.self] = profile
        var configuration = MutationManager.Configuration()
        configuration.jitterSeed = 3
        values[MutationConfigurationKey.self] = configuration
        return values
    }

    @Test func theService_isInTheCatalog_startsAfterItsDependencies_andReplaysTheJournalOnTheNextLaunch()
        async throws
    {
        // Given an app enabling mutations.replay, launched offline
        let clock = ManualClock()
        let backend = try BackendServer.makeTemporaryDirectory("svc-backend")
        let appDirectory = try BackendServer.makeTemporaryDirectory("svc-app")
        let definition = Self.definition()
        #expect(
            definition.catalog.service("mutations.replay")?.dependencies == [
                "storage.database", "network.client",
            ])
        #expect(definition.catalog.service("mutations.replay")?.optionalDependencies == ["feed.cache"])
        let token = try await AppHost.run(
            definition,
            values: Self.values(backend: backend, app: appDirectory, clock: clock, profile: .offline)
        ) { app in
            let order = app.composition.graph.startOrder
            #expect(
                try #require(order.firstIndex(of: "feed.cache"))
                    < (try #require(order.firstIndex(of: "mutations.replay"))))
            let manager = try #require(app.service(.mutationReplay)).manager
            #expect(manager.isRunning)

            // When a like is made offline and the app stops
            let token = try await manager.enqueue(.like("m7"))
            await manager.waitUntilIdle()
            #expect(manager.record(for: token)?.attempts == 1)
            return token
        }

        // Then the next launch (online, signed in as ada) rebuilds it from the journal and sends it
        let minter = try BackendServer(directory: backend, clock: clock)
        let adaToken = minter.testToken(forHandle: BackendSeed.firstHandle)
        minter.close()
        var online = Self.values(backend: backend, app: appDirectory, clock: clock, profile: .perfect)
        online[ViewerKey.self] = Credentials(token: adaToken)
        try await AppHost.run(definition, values: online) { app in
            let manager = try #require(app.service(.mutationReplay)).manager
            #expect(manager.pending.map(\.token) == [token])
            #expect(manager.mergedFacts(nil, for: "m7").viewerLiked)
            await app.deliver(.foreground)
            await manager.waitUntilIdle()
            #expect(manager.pending.isEmpty)
            let network = try #require(app.service(.networkClient))
            #expect(try await network.client.post("m7").facts["m7"]?.viewerLiked == true)
        }
    }

    @Test func theManager_isUnavailableBeforeStartAndAfterStop() async throws {
        let service = MutationReplayService()
        let error = #expect(throws: MutationError.self) { try service.manager }
        #expect(error?.message.hasPrefix("service 'mutations.replay' is not running") == true)
    }
}
