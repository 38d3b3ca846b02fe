import CommandLineKit
import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import Testing

@Suite struct LintCommandTests {
    func run(_ arguments: [String], in directory: String = LintFixtures.packageRoot) -> (
        Int32, String, String
    ) {
        LintRun.run(arguments, in: directory)
    }

    @Test func packageDirWithoutAPackage_namesThatDirectory() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
            "no-package-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let (status, _, error) = run(["--package-dir", empty, "--skip-package-graph"], in: "/")
        #expect(status == 2)
        #expect(error.contains("'\(empty)'"), "the message names the directory given: \(error)")
        #expect(!error.contains("'/'"), "and not the directory it ran in: \(error)")
    }

    /// A scratch package root holding the repository's manifests with the model app's replaced
    /// (`LintRun.modelApp`).
    func scratchPackage(manifest: String) throws -> String {
        try LintRun.scratchPackage(replacing: model, with: manifest)
    }

    /// The model app's id.
    var model: String { LintRun.modelApp.id }

    @Test func cleanRepository_exitsZero() {
        let (status, output, _) = run(["--skip-package-graph"])
        #expect(status == 0)
        #expect(output.hasSuffix("no problems\n"))
    }

    @Test func brokenManifest_exitsOneWithCompilerStyleDiagnostics() throws {
        let original = try LintRun.manifestText()
        let root = try scratchPackage(
            manifest: original.replacingOccurrences(of: "\"\(model).tabs\"", with: "\"\(model).tab\""))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output, _) = run(["--skip-package-graph"], in: root)
        #expect(status == 1)
        #expect(output.contains("Manifests/\(model).json:"))
        #expect(
            output.contains(
                ": error: socket 'tabs' is bound to unknown provider '\(model).tab'; did you mean '\(model).tabs'?"
            ))
        #expect(output.hasSuffix("1 error\n"))
    }

    @Test func jsonFormat_listsDiagnosticsAsObjects() throws {
        let root = try scratchPackage(manifest: "{}")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output, _) = run(["--skip-package-graph", "--format", "json"], in: root)
        #expect(status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(object["errors"] as? Int == 5)
        #expect(diagnostics.first?["code"] as? String == "missing-key")
        #expect(diagnostics.first?["file"] as? String == "Manifests/\(model).json")
        #expect(diagnostics.first?["line"] as? Int == 1)
    }

    @Test func check_withAnUndeclaredImport_exitsOneNamingTheImportingLine() throws {
        // Given a package whose model app's library imports MediaModel without declaring it
        let root = try scratchPackage(manifest: try LintRun.manifestText())
        let app = model.prefix(1).uppercased() + model.dropFirst()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "Package.swift": "// swift-tools-version: 6.2\n",
            "Modules/MediaModel/Post.swift": "public struct Post {}\n",
            "Apps/\(app)/\(app)App/\(app).swift": "import Foundation\nimport MediaModel\n",
            "package.json": """
            {"targets": [
              {"name": "MediaModel", "path": "Modules/MediaModel", "type": "regular", "dependencies": []},
              {"name": "\(app)App", "path": "Apps/\(app)/\(app)App", "type": "regular", "dependencies": []}
            ]}
            """,
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: "\(root)/\(path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        // When the whole check runs
        let (status, output, _) = run(["--package-json", "\(root)/package.json"], in: root)

        // Then the undeclared import is the one error, at its line
        #expect(status == 1)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Apps/\(app)/\(app)App/\(app).swift:2:1: error: target '\(app)App' imports 'MediaModel' without declaring it; add \"MediaModel\" to the dependencies of target '\(app)App' in Package.swift"
        )
        #expect(lines.count == 2)
        #expect(output.hasSuffix(": 1 error\n"))
    }

    @Test func usageErrors_exitTwo() {
        #expect(run(["--bogus"]).0 == 2)
        #expect(run(["graph"]).0 == 2)
        let typo = String(model.dropLast())
        #expect(run(["graph", "--app", typo]).2.contains("unknown app '\(typo)'; did you mean '\(model)'?"))
        #expect(run(["frobnicate"]).0 == 2)
        #expect(run(["matrix", "--format", "json"]).0 == 2)
    }

    @Test func matrix_withAManifestError_stillPrintsTheTable_andFails() throws {
        // Given the model app's manifest binding its tabs to a provider that does not exist
        let original = try LintRun.manifestText()
        let root = try scratchPackage(
            manifest: original.replacingOccurrences(of: "\"\(model).tabs\"", with: "\"\(model).tab\""))
        defer { try? FileManager.default.removeItem(atPath: root) }

        // When the matrix is asked for
        let (status, output, errors) = run(["matrix"], in: root)

        // Then the error is reported and the table shows what each manifest binds
        #expect(status == 1)
        #expect(errors.contains(": error: socket 'tabs' is bound to unknown provider '\(model).tab'"))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("socket") == true)
        let tabs = try #require(lines.first { $0.hasPrefix("tabs ") })
        let columns = LintRun.apps.map { $0.id == model ? "\(model).tab" : "\($0.id).tabs" }
        #expect(tabs.split(separator: " ").suffix(columns.count).map(String.init) == columns)
    }

    @Test func matrix_showsEachAppsProviders() throws {
        let (status, output, _) = run(["matrix"])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        #expect(lines.first == ["socket", "requirement"] + LintRun.apps.map(\.id))
        for app in LintRun.apps {
            let composed = try? AppHost.compose(app)
            let column = try #require(lines.first?.firstIndex(of: app.id))
            let tabs = try #require(lines.first { $0.first == "tabs" })
            #expect(tabs[column] == composed?.registry.providers["tabs"], "\(app.id)'s column")
        }
    }

    @Test func graph_printsTextAndDot() {
        for app in LintRun.apps.map(\.id) {
            let (status, text, _) = run(["graph", "--app", app])
            #expect(status == 0)
            #expect(text.hasPrefix("service graph of '\(app)'"))
            let (dotStatus, dot, _) = run(["graph", "--app", app, "--format", "dot"])
            #expect(dotStatus == 0)
            #expect(dot.hasPrefix("digraph \"\(app)\" {"))
            #expect(run(["graph", "--app", app]).1 == run(["graph", "--app", app]).1)
        }
    }

    @Test func help_exitsZero() {
        let (status, output, _) = run(["--help"])
        #expect(status == 0)
        #expect(output.contains("usage: manifest-lint [check|matrix|graph] [options]"))
        #expect(output.contains("\n  --version  "), "the help lists --version")
        #expect(
            output.contains("that every target imports exactly the package\ntargets it declares"),
            "the help lists the imports check")
    }

    @Test func version_printsTheToolsNameAndVersion_andExitsZero() {
        let (status, output, errors) = run(["--version"])
        #expect(status == 0)
        #expect(output == "manifest-lint \(ToolVersion.current)\n")
        #expect(errors.isEmpty)
    }
}
