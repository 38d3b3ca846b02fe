import Composition
import Foundation
import Testing

@Suite struct ServiceGraphTests {
    let log = EventLog()

    @Test func startOrder_putsDependenciesFirstAndKeepsManifestOrderOtherwise() throws {
        let graph = try ServiceGraph(definitions: [
            .scripted("feed", log: log, dependencies: ["network", "storage"]),
            .scripted("push", log: log, dependencies: ["network"]),
            .scripted("network", log: log, dependencies: ["storage"]),
            .scripted("storage", log: log),
            .scripted("clock", log: log),
        ])
        #expect(graph.startOrder == ["storage", "network", "feed", "push", "clock"])
        #expect(graph.stopOrder == ["clock", "push", "feed", "network", "storage"])
    }

    @Test func levels_groupServicesThatCanStartTogether() throws {
        let graph = try ServiceGraph(definitions: [
            .scripted("storage", log: log), .scripted("clock", log: log),
            .scripted("network", log: log, dependencies: ["storage"]),
            .scripted("feed", log: log, dependencies: ["network", "clock"]),
        ])
        #expect(graph.levels == [["storage", "clock"], ["network"], ["feed"]])
    }

    @Test func cycle_isReportedWithTheWholePath() {
        #expect(throws: ServiceGraphError.cycle(["a", "b", "c", "a"])) {
            try ServiceGraph(definitions: [
                .scripted("a", log: log, dependencies: ["b"]), .scripted("b", log: log, dependencies: ["c"]),
                .scripted("c", log: log, dependencies: ["a"]),
            ])
        }
    }

    @Test func missingDependency_isAnError() {
        #expect(throws: ServiceGraphError.missingDependency(service: "feed", dependency: "network")) {
            try ServiceGraph(definitions: [.scripted("feed", log: log, dependencies: ["network"])])
        }
    }

    @Test func optionalDependency_startsFirstWhenEnabled_andIsNoErrorWhenNot() throws {
        // A service that uses the feed when the app has one: after it when both are enabled
        // (whatever the manifest's order), alone when the feed is not.
        let replay = ServiceDefinition.scripted(
            "replay", log: log, dependencies: ["storage"], optionalDependencies: ["feed"])
        let withFeed = try ServiceGraph(definitions: [
            replay, .scripted("storage", log: log), .scripted("feed", log: log, dependencies: ["storage"]),
        ])
        #expect(withFeed.startOrder == ["storage", "feed", "replay"])
        let withoutFeed = try ServiceGraph(definitions: [replay, .scripted("storage", log: log)])
        #expect(withoutFeed.startOrder == ["storage", "replay"])
    }

    @Test func optionalDependency_inACycle_isACycle() {
        #expect(throws: ServiceGraphError.cycle(["a", "b", "a"])) {
            try ServiceGraph(definitions: [
                .scripted("a", log: log, optionalDependencies: ["b"]),
                .scripted("b", log: log, dependencies: ["a"]),
            ])
        }
    }

    @Test func deliveryOrder_followsDependenciesAndSubscriptions() throws {
        let graph = try ServiceGraph(
            catalog: Fixtures.catalog(log), manifest: Fixtures.manifest(Fixtures.validManifest))
        #expect(graph.deliveryOrder(for: .foreground) == ["network", "feed"])
        #expect(graph.deliveryOrder(for: .memoryWarning) == ["storage", "feed"])
        #expect(graph.deliveryOrder(for: .pushReceived) == ["push"])
        #expect(graph.deliveryOrder(for: .launch) == [])
    }

    @Test func manifestEvents_narrowWhatAServiceReceives() throws {
        let text = Fixtures.validManifest.replacingOccurrences(
            of: "\"feed\", {", with: "{\"id\": \"feed\", \"events\": [\"memoryWarning\"]}, {")
        let graph = try ServiceGraph(catalog: Fixtures.catalog(log), manifest: Fixtures.manifest(text))
        #expect(graph.deliveryOrder(for: .foreground) == ["network"])
        #expect(graph.deliveryOrder(for: .memoryWarning) == ["storage", "feed"])
    }

    @Test func chain_runsFromTheTopDependentDownToTheService() throws {
        let graph = try ServiceGraph(
            catalog: Fixtures.catalog(log), manifest: Fixtures.manifest(Fixtures.validManifest))
        #expect(graph.chain(neededBy: "storage") == ["feed", "network", "storage"])
        #expect(graph.chain(neededBy: "feed") == ["feed"])
    }

    @Test func largeGraph_resolvesWithoutRecursionLimits() throws {
        var definitions: [ServiceDefinition] = [.scripted("s0", log: log)]
        for index in 1..<5000 {
            definitions.append(.scripted("s\(index)", log: log, dependencies: ["s\(index - 1)"]))
        }
        let graph = try ServiceGraph(definitions: definitions.reversed())
        #expect(graph.startOrder.first == "s0")
        #expect(graph.startOrder.last == "s4999")
        #expect(graph.levels.count == 5000)
    }
}
