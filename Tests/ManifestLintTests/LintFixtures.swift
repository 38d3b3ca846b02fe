import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import PrismApp
import StrandApp
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

    /// The diagnostics of checking a fixture directory against Strand alone.
    static func strandProblems(_ fixture: String) throws -> [String] {
        let result = ManifestCheck(apps: [Strand.definition]).run(
            directory: try directory(fixture), displayDirectory: "Manifests")
        return result.diagnostics.map(\.description)
    }
}
