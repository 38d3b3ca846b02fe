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

    /// A scratch package root holding the repository's manifests with one file replaced.
    func scratchPackage(strandManifest: String) throws -> String {
        try LintRun.scratchPackage(replacing: "strand", with: strandManifest)
    }

    @Test func cleanRepository_exitsZero() {
        let (status, output, _) = run(["--skip-package-graph"])
        #expect(status == 0)
        #expect(output.hasSuffix("no problems\n"))
    }

    @Test func brokenManifest_exitsOneWithCompilerStyleDiagnostics() throws {
        let original = try String(
            contentsOfFile: "\(LintFixtures.packageRoot)/Manifests/strand.json", encoding: .utf8)
        let root = try scratchPackage(
            strandManifest: original.replacingOccurrences(of: "\"strand.tabs\"", with: "\"strand.tab\""))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output, _) = run(["--skip-package-graph"], in: root)
        #expect(status == 1)
        #expect(output.contains("Manifests/strand.json:"))
        #expect(
            output.contains(
                ": error: socket 'tabs' is bound to unknown provider 'strand.tab'; did you mean 'strand.tabs'?"
            ))
        #expect(output.hasSuffix("1 error\n"))
    }

    @Test func jsonFormat_listsDiagnosticsAsObjects() throws {
        let root = try scratchPackage(strandManifest: "{}")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output, _) = run(["--skip-package-graph", "--format", "json"], in: root)
        #expect(status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(object["errors"] as? Int == 5)
        #expect(diagnostics.first?["code"] as? String == "missing-key")
        #expect(diagnostics.first?["file"] as? String == "Manifests/strand.json")
        #expect(diagnostics.first?["line"] as? Int == 1)
    }

    @Test func check_withAnUndeclaredImport_exitsOneNamingTheImportingLine() throws {
        // Given a package whose PrismApp imports MediaModel without declaring it
        let original = try String(
            contentsOfFile: "\(LintFixtures.packageRoot)/Manifests/strand.json", encoding: .utf8)
        let root = try scratchPackage(strandManifest: original)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "Package.swift": "// swift-tools-version: 6.2\n",
            "Modules/MediaModel/Post.swift": "public struct Post {}\n",
            "Apps/Prism/PrismApp/Prism.swift": "import Foundation\nimport MediaModel\n",
            "package.json": """
            {"targets": [
              {"name": "MediaModel", "path": "Modules/MediaModel", "type": "regular", "dependencies": []},
              {"name": "PrismApp", "path": "Apps/Prism/PrismApp", "type": "regular", "dependencies": []}
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
                == "Apps/Prism/PrismApp/Prism.swift:2:1: error: target 'PrismApp' imports 'MediaModel' without declaring it; add \"MediaModel\" to the dependencies of target 'PrismApp' in Package.swift"
        )
        #expect(lines.count == 2)
        #expect(output.hasSuffix(": 1 error\n"))
    }

    @Test func usageErrors_exitTwo() {
        #expect(run(["--bogus"]).0 == 2)
        #expect(run(["graph"]).0 == 2)
        #expect(run(["graph", "--app", "strnd"]).2.contains("unknown app 'strnd'; did you mean 'strand'?"))
        #expect(run(["frobnicate"]).0 == 2)
        #expect(run(["matrix", "--format", "json"]).0 == 2)
    }

    @Test func matrix_withAManifestError_stillPrintsTheTable_andFails() throws {
        // Given Strand's manifest binding its tabs to a provider that does not exist
        let original = try String(
            contentsOfFile: "\(LintFixtures.packageRoot)/Manifests/strand.json", encoding: .utf8)
        let root = try scratchPackage(
            strandManifest: original.replacingOccurrences(of: "\"strand.tabs\"", with: "\"strand.tab\""))
        defer { try? FileManager.default.removeItem(atPath: root) }

        // When the matrix is asked for
        let (status, output, errors) = run(["matrix"], in: root)

        // Then the error is reported and the table shows what each manifest binds
        #expect(status == 1)
        #expect(errors.contains(": error: socket 'tabs' is bound to unknown provider 'strand.tab'"))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("socket") == true)
        let tabs = try #require(lines.first { $0.hasPrefix("tabs ") })
        let columns = LintRun.apps.map { $0.id == "strand" ? "strand.tab" : "\($0.id).tabs" }
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
        let (status, text, _) = run(["graph", "--app", "strand"])
        #expect(status == 0)
        #expect(text.hasPrefix("service graph of 'strand'"))
        let (dotStatus, dot, _) = run(["graph", "--app", "prism", "--format", "dot"])
        #expect(dotStatus == 0)
        #expect(dot.hasPrefix("digraph \"prism\" {"))
        #expect(run(["graph", "--app", "prism"]).1 == run(["graph", "--app", "prism"]).1)
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
