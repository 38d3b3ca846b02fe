import Composition
import Foundation
import Testing

@Suite struct SocketRegistryTests {
    @Test func launchedRegistry_returnsTheBoundProvidersContracts() throws {
        let composition = try AppHost.compose(Fixtures.definition())
        #expect(composition.registry[greetingSocket].text == "hello")
        #expect(composition.registry.providers["greeting"] == "demo.greeting")
    }

    @Test func aSocketsDescriptor_namesItsContract() {
        #expect(greetingSocket.descriptor.contractName == "Greeting")
        #expect(paletteSocket.descriptor.contractName == "Palette")
        #expect(greetingSocket.descriptor.id == "greeting")
    }

    @Test func providerReadingAnotherSocket_seesItBuiltFirst() throws {
        let composition = try AppHost.compose(Fixtures.definition())
        #expect(composition.registry[bannerSocket].line == "** hello **")
    }

    @Test func unboundOptionalSocket_getsItsDefault() throws {
        let composition = try AppHost.compose(Fixtures.definition())
        #expect(composition.registry[paletteSocket].name == "standard")
        #expect(composition.registry.providers["palette"] == nil)
    }

    @Test func boundOptionalSocket_getsItsProvider() throws {
        let manifest = Fixtures.validManifest.replacingOccurrences(
            of: "\"banner\": \"demo.banner\"",
            with: "\"banner\": \"demo.banner\", \"palette\": \"demo.palette\"")
        let composition = try AppHost.compose(Fixtures.definition(manifest))
        #expect(composition.registry[paletteSocket].name == "demo")
        #expect(!composition.registry.hasOverrides, "every socket is filled by its manifest's provider")
    }

    @Test func override_replacesOneSocketAndLeavesTheRest() throws {
        let composition = try AppHost.compose(Fixtures.definition()) { registry in
            registry.overriding(greetingSocket, with: FixedGreeting(text: "test double"))
        }
        #expect(composition.registry[greetingSocket].text == "test double")
        #expect(composition.registry[paletteSocket].name == "standard")
        #expect(composition.registry.providers["greeting"] == "override")
        #expect(composition.registry.hasOverrides)
    }

    @Test func emptyRegistry_servesOptionalDefaults() {
        let registry = SocketRegistry()
        #expect(registry[paletteSocket].name == "standard")
        #expect(!registry.contains(greetingSocket))
    }

    @Test func providerReadingAnUndeclaredSocket_failsTheLaunchWithAClearMessage() throws {
        let sneaky = Catalog(providers: [
            Provider(id: "sneaky.banner", fills: bannerSocket) { context in
                FixedBanner(line: try context.socket(greetingSocket).text)
            }
        ])
        let manifest = Fixtures.validManifest.replacingOccurrences(
            of: "\"demo.banner\"", with: "\"sneaky.banner\"")
        let definition = Fixtures.definition(
            manifest, catalog: Catalog.merging([Fixtures.catalog(), sneaky]))
        #expect {
            try AppHost.compose(definition)
        } throws: { error in
            String(describing: error)
                == "provider 'sneaky.banner' for socket 'banner' failed: provider 'sneaky.banner' reads socket 'greeting' without declaring it; add .socket(\"greeting\") to its needs"
        }
    }

    @Test func eachSocket_hasItsOwnSlot() {
        let a = Socket<any Greeting>.required("a", summary: "")
        let b = Socket<any Greeting>.required("b", summary: "")
        let registry = SocketRegistry().overriding(a, with: FixedGreeting(text: "A")).overriding(
            b, with: FixedGreeting(text: "B"))
        #expect(registry[a].text == "A")
        #expect(registry[b].text == "B")
    }
}
