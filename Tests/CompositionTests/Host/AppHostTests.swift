import Composition
import Foundation
import Testing

@Suite struct AppHostTests {
    @Test func launch_startsServicesAndRecordsATrace() async throws {
        let log = EventLog()
        let app = try await AppHost.launch(Fixtures.definition(log: log))
        #expect(app.runtime.startedServices.count == 4)
        #expect(Set(app.trace.services.map(\.id)) == ["storage", "network", "feed", "push"])
        #expect(app.trace.criticalPath.first == "storage")
        #expect(["feed", "push"].contains(app.trace.criticalPath.last ?? ""))
        #expect(app.trace.offset(of: "services") != nil)
        #expect(app.trace.total >= app.trace.offset(of: "compose") ?? .zero)
        #expect(app.trace.formatted.contains("critical path: storage -> network"))
        await app.stop()
    }

    @Test func invalidManifest_failsBeforeAnyServiceStarts() async {
        let log = EventLog()
        let broken = Fixtures.validManifest.replacingOccurrences(
            of: "\"demo.greeting\"", with: "\"demo.greting\"")
        await #expect {
            _ = try await AppHost.launch(Fixtures.definition(broken, log: log))
        } throws: { error in
            (error as? LaunchError)?.description == """
                invalid manifest (1 error):
                Manifests/demo.json:6:21: error: socket 'greeting' is bound to unknown provider 'demo.greting'; did you mean 'demo.greeting'?
                """
        }
        #expect(log.all.isEmpty)
    }

    @Test func manifestForAnotherApp_failsTheLaunch() async {
        let definition = AppDefinition(
            id: "elsewhere", catalog: Fixtures.catalog(),
            manifest: EmbeddedManifest(path: "Manifests/demo.json", contents: Fixtures.validManifest))
        await #expect(throws: LaunchError.self) { _ = try await AppHost.launch(definition) }
    }

    @Test func serviceSeesItsDeclaredDependencyButNotOthers() async throws {
        final class Reader: Service {
            let outcome = EventLog()
            func start(_ context: ServiceContext) async throws {
                let storage = try context.service(ServiceKey<ScriptedService>("storage"))
                outcome.record("storage:\(storage.id)")
                do {
                    _ = try context.service(ServiceKey<ScriptedService>("network"))
                } catch {
                    outcome.record(error.message)
                }
            }
        }
        let reader = Reader()
        let log = EventLog()
        let catalog = Catalog.merging([
            Fixtures.sockets, Fixtures.providers, Fixtures.services(log),
            Catalog(services: [
                // (a start limit far beyond a loaded machine's slowest start: a hang guard only)
                ServiceDefinition(
                    ServiceKey<Reader>("reader"), dependencies: ["storage"], startTimeout: .seconds(600)
                ) { _ in reader }
            ]),
        ])
        let manifest = Fixtures.validManifest.replacingOccurrences(
            of: "\"feed\", {", with: "\"feed\", \"reader\", {")
        let app = try await AppHost.launch(Fixtures.definition(manifest, catalog: catalog))
        #expect(
            reader.outcome.all == [
                "storage:storage",
                "service 'reader' uses service 'network' without depending on it; add \"network\" to its dependencies",
            ])
        #expect(app.service(ServiceKey<Reader>("reader")) === reader)
        await app.stop()
    }

    @Test func optionalDependency_isSeenWhenEnabled_andNilWhenNot() async throws {
        final class Reader: Service {
            let outcome = EventLog()
            func start(_ context: ServiceContext) async throws {
                let feed = try context.optionalService(ServiceKey<ScriptedService>("feed"))
                outcome.record("feed:\(feed?.id ?? "none")")
            }
        }
        for (services, expected) in [
            ("\"storage\", \"network\", \"feed\", \"reader\"", "feed:feed"),
            ("\"storage\", \"reader\"", "feed:none"),
        ] {
            let reader = Reader()
            let catalog = Catalog.merging([
                Fixtures.sockets, Fixtures.providers, Fixtures.services(EventLog()),
                Catalog(services: [
                    ServiceDefinition(
                        ServiceKey<Reader>("reader"), dependencies: ["storage"],
                        optionalDependencies: ["feed"],
                        startTimeout: .seconds(600)
                    ) { _ in reader }
                ]),
            ])
            let manifest = Fixtures.validManifest.replacingOccurrences(
                of: "\"storage\", \"network\", \"feed\", {\"id\": \"push\", \"events\": [\"pushReceived\"]}",
                with: services)
            #expect(manifest != Fixtures.validManifest)
            let app = try await AppHost.launch(Fixtures.definition(manifest, catalog: catalog))
            #expect(reader.outcome.all == [expected])
            await app.stop()
        }
    }

    @Test func launchValues_reachServices() async throws {
        enum Greeting: LaunchValueKey { static let defaultValue = "default" }
        final class Echo: Service {
            let seen = EventLog()
            func start(_ context: ServiceContext) async throws { seen.record(context.values[Greeting.self]) }
        }
        let echo = Echo()
        let catalog = Catalog.merging([
            Fixtures.sockets, Fixtures.providers, Fixtures.services(EventLog()),
            Catalog(services: [ServiceDefinition(ServiceKey<Echo>("echo")) { _ in echo }]),
        ])
        var values = LaunchValues()
        values[Greeting.self] = "from the launcher"
        let manifest = Fixtures.validManifest.replacingOccurrences(
            of: "\"feed\", {", with: "\"feed\", \"echo\", {")
        let app = try await AppHost.launch(Fixtures.definition(manifest, catalog: catalog), values: values)
        #expect(echo.seen.all == ["from the launcher"])
        #expect(LaunchValues()[Greeting.self] == "default")
        await app.stop()
    }
}
