import Composition
import Foundation
import ManifestLint
import Testing

@Suite struct ManifestCheckTests {
    @Test func repositoryManifests_areValid() {
        let result = ManifestCheck(apps: LintFixtures.apps).run(
            directory: "\(LintFixtures.packageRoot)/Manifests", displayDirectory: "Manifests")
        #expect(result.checked == LintFixtures.apps.map { "Manifests/\($0.id).json" }.sorted())
        #expect(result.diagnostics.map(\.description) == [])
    }

    @Test(arguments: [
        (
            "malformed-json",
            "Manifests/APP.json:7:5: error: invalid JSON: trailing ',' before '}' is not allowed in JSON"
        ),
        (
            "unknown-key",
            "Manifests/APP.json:5:5: error: unknown key 'socket' in manifest; did you mean 'sockets'? (allowed keys: app, displayName, version, sockets, services)"
        ),
        (
            "missing-socket",
            "Manifests/APP.json:5:5: error: required socket 'composerPolicy' is not bound; add \"composerPolicy\": \"<provider>\" to \"sockets\" (providers: APP.composerPolicy)"
        ),
        (
            "unknown-provider",
            "Manifests/APP.json:7:23: error: socket 'feedPolicy' is bound to unknown provider 'APP.feed'; did you mean 'APP.feedPolicy'?"
        ),
        (
            "wrong-socket",
            "Manifests/APP.json:10:23: error: socket 'replyModel' is bound to provider 'APP.tabs', which fills socket 'tabs'; providers of 'replyModel': APP.replyModel"
        ),
        (
            "empty",
            "Manifests/APP.json:1:1: error: manifest is empty; expected a JSON object with the keys \"app\", \"displayName\", \"version\", \"sockets\", \"services\""
        ),
        (
            "not-utf8",
            "Manifests/APP.json:2:16: error: manifest is not valid UTF-8 (byte 0xE9); save the file as UTF-8"
        ),
        (
            "duplicate-key",
            "Manifests/APP.json:7:9: error: invalid JSON: duplicate key 'branding' (first written at line 6, column 9)"
        ),
    ])
    func brokenManifest_givesOneClearDiagnostic(fixture: String, expected: String) throws {
        // The fixtures break the model app's manifest; `APP` stands for its id.
        let problems = try LintFixtures.problems(fixture)
        #expect(problems == [expected.replacingOccurrences(of: "APP", with: LintFixtures.id)])
    }

    @Test func manifestNamingAnUnknownApp_suggestsTheClosestApp() throws {
        let (id, misspelled) = (LintFixtures.id, LintFixtures.misspelled)
        let problems = try LintFixtures.problems("unknown-app")
        #expect(
            problems == [
                "Manifests/\(id).json:2:12: error: manifest names unknown app '\(misspelled)'; did you mean '\(id)'? (apps: \(id))"
            ])
    }
}
