import Synchronization

/// Runs one app's services: starts them in dependency order (independent ones at the same
/// time), each within its timeout; delivers lifecycle events in dependency order; and stops
/// them in reverse order.
///
/// A service whose start throws or hangs fails the launch, naming it and the chain of services
/// that needed it; the services already started are stopped again, in reverse order. A start
/// that hangs is cancelled and abandoned (it cannot be forced to return); if it ever finishes,
/// the service is stopped right away.
public final class ServiceRuntime: Sendable {
    /// The services, resolved.
    public let graph: ServiceGraph
    let appID: String
    let registry: SocketRegistry
    let values: LaunchValues
    private let state = Mutex(State())

    private struct State {
        var instances: [Int: any Service] = [:]
        var startedOrder: [Int] = []
        var stopping = false
    }

    /// Makes a runtime for a resolved graph.
    public init(graph: ServiceGraph, appID: String, registry: SocketRegistry, values: LaunchValues) {
        self.graph = graph
        self.appID = appID
        self.registry = registry
        self.values = values
    }

    /// The running service with a key's id, if it started and has that type.
    public func service<S: Service>(_ key: ServiceKey<S>) -> S? {
        guard let index = graph.index(of: key.id) else { return nil }
        return state.withLock { $0.instances[index] } as? S
    }

    /// The ids of the started services, in the order their starts finished.
    public var startedServices: [String] {
        state.withLock { $0.startedOrder.map { graph.nodes[$0].id } }
    }

    // MARK: - Start

    /// The shared state of one launch: which services wait on how many dependencies, which are
    /// in flight (with their deadlines), and how the launch ends.
    private final class Launch: Sendable {
        struct State {
            var remaining: [Int]
            var deadlines: [Int: ContinuousClock.Instant] = [:]
            var tasks: [Task<Void, Never>] = []
            var starts: [LaunchTrace.ServiceStart] = []
            var failure: LaunchError.Reason?
            var continuation: CheckedContinuation<Void, Never>?
            var finished = false
        }

        let state: Mutex<State>

        init(remaining: [Int]) {
            state = Mutex(State(remaining: remaining))
        }

        /// Resumes the launcher once nothing is in flight. Call with the lock held.
        static func finishIfIdle(_ state: inout State) -> CheckedContinuation<Void, Never>? {
            guard state.deadlines.isEmpty, !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }

        /// Records a failure (the first one wins) and cancels every start still running.
        func fail(_ reason: LaunchError.Reason, removing index: Int?) {
            let (tasks, continuation) = state.withLock {
                state -> ([Task<Void, Never>], CheckedContinuation<Void, Never>?) in
                if let index { state.deadlines.removeValue(forKey: index) }
                if state.failure == nil { state.failure = reason }
                return (state.tasks, Launch.finishIfIdle(&state))
            }
            for task in tasks { task.cancel() }
            continuation?.resume()
        }
    }

    /// How long a service ready to start may wait for a thread before it counts as hung: a
    /// hang guard only. Its own ``ServiceDefinition/startTimeout`` counts from when its start
    /// begins.
    static let waitForAThread: Duration = .seconds(3600)

