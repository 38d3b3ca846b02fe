import Basics
import Composition

/// Validating, resolving and starting a large synthetic service graph.
enum LaunchSuite {
    /// A service whose start does nothing.
    final class NoOpService: Service {
        @inline(never) func noOpStart() async {}
    }

    static let suite = BenchSuite(
        name: "launch", summary: "2,000 services (random DAG, ~3 dependencies each): validate, resolve, start"
    ) { runner in
        let count = 2000
        var generator = SplitMix64(seed: 2000)
        var definitions: [ServiceDefinition] = []
        var ids: [String] = []
        for index in 0..<count {
            let id = "service.\(index)"
            var dependencies = Set<String>()
            if index > 0 {
                for _ in 0..<3 {
                    dependencies.insert("service.\(Int.random(in: 0..<index, using: &generator))")
                }
            }
            definitions.append(
                ServiceDefinition(ServiceKey<NoOpService>(id), dependencies: dependencies.sorted()) { _ in
                    NoOpService()
                })
            ids.append(id)
        }
        ids.shuffle(using: &generator)
        let catalog = Catalog(services: definitions)
        let manifest = Manifest(app: "bench", displayName: "Bench", sockets: [:], services: ids)
        runner.log(
            "\(count) services, \(definitions.map(\.dependencies.count).reduce(0, +)) dependency edges")

        let clock = ContinuousClock()
        var launchTimes: [Double] = []
        var floorTimes: [Double] = []
        for run in 0..<(runner.quick ? 4 : 12) {
            let origin = clock.now
            let problems = ManifestValidator(catalog: catalog).validate(manifest)
            precondition(problems.isEmpty, "synthetic manifest is invalid: \(problems.prefix(3))")
            let graph = try ServiceGraph(catalog: catalog, manifest: manifest)
            let runtime = ServiceRuntime(
                graph: graph, appID: "bench", registry: SocketRegistry(), values: LaunchValues())
            let starts = try await runtime.start(origin: origin)
            let elapsed = (clock.now - origin).seconds
            precondition(starts.count == count)
            await runtime.stop()

            // The floor: the same services made and started one after another, in an order
            // already known, with no validation, graph or concurrency.
            let floorOrigin = clock.now
            var made: [NoOpService] = []
            made.reserveCapacity(graph.nodes.count)
            for _ in graph.nodes {
                let service = NoOpService()
                await service.noOpStart()
                made.append(service)
            }
            blackHole(made)
            let floor = (clock.now - floorOrigin).seconds
            if run >= 2 {
                launchTimes.append(elapsed)
                floorTimes.append(floor)
            }
        }
        runner.report(
            "validate + resolve + start 2,000", Samples(launchTimes), unit: .milliseconds,
            baseline: ("sequential start, no graph", Samples(floorTimes)), targets: [.atMost(20)])
    }
}
