import AllApps
import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import Testing

enum LintFixtures {
    /// The package root.
    static let packageRoot = LintRun.packageRoot

    static let apps = LintRun.apps

    /// The fixture directory with one broken manifest, from the test bundle.
    static func directory(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return url.path
    }

    /// The diagnostics of checking a fixture directory against Strand alone: the fixtures are
    /// copies of Strand's manifest, each broken one way.
    static func strandProblems(_ fixture: String) throws -> [String] {
        let strand = try #require(AllApps.definition(id: "strand"))
        let result = ManifestCheck(apps: [strand]).run(
            directory: try directory(fixture), displayDirectory: "Manifests")
        return result.diagnostics.map(\.description)
    }
}
