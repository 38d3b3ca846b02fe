import AppRuntime
import AppTesting
import CommandLineKit
import Composition
import Features
import Foundation
import ManifestLint
import Sockets
import Testing
import Wire

/// The guards that keep the two apps apart: each app's registry resolves every socket and its
/// services start and stop cleanly; shared code never names an app; a new optional socket
/// leaves both manifests valid and a new required one fails the app that does not fill it.
@Suite @MainActor struct CompositionGuardScenarios {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    @Test(arguments: ShippedApp.all)
    func everySocketResolves_andEveryEnabledServiceStartsAndStops(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let configuration = try LaunchConfiguration.parse(
            ["--headless", "--data-dir", directories.data, "--backend-dir", directories.backend], app: app.id,
            environment: [:], isTerminal: false)
        try configuration.createDirectories()
        let running = try await AppHost.launch(
            app.definition, values: configuration.launchValues(clock: SystemClock()))
        for socket in app.definition.catalog.sockets {
            #expect(
                running.registry.providers[socket.id] != nil || socket.requirement == .optional,
                "socket \(socket.id) resolves in \(app.id)")
        }
        #expect(running.registry[.branding].appName == (try app.definition.manifest.decode().displayName))
        let started = running.runtime.startedServices
        #expect(Set(started) == Set(running.manifest.serviceIDs))
        let stopped = await running.stop()
        #expect(stopped == started.reversed())
    }

    @Test func sharedCode_namesNoApp() {
        let names = ShippedApp.all.map { app in
            (
                app: app.id,
                names: SharedSourceCheck.names(
                    of: app.definition,
                    displayName: (try? app.definition.manifest.decode().displayName) ?? app.id)
            )
        }
        let problems = SharedSourceCheck(appNames: names).run(
            root: Self.packageRoot, directories: ["Modules", "Sockets"])
        #expect(problems.map(\.description) == [])
    }

    @Test(arguments: ShippedApp.all)
    func aNewOptionalSocket_leavesTheManifestValid(app: ShippedApp) throws {
        let socket = Socket<any Theme>.optional("highlightStyle", summary: "a test socket") {
            StandardTheme()
        }
        let catalog = Catalog.merging([app.definition.catalog, Catalog(sockets: [socket.descriptor])])
        let manifest = try app.definition.manifest.decode()
        #expect(ManifestValidator(catalog: catalog).validate(manifest, expectedApp: app.id) == [])
    }

    @Test func aNewRequiredSocket_failsTheAppThatDoesNotFillIt() throws {
        let socket = Socket<any Theme>.required("storyRing", summary: "a test socket")
        let filling = try #require(ShippedApp.all.first)
        let filler = Provider(id: "\(filling.id).storyRing", fills: socket) { _ in StandardTheme() }
        // Only one app's catalog gets a provider, and only its manifest binds it.
        for app in ShippedApp.all {
            let fills = app.id == filling.id
            var catalog = Catalog.merging([app.definition.catalog, Catalog(sockets: [socket.descriptor])])
            var manifest = try app.definition.manifest.decode()
            if fills {
                catalog = Catalog.merging([catalog, Catalog(providers: [filler])])
                manifest.sockets.append(
                    SocketBinding(
                        socket: "storyRing", provider: filler.id, socketLocation: manifest.socketsLocation,
                        providerLocation: manifest.socketsLocation))
            }
            let problems = ManifestValidator(catalog: catalog).validate(manifest, expectedApp: app.id).map(
                \.description)
            if fills {
                #expect(problems == [])
            } else {
                #expect(
                    problems == [
                        "Manifests/\(app.id).json:5:5: error: required socket 'storyRing' is not bound; add \"storyRing\": \"<provider>\" to \"sockets\" (no provider in the catalog fills it yet)"
                    ])
            }
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func eachOptionalSocketLeftToItsDefault_stillLaunchesAndShowsTheFeed(app: ShippedApp) async throws {
        let optional = app.definition.catalog.sockets.filter { $0.requirement == .optional }.map(\.id)
        #expect(!optional.isEmpty)
        for socket in optional {
            // The shipped manifest without this socket's binding (if it has one).
            let data = Data(app.definition.manifest.contents.utf8)
            var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var sockets = try #require(object["sockets"] as? [String: Any])
            sockets.removeValue(forKey: socket)
            object["sockets"] = sockets
            let text = String(
                decoding: try JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
            let variant = AppDefinition(
                id: app.id, catalog: app.definition.catalog,
                manifest: EmbeddedManifest(path: app.definition.manifest.path, contents: text))

            let composition = try AppHost.compose(variant)
            #expect(composition.registry.providers[socket] == nil, "\(socket) is left to its default")
            let run = await HeadlessHarness.run(
                variant, script: "wait\nframe\n", directories: try TestDirectories.make())
            #expect(run.status == 0, "\(app.id) without \(socket): \(run.errors)")
            #expect(lines(run.lastFrame)[0].hasPrefix(app.titlePrefix))
            #expect(run.lastFrame.contains("▌"), "the feed shows with \(socket) left to its default")
        }
    }

    @Test(arguments: ShippedApp.all)
    func serviceStartOrderAndEventOrder_matchManifestLintsGraph(app: ShippedApp) async throws {
        // What manifest-lint prints for the manifest on disk.
        let output = CapturedTextOutput()
        let status = LintCommand.run(
            arguments: ["graph", "--app", app.id], apps: ShippedApp.all.map(\.definition), output: output,
            currentDirectory: Self.packageRoot)
        #expect(status == 0)
        let report = output.output

        // What the app does when it runs, composed as it ships.
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let running = try #require(session.app)
        let graph = running.composition.graph
        #expect(report == ServiceGraphReport(app: app.id, graph: graph).text)
        for (position, id) in graph.startOrder.enumerated() {
            #expect(report.contains("  \(position + 1). \(id)"))
        }
        // Services finished starting in an order that respects every dependency.
        let finished = running.trace.services.map(\.id)
        for node in graph.nodes {
            for dependency in node.dependencies {
                let need = graph.nodes[dependency].id
                #expect(
                    try #require(finished.firstIndex(of: need)) < #require(finished.firstIndex(of: node.id)))
            }
        }
        // Lifecycle events reach services in the order the lint prints.
        for kind in [LifecycleEvent.foreground, .memoryWarning, .pushReceived(Data("{}".utf8))] {
            let delivered = await running.deliver(kind)
            let line =
                "  \(kind.kind.rawValue): "
                + (delivered.isEmpty ? "(none)" : delivered.joined(separator: " -> "))
            #expect(report.contains(line), "\(line)")
        }
        await session.stop()
    }
}
