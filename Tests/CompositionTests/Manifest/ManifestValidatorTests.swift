import Composition
import Foundation
import Testing

@Suite struct ManifestValidatorTests {
    @Test func validManifest_hasNoProblems() {
        #expect(Fixtures.problems(Fixtures.validManifest) == [])
    }

    @Test func missingRequiredSocket_isReportedAtTheSocketsKey() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"banner\": \"demo.banner\"", with: "\"palette\": \"demo.palette\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:5:5: error: required socket 'banner' is not bound; add \"banner\": \"<provider>\" to \"sockets\" (providers: demo.banner)"
            ])
    }

    @Test func unknownProvider_suggestsTheClosestProviderOfThatSocket() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"demo.greeting\"", with: "\"demo.greting\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:6:21: error: socket 'greeting' is bound to unknown provider 'demo.greting'; did you mean 'demo.greeting'?"
            ])
    }

    @Test func providerBoundToTheWrongSocket_namesTheSocketItFills() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"demo.greeting\"", with: "\"demo.palette\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:6:21: error: socket 'greeting' is bound to provider 'demo.palette', which fills socket 'palette'; providers of 'greeting': demo.greeting, other.greeting"
            ])
    }

    @Test func unknownSocket_suggestsTheClosestSocket() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"banner\": \"demo.banner\"",
            with: "\"banner\": \"demo.banner\", \"palete\": \"demo.palette\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:7:34: error: unknown socket 'palete'; did you mean 'palette'?"
            ])
    }

    @Test func enabledServiceMissingADependency_saysWhatToAdd() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"storage\", \"network\", ", with: "\"network\", ")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:7:19: error: provider 'demo.banner' needs service 'storage', which is not enabled; add \"storage\" to \"services\"",
                "Manifests/demo.json:9:18: error: service 'network' depends on 'storage', which is not enabled; add \"storage\" to \"services\"",
                "Manifests/demo.json:9:29: error: service 'feed' depends on 'storage', which is not enabled; add \"storage\" to \"services\"",
            ])
    }

    @Test func serviceCycle_isReportedWithTheWholePath() {
        let log = EventLog()
        let catalog = Catalog.merging([
            Fixtures.sockets, Fixtures.providers,
            Catalog(services: [
                .scripted("storage", log: log, dependencies: ["feed"]),
                .scripted("network", log: log, dependencies: ["storage"]),
                .scripted("feed", log: log, dependencies: ["network"]),
                .scripted("push", log: log, dependencies: ["network"], events: [.pushReceived]),
            ]),
        ])
        #expect(
            Fixtures.problems(Fixtures.validManifest, catalog: catalog) == [
                "Manifests/demo.json:9:18: error: service dependency cycle: storage -> feed -> network -> storage"
            ])
    }

    @Test func optionalDependency_neednotBeEnabled_butCannotBeUnknown() {
        // `push` uses `feed` when the app enables it: a manifest without `feed` is valid; one
        // naming a service the catalog does not have is a typo, said as one.
        let log = EventLog()
        func catalog(using optional: String) -> Catalog {
            Catalog.merging([
                Fixtures.sockets, Fixtures.providers,
                Catalog(services: [
                    .scripted("storage", log: log),
                    .scripted("network", log: log, dependencies: ["storage"]),
                    .scripted("feed", log: log, dependencies: ["network"]),
                    .scripted(
                        "push", log: log, dependencies: ["network"], optionalDependencies: [optional],
                        events: [.pushReceived], line: 42),
                ]),
            ])
        }
        let withoutFeed = Fixtures.validManifest.replacingOccurrences(of: "\"feed\", {", with: "{")
        #expect(withoutFeed != Fixtures.validManifest)
        #expect(Fixtures.problems(withoutFeed, catalog: catalog(using: "feed")) == [])
        #expect(
            Fixtures.problems(withoutFeed, catalog: catalog(using: "fed")) == [
                "Tests/Fixtures.swift:42:5: error: service 'push' depends on unknown service 'fed'; did you mean 'feed'?"
            ])
    }

    @Test func duplicateProviderID_isReportedAtTheSecondDeclaration() {
        let duplicate = Catalog(providers: [
            Provider(
                id: "demo.greeting", fills: greetingSocket, file: "Apps/Demo/Providers.swift", line: 42,
                column: 9
            ) { _ in
                FixedGreeting(text: "again")
            }
        ])
        let catalog = Catalog.merging([Fixtures.catalog(), duplicate])
        #expect(
            Fixtures.problems(Fixtures.validManifest, catalog: catalog) == [
                "Apps/Demo/Providers.swift:42:9: error: duplicate provider id 'demo.greeting'; first declared at Tests/Fixtures.swift:10:9"
            ])
    }

    @Test func unknownEvent_suggestsTheClosestEvent() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "[\"pushReceived\"]", with: "[\"pushRecieved\"]")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:9:74: error: unknown lifecycle event 'pushRecieved'; did you mean 'pushReceived'? (events: launch, foreground, background, pushReceived, memoryWarning, terminate)"
            ])
    }

    @Test func eventTheServiceDoesNotReactTo_isAnError() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "[\"pushReceived\"]", with: "[\"pushReceived\", \"foreground\"]")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:9:90: error: service 'push' does not react to 'foreground'; it reacts to: pushReceived"
            ])
    }

    @Test func unknownService_suggestsTheClosestService() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"feed\", {", with: "\"feed\", \"netwrk\", {")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:9:48: error: unknown service 'netwrk'; did you mean 'network'?"
            ])
    }

    @Test func manifestOfAnotherApp_isAnError() {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"app\": \"demo\"", with: "\"app\": \"other\"")
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:2:12: error: manifest is for app 'other', but it is used by app 'demo'"
            ])
    }

    @Test func severalProblems_areAllReportedInFileOrder() {
        let text = """
            {
                "app": "demo",
                "displayName": "Demo",
                "version": "1",
                "sockets": {
                    "greeting": "nobody",
                    "colours": "demo.palette"
                },
                "services": ["feed", "pushh"]
            }
            """
        #expect(
            Fixtures.problems(text) == [
                "Manifests/demo.json:5:5: error: required socket 'banner' is not bound; add \"banner\": \"<provider>\" to \"sockets\" (providers: demo.banner)",
                "Manifests/demo.json:6:21: error: socket 'greeting' is bound to unknown provider 'nobody'",
                "Manifests/demo.json:7:9: error: unknown socket 'colours'",
                "Manifests/demo.json:9:18: error: service 'feed' depends on 'network', which is not enabled; add \"network\" to \"services\"",
                "Manifests/demo.json:9:18: error: service 'feed' depends on 'storage', which is not enabled; add \"storage\" to \"services\"",
                "Manifests/demo.json:9:26: error: unknown service 'pushh'; did you mean 'push'?",
            ])
    }

    @Test func optionalSocketLeftUnbound_isValid() {
        #expect(!Fixtures.validManifest.contains("palette"))
        #expect(Fixtures.problems(Fixtures.validManifest) == [])
    }

    @Test func addingARequiredSocket_failsManifestsThatDoNotBindIt() {
        let extra = Socket<any Greeting>.required("farewell", summary: "what the app says last")
        let catalog = Catalog.merging([Fixtures.catalog(), Catalog(sockets: [extra.descriptor])])
        #expect(
            Fixtures.problems(Fixtures.validManifest, catalog: catalog) == [
                "Manifests/demo.json:5:5: error: required socket 'farewell' is not bound; add \"farewell\": \"<provider>\" to \"sockets\" (no provider in the catalog fills it yet)"
            ])
    }
}
