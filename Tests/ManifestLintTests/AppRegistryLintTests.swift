import AllApps
import CommandLineKit
import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import MediaModel
import Sockets
import Testing

/// What manifest-lint says about the list of apps: a manifest or an Apps/ folder of an app the
/// package does not register is an error that says where apps are registered, in `check`,
/// `matrix` and `graph` alike; and every app's composer stays within the backend's limits.
@Suite struct AppRegistryLintTests {
    /// A scratch package holding the repository's manifests plus `extra` files.
    func scratch(_ extra: [String: String]) throws -> String {
        let app = try #require(LintRun.apps.first)
        let original = try String(
            contentsOfFile: "\(LintRun.packageRoot)/Manifests/\(app.id).json", encoding: .utf8)
        let root = try LintRun.scratchPackage(replacing: app.id, with: original)
        for (path, text) in extra {
            let url = URL(fileURLWithPath: "\(root)/\(path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// A manifest for an app nobody registered: a copy of the first app's with its id changed.
    func unregisteredManifest(id: String) throws -> String {
        let app = try #require(LintRun.apps.first)
        let original = try String(
            contentsOfFile: "\(LintRun.packageRoot)/Manifests/\(app.id).json", encoding: .utf8)
        return original.replacingOccurrences(of: "\"app\": \"\(app.id)\"", with: "\"app\": \"\(id)\"")
    }

    @Test func check_aManifestOfAnUnregisteredApp_isAnErrorSayingWhereAppsAreRegistered() throws {
        let root = try scratch(["Manifests/unlisted.json": try unregisteredManifest(id: "unlisted")])
        let (status, output, _) = LintRun.run(["--skip-package-graph"], in: root)
        #expect(status == 1)
        let line = try #require(output.split(separator: "\n").first { $0.contains("unknown app 'unlisted'") })
        #expect(line.hasPrefix("Manifests/unlisted.json:2:"), "file:line:col of the app's id: \(line)")
        #expect(line.contains("apps are registered in Package.swift's `apps` list"), "\(line)")
    }

    @Test func matrix_doesNotDropAnUnregisteredAppSilently() throws {
        let root = try scratch(["Manifests/unlisted.json": try unregisteredManifest(id: "unlisted")])
        let (status, output, error) = LintRun.run(["matrix"], in: root)
        #expect(status == 1, "the table is printed, and the status says something is wrong")
        #expect(output.hasPrefix("socket"))
        #expect(error.contains("Manifests/unlisted.json:2:"), "\(error)")
        #expect(error.contains("unknown app 'unlisted'"), "\(error)")
    }

    @Test func check_andMatrix_reportAnAppsFolderThatIsNotRegistered() throws {
        let root = try scratch([
            "Apps/Unlisted/unlisted/main.swift": "print(1)\n",
            "Package.swift": "// a package\nlet apps = [\n    \"Prism\",\n]\n",
        ])
        let (status, output, _) = LintRun.run(["--skip-package-graph"], in: root)
        #expect(status == 1)
        #expect(
            output.contains(
                "Package.swift:2:1: error: Apps/Unlisted is not a registered app; add \"Unlisted\", to Package.swift's `apps` list"
            ), "\(output)")
        let (matrixStatus, _, error) = LintRun.run(["matrix"], in: root)
        #expect(matrixStatus == 1)
        #expect(error.contains("Apps/Unlisted is not a registered app"), "\(error)")
    }

    @Test func graph_ofAnUnregisteredApp_saysWhereAppsAreRegistered() {
        let (status, _, error) = LintRun.run(["graph", "--app", "unlisted"])
        #expect(status == 2)
        #expect(error.contains("unknown app 'unlisted'"))
        #expect(error.contains("apps are registered in Package.swift's `apps` list"), "\(error)")
    }

    @Test func everyRegisteredApp_hasAFolderAndAManifest() {
        for app in AllApps.definitions {
            let folder = app.id.prefix(1).uppercased() + app.id.dropFirst()
            #expect(
                FileManager.default.fileExists(atPath: "\(LintRun.packageRoot)/Apps/\(folder)"), "\(app.id)")
            #expect(
                FileManager.default.fileExists(atPath: "\(LintRun.packageRoot)/Manifests/\(app.id).json"),
                "\(app.id)")
        }
    }

    // MARK: The composer against the backend's limits

    /// A composer that lets a post be longer than the backend accepts, and a carousel larger.
    struct GenerousComposer: ComposerPolicy {
        let media = MediaRequirement.optional
        let textLimit = PostLimits.textCharacters + 800
        let textRequired = false
        let noun = "post"
        let carouselLimit = PostLimits.carouselItems + 2
    }

    @Test func aComposerOverTheBackendsLimits_isAnErrorAtItsBinding() throws {
        // Given the first app with its composerPolicy bound to a composer more generous than the
        // backend
        let app = try #require(LintRun.apps.first)
        let generous = Provider(id: "\(app.id).generousComposer", fills: .composerPolicy) { _ in
            GenerousComposer()
        }
        let definition = AppDefinition(
            id: app.id, catalog: Catalog.merging([app.catalog, Catalog(providers: [generous])]),
            manifest: app.manifest)
        let manifest = try app.manifest.decode()
        let bound = try #require(manifest.provider(for: "composerPolicy"))
        let contents = app.manifest.contents.replacingOccurrences(
            of: "\"\(bound)\"", with: "\"\(generous.id)\"")
        let changed = try Manifest.parse(Array(contents.utf8), file: manifest.file)

        // When it is checked
        let found = ComposerLimitCheck().run(app: definition, manifest: changed, contents: contents).map(
            \.description)

        // Then both limits are errors at the binding's provider id
        let at = try #require(changed.sockets.first { $0.socket == "composerPolicy" }?.providerLocation)
        #expect(found.count == 2, "\(found)")
        #expect(
            found.first
                == "\(at): error: '\(generous.id)' lets a post have \(PostLimits.textCharacters + 800) characters, but the backend accepts at most \(PostLimits.textCharacters) (PostLimits.textCharacters); lower the composer's textLimit"
        )
        #expect(found.last?.contains("lets a carousel hold \(PostLimits.carouselItems + 2) photos") == true)
    }

    @Test func everyShippedComposer_isWithinTheBackendsLimits() throws {
        for app in LintRun.apps {
            let manifest = try app.manifest.decode()
            #expect(
                ComposerLimitCheck().run(app: app, manifest: manifest, contents: app.manifest.contents) == [])
        }
    }
}
