@_spi(Testing) import Backend
import Composition
import FeedCaching
import Foundation
import MediaModel
import Networking
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

@Suite struct ServiceCompositionTests {
    static let services = ["backend.embedded", "storage.database", "network.client", "feed.cache"]

    static func definition(services: [String] = services) -> AppDefinition {
        networkTestApp(services: services)
    }

    /// Launch values for one app over a backend directory both launches share.
    static func values(
        backend: String, app: String, clock: ManualClock, profile: FaultProfile = .perfect,
        viewer: Credentials? = nil
    ) -> LaunchValues {
        var values = LaunchValues()
        values[BackendDirectoryKey.self] = backend
        values[AppDataDirectoryKey.self] = app
        values[BackendClockKey.self] = clock
        values[NetworkClockKey.self] = clock
        values[EmbeddedFaultProfileKey.self] = profile
        values[ViewerKey.self] = viewer
        return values
    }

    /// Signs `app`'s client in as `handle` with the demo password (the embedded backend is in demo
    /// mode) and makes the feed cache that viewer's, as the app's launcher does.
    @discardableResult
    static func signIn(_ app: RunningApp, as handle: String = "ada") async throws -> Credentials {
        let network = try #require(app.service(.networkClient))
        let session = try await network.client.signIn(handle: handle, password: DemoAccounts.password)
        let credentials = Credentials(session: session.payload)
        network.signIn(credentials)
        try app.service(.feedCache)?.cache.prepare(viewer: network.viewerIdentity)
        return credentials
    }

    @Test func theServices_startInDependencyOrderAndStopInReverse() async throws {
        // Given both catalogs and a manifest enabling all four services
        let clock = ManualClock()
        let values = Self.values(
            backend: try BackendServer.makeTemporaryDirectory("svc-backend"),
            app: try BackendServer.makeTemporaryDirectory("svc-app"), clock: clock)

        // When the app launches
        let app = try await AppHost.launch(Self.definition(), values: values)
        let order = app.composition.graph.startOrder

        // Then dependencies start first and every service works
        #expect(Set(order) == Set(Self.services))
        #expect(
            try #require(order.firstIndex(of: "backend.embedded"))
                < (try #require(order.firstIndex(of: "network.client"))))
        #expect(
            try #require(order.firstIndex(of: "network.client"))
                < (try #require(order.firstIndex(of: "feed.cache"))))
        #expect(
            try #require(order.firstIndex(of: "storage.database"))
                < (try #require(order.firstIndex(of: "feed.cache"))))
        let network = try #require(app.service(.networkClient))
        #expect(network.transportSourceID == "backend.embedded")
        #expect(network.client.credentials == nil, "nobody is signed in until the launcher signs in")
        try await Self.signIn(app)
        #expect(try await network.client.me().payload.user.handle == "ada")
        let cacheService = try #require(app.service(.feedCache))
        let merge = try await cacheService.cache.refresh()
        #expect(merge.count == 20)
        #expect(network.mediaStore.count > 0)

        // and stopping takes them down in reverse, closing the databases
        let database = try #require(app.service(.appDatabase))
        let stopped = await app.stop()
        #expect(Set(stopped) == Set(Self.services))
        func stopsBefore(_ dependent: String, _ dependency: String) -> Bool {
            (stopped.firstIndex(of: dependent) ?? .max) < (stopped.firstIndex(of: dependency) ?? .min)
        }
        #expect(stopsBefore("feed.cache", "network.client"))
        #expect(stopsBefore("feed.cache", "storage.database"))
        #expect(stopsBefore("network.client", "backend.embedded"))
        #expect(throws: AppDatabaseError.self) { try database.database }
        #expect(throws: FeedCacheError.self) { try cacheService.cache }
    }

    @Test func aSecondLaunchOffline_showsTheFirstLaunchesFeedFromTheCache() async throws {
        let clock = ManualClock()
        let backend = try BackendServer.makeTemporaryDirectory("svc-backend")
        let appDirectory = try BackendServer.makeTemporaryDirectory("svc-app")
        let (shown, credentials) = try await AppHost.run(
            Self.definition(), values: Self.values(backend: backend, app: appDirectory, clock: clock)
        ) {
            app in
            let credentials = try await Self.signIn(app)
            let cache = try #require(app.service(.feedCache)).cache
            try await cache.refresh()
            return (try cache.entries(from: 0, count: 20).map(\.entry), credentials)
        }

        let offline = Self.values(
            backend: backend, app: appDirectory, clock: clock, profile: .offline, viewer: credentials)
        try await AppHost.run(Self.definition(), values: offline) { app in
            let cache = try #require(app.service(.feedCache)).cache
            let screen = try cache.firstScreen(width: 80, rows: 200)
            #expect(screen.entries.map(\.entry) == shown)
            await #expect(throws: TransportError.self) { try await cache.refresh() }
            let control = try #require(app.service(.embeddedBackend)?.embeddedTransport)
            #expect(control.faultProfile == .offline)
            control.setFaultProfile(.perfect)
            #expect(try await cache.refresh().count >= 20)
        }
    }

    @Test func theLaunchersViewer_isWhoTheClientSignsInAs_andTheCacheFollowsTheViewer() async throws {
        let clock = ManualClock()
        let backend = try BackendServer.makeTemporaryDirectory("svc-backend")
        let appDirectory = try BackendServer.makeTemporaryDirectory("svc-app")
        try await AppHost.run(
            Self.definition(), values: Self.values(backend: backend, app: appDirectory, clock: clock)
        ) { app in
            try await Self.signIn(app)
            let cache = try #require(app.service(.feedCache)).cache
            try await cache.refresh()
        }
        let minter = try BackendServer(directory: backend, clock: clock)
        let graceToken = minter.testToken(forHandle: "grace")
        minter.close()
        let asGrace = Self.values(
            backend: backend, app: appDirectory, clock: clock, viewer: Credentials(token: graceToken))
        try await AppHost.run(Self.definition(), values: asGrace) { app in
            let network = try #require(app.service(.networkClient))
            let me = try await network.client.me()
            #expect(me.payload.user.handle == "grace")
            let cache = try #require(app.service(.feedCache)).cache
            #expect(try cache.count == 0)
        }
    }

    @Test func withTheEmbeddedBackendDisabledAndNoOtherSource_theClientSaysWhy() async throws {
        var values = Self.values(
            backend: try BackendServer.makeTemporaryDirectory("svc-backend"),
            app: try BackendServer.makeTemporaryDirectory("svc-app"), clock: ManualClock())
        values[EmbeddedBackendEnabledKey.self] = false
        do {
            _ = try await AppHost.launch(Self.definition(), values: values)
            Issue.record("the launch succeeded without a transport")
        } catch {
            #expect(error.failedService == "network.client")
            #expect(
                error.description.contains(
                    "found no transport: none of its transport sources ('backend.embedded') offers one"))
            #expect(error.stoppedServices.contains("backend.embedded"))
        }
    }

    @Test func aManifestMissingADependency_isRejectedBeforeAnythingStarts() async throws {
        let definition = Self.definition(services: ["storage.database", "feed.cache"])
        await #expect {
            _ = try await AppHost.launch(definition)
        } throws: { error in
            String(describing: error).contains("'feed.cache'")
                && String(describing: error).contains("'network.client'")
        }
    }
}