    /// Starts every service, dependencies first; independent services start concurrently.
    ///
    /// A service whose dependencies have all started is started right away: the task that
    /// finished the last dependency goes on to start one newly ready service itself and starts a
    /// task for each other one, so a chain of dependencies runs without hopping between threads.
    ///
    /// - Parameter origin: the instant the launch began; trace offsets are measured from it.
    /// - Returns: each service's start, in the order they finished.
    public func start(origin: ContinuousClock.Instant) async throws(LaunchError) -> [LaunchTrace.ServiceStart]
    {
        let nodes = graph.nodes
        guard !nodes.isEmpty else { return [] }
        let clock = ContinuousClock()
        let launch = Launch(remaining: nodes.map(\.dependencies.count))
        let roots = nodes.indices.filter { nodes[$0].dependencies.isEmpty }
        let shortest = nodes.map(\.definition.startTimeout).min() ?? .seconds(30)

        let watchdog = Task {
            while !Task.isCancelled {
                let now = clock.now
                let earliest = launch.state.withLock { $0.deadlines.values.min() }
                try? await clock.sleep(until: min(earliest ?? now + shortest, now + shortest))
                if Task.isCancelled { return }
                let overdue = launch.state.withLock { state in
                    let now = clock.now
                    return state.deadlines.filter { $0.value <= now }.keys.sorted()
                }
                for index in overdue {
                    launch.fail(
                        .serviceTimedOut(
                            service: nodes[index].id, chain: graph.chain(neededBy: nodes[index].id),
                            timeout: nodes[index].definition.startTimeout), removing: index)
                }
            }
        }

        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                launch.state.withLock { state in
                    state.continuation = continuation
                    for index in roots { state.deadlines[index] = clock.now + Self.waitForAThread }
                }
                for index in roots { spawn(index, launch: launch, clock: clock, origin: origin) }
            }
        } onCancel: {
            launch.fail(.cancelled, removing: nil)
        }
        watchdog.cancel()
        let (failure, starts) = launch.state.withLock { ($0.failure, $0.starts) }
        if let failure {
            let stopped = await stop()
            throw LaunchError(failure, stoppedServices: stopped)
        }
        return starts
    }

    private func spawn(_ index: Int, launch: Launch, clock: ContinuousClock, origin: ContinuousClock.Instant)
    {
        let task = Task { await self.run(index, launch: launch, clock: clock, origin: origin) }
        launch.state.withLock { $0.tasks.append(task) }
    }

    /// Starts `index`, then keeps starting services made ready by it in this task.
    private func run(_ first: Int, launch: Launch, clock: ContinuousClock, origin: ContinuousClock.Instant)
        async
    {
        let nodes = graph.nodes
        var next: Int? = first
        while let index = next {
            next = nil
            let node = nodes[index]
            let context = makeContext(for: index)
            let began = clock.now
            // The start's own time limit counts from here: the time a ready service waited for a
            // thread (every one busy on a loaded machine) is not the service being slow.
            launch.state.withLock { state in
                if state.deadlines[index] != nil {
                    state.deadlines[index] = began + node.definition.startTimeout
                }
            }
            let service: any Service
            do {
                service = try node.definition.make(context)
                try await service.start(context)
            } catch {
                let stillOurs = launch.state.withLock { $0.deadlines[index] != nil }
                if stillOurs {
                    launch.fail(
                        .serviceFailed(
                            service: node.id, chain: graph.chain(neededBy: node.id),
                            message: String(describing: error)),
                        removing: index)
                }
                return
            }
            let took = clock.now - began
            let outcome = launch.state.withLock {
                state -> (ready: [Int], late: Bool, done: CheckedContinuation<Void, Never>?) in
                guard state.deadlines.removeValue(forKey: index) != nil else { return ([], true, nil) }
                self.state.withLock {
                    $0.instances[index] = service
                    $0.startedOrder.append(index)
                }
                state.starts.append(
                    LaunchTrace.ServiceStart(id: node.id, began: began - origin, duration: took))
                var ready: [Int] = []
                if state.failure == nil {
                    for dependent in node.dependents {
                        state.remaining[dependent] -= 1
                        if state.remaining[dependent] == 0 {
                            state.deadlines[dependent] = clock.now + Self.waitForAThread
                            ready.append(dependent)
                        }
                    }
                }
                return (ready, false, ready.isEmpty ? Launch.finishIfIdle(&state) : nil)
            }
            if outcome.late {
                // The watchdog gave up on this start already; it finished after all.
                await service.stop()
                return
            }
            outcome.done?.resume()
            if let first = outcome.ready.first {
                for other in outcome.ready.dropFirst() {
                    spawn(other, launch: launch, clock: clock, origin: origin)
                }
                next = first
            }
        }
    }

    private func makeContext(for index: Int) -> ServiceContext {
        let node = graph.nodes[index]
        let dependencies: [String: any Service] = state.withLock { state in
            var found: [String: any Service] = [:]
            for dependency in node.dependencies {
                if let service = state.instances[dependency] { found[graph.nodes[dependency].id] = service }
            }
            return found
        }
        return ServiceContext(
            serviceID: node.id, appID: appID, registry: registry, values: values, dependencies: dependencies)
    }

    // MARK: - Events and stop

    /// Delivers an event to every started service that receives it, one at a time, in
    /// dependency order. Returns the ids of the services it was delivered to.
    @discardableResult
    public func deliver(_ event: LifecycleEvent) async -> [String] {
        var delivered: [String] = []
        for (index, node) in graph.nodes.enumerated() where node.events.contains(event.kind) {
            let service = state.withLock { $0.stopping ? nil : $0.instances[index] }
            guard let service else { continue }
            await service.handle(event)
            delivered.append(node.id)
        }
        return delivered
    }

    /// Stops every started service in reverse start order, each within its stop timeout (a stop
    /// that hangs is abandoned). Safe to call more than once: later calls stop nothing.
    /// Returns the ids of the services it stopped, in order.
    @discardableResult
    public func stop() async -> [String] {
        let order: [(Int, any Service)] = state.withLock { state in
            guard !state.stopping else { return [] }
            state.stopping = true
            return state.startedOrder.reversed().compactMap { index in
                state.instances[index].map { (index, $0) }
            }
        }
        var stopped: [String] = []
        for (index, service) in order {
            _ = await Deadline.run(within: graph.nodes[index].definition.stopTimeout) { await service.stop() }
            stopped.append(graph.nodes[index].id)
        }
        state.withLock { $0.instances.removeAll() }
        return stopped
    }
}
