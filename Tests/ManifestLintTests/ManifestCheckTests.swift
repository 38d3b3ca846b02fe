import Composition
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
            "Manifests/strand.json:7:5: error: invalid JSON: trailing ',' before '}' is not allowed in JSON"
        ),
        (
            "unknown-key",
            "Manifests/strand.json:5:5: error: unknown key 'socket' in manifest; did you mean 'sockets'? (allowed keys: app, displayName, version, sockets, services)"
        ),
        (
            "missing-socket",
            "Manifests/strand.json:5:5: error: required socket 'composerPolicy' is not bound; add \"composerPolicy\": \"<provider>\" to \"sockets\" (providers: strand.composerPolicy)"
        ),
        (
            "unknown-provider",
            "Manifests/strand.json:7:23: error: socket 'feedPolicy' is bound to unknown provider 'strand.feed'; did you mean 'strand.feedPolicy'?"
        ),
        (
            "wrong-socket",
            "Manifests/strand.json:10:23: error: socket 'replyModel' is bound to provider 'strand.tabs', which fills socket 'tabs'; providers of 'replyModel': strand.replyModel"
        ),
        (
            "empty",
            "Manifests/strand.json:1:1: error: manifest is empty; expected a JSON object with the keys \"app\", \"displayName\", \"version\", \"sockets\", \"services\""
        ),
        (
            "not-utf8",
            "Manifests/strand.json:2:16: error: manifest is not valid UTF-8 (byte 0xE9); save the file as UTF-8"
        ),
        (
            "duplicate-key",
            "Manifests/strand.json:7:9: error: invalid JSON: duplicate key 'branding' (first written at line 6, column 9)"
        ),
    ])
    func brokenManifest_givesOneClearDiagnostic(fixture: String, expected: String) throws {
        let problems = try LintFixtures.strandProblems(fixture)
        #expect(problems == [expected])
    }

    @Test func manifestNamingAnUnknownApp_suggestsTheClosestApp() throws {
        let problems = try LintFixtures.strandProblems("unknown-app")
        #expect(
            problems == [
                "Manifests/strand.json:2:12: error: manifest names unknown app 'strnd'; did you mean 'strand'? (apps: strand)"
            ])
    }
}
