import AllApps
import AppRuntime
import CommandLineKit
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import Testing

/// Each app as shipped: its embedded manifest, its catalog, its own providers.
@Suite struct AppCompositionTests {
    static let apps = AllApps.definitions

    @Test(arguments: apps)
    func embeddedManifest_isValidAgainstTheAppsCatalog(app: AppDefinition) throws {
        let manifest = try app.manifest.decode()
        #expect(manifest.app == app.id)
        #expect(manifest.file == "Manifests/\(app.id).json")
        #expect(ManifestValidator(catalog: app.catalog).validate(manifest, expectedApp: app.id) == [])
    }

    @Test(arguments: apps)
    func everySocket_resolvesToTheAppsOwnProviderOrADefault(app: AppDefinition) throws {
        let composition = try AppHost.compose(app)
        for socket in app.catalog.sockets {
            let provider = composition.registry.providers[socket.id]
            if socket.requirement == .required {
                #expect(provider?.hasPrefix("\(app.id).") == true, "socket \(socket.id) in \(app.id)")
            } else {
                #expect(provider == nil || provider?.hasPrefix("\(app.id).") == true)
            }
        }
        #expect(composition.registry[.branding].appName == (try app.manifest.decode().displayName))
    }

    /// What an app is comes from its providers: its registry's contracts are the ones its own
    /// catalog's providers make, so two apps differ exactly where their manifests bind different
    /// providers.
    @Test(arguments: apps)
    func theAppsContracts_areItsProviders(app: AppDefinition) throws {
        let registry = try AppHost.compose(app).registry
        let layout = registry[.postLayout]
        #expect(Set(layout.rows).count == layout.rows.count, "a post layout lists each row once")
        #expect(registry[.composerPolicy].textLimit > 0)
        #expect(!registry[.tabs].tabs.isEmpty)
        for (socket, provider) in registry.providers {
            #expect(app.catalog.provider(provider)?.socket.id == socket, "\(app.id): \(socket) ← \(provider)")
        }
    }

    /// An app whose tabs show no Home feed (its first tab an inbox) enables no feed service, and
    /// launches all the same: `--describe` lists no `feed.` service, and the shell opens on its
    /// first tab.
    @Test(
        arguments: apps.filter { app in
            (try? AppHost.compose(app).registry[.tabs].tabs.contains { $0.destination == .home }) == false
        })
    func anAppWithoutAHomeFeed_enablesNoFeedService_andStillLaunches(app: AppDefinition) async throws {
        let manifest = try app.manifest.decode()
        #expect(
            !manifest.services.contains { $0.id.hasPrefix("feed.") },
            "\(app.id): \(manifest.services.map(\.id))")

        let (status, output) = await Self.describe(app)
        #expect(status == 0)
        #expect(output.contains("mutations.replay"), "changes are still sent: \(output)")
        #expect(!output.contains("feed."), "no feed service: \(output)")
    }

    /// What `<app> --describe` prints, and its exit status, on a data directory of its own.
    static func describe(_ app: AppDefinition) async -> (status: Int32, output: String) {
        let output = CapturedTextOutput()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apps-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let status = await AppLauncher.run(
            app, arguments: ["--describe", "--data-dir", directory], output: output)
        return (status, output.output)
    }

    @Test(arguments: apps)
    func describe_printsTheAppsComposition(app: AppDefinition) async throws {
        let (status, text) = await Self.describe(app)
        #expect(status == 0)
        let displayName = try app.manifest.decode().displayName
        #expect(text.hasPrefix("\(displayName) "))
        #expect(text.contains("branding        \(app.id).branding"))
        #expect(text.contains("service start order:"))
        #expect(text.contains("1. storage.database"))
        #expect(text.contains("critical path:"))
        #expect(text.contains("launch trace"))
    }

    /// `--describe` only tells: it makes no data or backend directory, and seeds nothing.
    @Test(arguments: apps)
    func describe_leavesNoTraceOnDisk(app: AppDefinition) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "describe-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(
            app, arguments: ["--describe", "--data-dir", root + "/data", "--backend-dir", root + "/backend"],
            output: output)
        #expect(status == 0)
        #expect(output.output.contains("service start order:"))
        #expect(!FileManager.default.fileExists(atPath: root), "\(app.id) --describe wrote \(root)")
    }

    @Test(arguments: apps)
    func version_printsNameAndVersion(app: AppDefinition) async throws {
        let output = CapturedTextOutput()
        #expect(await AppLauncher.run(app, arguments: ["--version"], output: output) == 0)
        let manifest = try app.manifest.decode()
        #expect(output.output == "\(manifest.displayName) \(manifest.version)\n")
    }

    @Test(arguments: apps)
    func unknownFlag_isAUsageErrorWithStatusTwo(app: AppDefinition) async {
        let output = CapturedTextOutput()
        #expect(await AppLauncher.run(app, arguments: ["--describ"], output: output) == 2)
        #expect(
            output.error
                == "\(app.id): error: unknown option '--describ'; did you mean '--describe'?\nRun '\(app.id) --help' for usage.\n"
        )
    }

    @Test(arguments: apps)
    func help_listsTheFlags(app: AppDefinition) async {
        let output = CapturedTextOutput()
        #expect(await AppLauncher.run(app, arguments: ["--help"], output: output) == 0)
        #expect(output.output.contains("--describe"))
        #expect(output.output.contains("--version"))
    }
}

extension AppDefinition: CustomTestStringConvertible {
    public var testDescription: String { id }
}
