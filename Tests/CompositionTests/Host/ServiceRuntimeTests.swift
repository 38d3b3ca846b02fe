import Composition
import Foundation
import Testing

@Suite struct ServiceRuntimeTests {
    func runtime(_ definitions: [ServiceDefinition]) throws -> ServiceRuntime {
        ServiceRuntime(
            graph: try ServiceGraph(definitions: definitions), appID: "demo", registry: SocketRegistry(),
            values: LaunchValues())
    }

    @Test func start_runsEachServiceAfterItsDependencies() async throws {
        let log = EventLog()
        let runtime = try runtime([
            .scripted("feed", log: log, dependencies: ["network"]),
            .scripted("network", log: log, dependencies: ["storage"]),
            .scripted("storage", log: log),
        ])
        let starts = try await runtime.start(origin: ContinuousClock.now)
        #expect(log.filtered("start:") == ["start:storage", "start:network", "start:feed"])
        #expect(starts.map(\.id) == ["storage", "network", "feed"])
        #expect(
            try #require(log.all.firstIndex(of: "begin:network")) > #require(
                log.all.firstIndex(of: "start:storage")))
    }

    @Test func independentServices_startConcurrently() async throws {
        // 'a' (first in order) only finishes once 'b' has started: a sequential start would
        // wait on 'a' forever and time out instead.
        let log = EventLog()
        let gate = Gate()
        let runtime = try runtime([
            .scripted("a", log: log, behavior: .waitFor(gate), timeout: .seconds(600)),
            .scripted("b", log: log, behavior: .open(gate)),
            .scripted("c", log: log, dependencies: ["a"]),
        ])
        _ = try await runtime.start(origin: ContinuousClock.now)
        #expect(Set(runtime.startedServices) == ["a", "b", "c"])
    }

    @Test func failingStart_namesTheServiceAndChainAndStopsStartedServicesInReverse() async throws {
        let log = EventLog()
        let runtime = try runtime([
            .scripted("storage", log: log),
            .scripted("clock", log: log, dependencies: ["storage"]),
            .scripted("network", log: log, dependencies: ["clock"], behavior: .fail),
            .scripted("feed", log: log, dependencies: ["network"]),
        ])
        await #expect {
            _ = try await runtime.start(origin: ContinuousClock.now)
        } throws: { error in
            (error as? LaunchError)?.description
                == "service 'network' failed to start: disk is full (needed by: feed -> network); stopped already-started services: clock, storage"
        }
        #expect(log.filtered("stop:") == ["stop:clock", "stop:storage"])
        #expect(!log.all.contains("begin:feed"))
    }

    @Test func hangingStart_timesOutNamingItAndStopsTheOthers() async throws {
        let log = EventLog()
        let runtime = try runtime([
            .scripted("storage", log: log),
            .scripted(
                "slow", log: log, dependencies: ["storage"], behavior: .hang, timeout: .milliseconds(100)),
            .scripted("feed", log: log, dependencies: ["slow"]),
        ])
        await #expect {
            _ = try await runtime.start(origin: ContinuousClock.now)
        } throws: { error in
            let launch = error as? LaunchError
            return launch?.failedService == "slow"
                && launch?.description
                    == "service 'slow' did not start within 0.1 seconds (needed by: feed -> slow); stopped already-started services: storage"
        }
        #expect(log.filtered("stop:") == ["stop:storage"])
    }

    @Test func events_areDeliveredInDependencyOrderToSubscribersOnly() async throws {
        let log = EventLog()
        let definition = Fixtures.definition(log: log)
        let app = try await AppHost.launch(definition)
        let delivered = await app.deliver(.foreground)
        #expect(delivered == ["network", "feed"])
        await app.deliver(.pushReceived(Data("{}".utf8)))
        #expect(
            log.filtered("event:") == [
                "event:network:foreground", "event:feed:foreground", "event:push:pushReceived",
            ])
        await app.stop()
    }

    @Test func stop_runsInReverseStartOrderOnceOnly() async throws {
        let log = EventLog()
        let app = try await AppHost.launch(Fixtures.definition(log: log))
        let started = app.runtime.startedServices
        let stopped = await app.stop()
        #expect(stopped == started.reversed())
        #expect(log.filtered("stop:") == started.reversed().map { "stop:\($0)" })
        #expect(await app.stop() == [])
        #expect(log.all.contains("event:storage:terminate"))
    }

    @Test func cancellingTheRunningTask_stopsServicesInReverseOrder() async throws {
        let log = EventLog()
        let definition = Fixtures.definition(log: log)
        let started = EventLog()
        let task = Task {
            try await AppHost.run(definition) { app in
                started.record("running")
                try await Task.sleep(for: .seconds(60))
            }
        }
        while started.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        _ = await task.result
        #expect(log.filtered("stop:") == ["stop:push", "stop:feed", "stop:network", "stop:storage"])
    }
}
