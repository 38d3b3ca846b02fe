/// Launches an app from its definition: decodes and validates the embedded manifest, builds the
/// socket registry, resolves the service graph and starts it, recording a launch trace.
///
/// ```swift
/// let app = try await AppHost.launch(ExampleApp.definition)
/// defer { Task { await app.stop() } }
/// print(app.registry[.branding].appName)
/// ```
///
/// An invalid manifest fails before any service starts, with every problem listed.
public enum AppHost {
    /// The parts of a validated app, before any service has started.
    public struct Composition: Sendable {
        /// The app's definition.
        public let definition: AppDefinition
        /// The decoded manifest.
        public let manifest: Manifest
        /// The contracts, one per socket.
        public let registry: SocketRegistry
        /// The enabled services, resolved.
        public let graph: ServiceGraph
    }

    /// Decodes and validates the manifest, builds the registry and resolves the service graph,
    /// without starting anything.
    ///
    /// - Parameters:
    ///   - definition: the app to compose: its id, its catalog and its embedded manifest.
    ///   - overrides: a hook for tests to replace sockets after the registry is built.
    public static func compose(
        _ definition: AppDefinition, overrides: @Sendable (SocketRegistry) -> SocketRegistry = { $0 }
    ) throws(LaunchError) -> Composition {
        let manifest: Manifest
        do {
            manifest = try definition.manifest.decode()
        } catch {
            throw LaunchError(.invalidManifest(error.diagnostics))
        }
        let diagnostics = ManifestValidator(catalog: definition.catalog).validate(
            manifest, expectedApp: definition.id)
        if diagnostics.containsErrors { throw LaunchError(.invalidManifest(diagnostics)) }
        let registry = try RegistryBuilder.build(catalog: definition.catalog, manifest: manifest)
        let graph: ServiceGraph
        do {
            graph = try ServiceGraph(catalog: definition.catalog, manifest: manifest)
        } catch {
            throw LaunchError(.unresolvableGraph(error))
        }
        return Composition(
            definition: definition, manifest: manifest, registry: overrides(registry), graph: graph)
    }

    /// Validates, composes and starts an app.
    ///
    /// - Parameters:
    ///   - definition: the app to launch: its id, its catalog and its embedded manifest.
    ///   - values: what the launcher decided (directories, server, clock) for services to read.
    ///   - overrides: a hook for tests to replace sockets.
    public static func launch(
        _ definition: AppDefinition, values: LaunchValues = LaunchValues(),
        overrides: @Sendable (SocketRegistry) -> SocketRegistry = { $0 }
    ) async throws(LaunchError) -> RunningApp {
        let clock = ContinuousClock()
        let origin = clock.now
        var trace = LaunchTrace()
        let composition = try compose(definition, overrides: overrides)
        trace.mark("compose", at: clock.now - origin)
        let runtime = ServiceRuntime(
            graph: composition.graph, appID: definition.id, registry: composition.registry, values: values)
        trace.services = try await runtime.start(origin: origin)
        trace.computeCriticalPath(composition.graph)
        trace.mark("services", at: clock.now - origin)
        await runtime.deliver(.launch)
        trace.mark("launch", at: clock.now - origin)
        return RunningApp(composition: composition, runtime: runtime, trace: trace, origin: origin)
    }

    /// Launches an app, runs `body` with it, and stops its services in reverse order when `body`
    /// returns, throws, or the task is cancelled.
    public static func run<T: Sendable>(
        _ definition: AppDefinition, values: LaunchValues = LaunchValues(),
        overrides: @Sendable (SocketRegistry) -> SocketRegistry = { $0 },
        _ body: (RunningApp) async throws -> T
    ) async throws -> T {
        let app = try await launch(definition, values: values, overrides: overrides)
        do {
            let result = try await body(app)
            await app.stopDetached()
            return result
        } catch {
            await app.stopDetached()
            throw error
        }
    }
}

/// An app whose services are running.
public final class RunningApp: Sendable {
    /// The validated composition.
    public let composition: AppHost.Composition
    /// The services.
    public let runtime: ServiceRuntime
    /// The launch trace, from the start of the launch to the `launch` event.
    public let trace: LaunchTrace
    /// The instant the launch began.
    public let origin: ContinuousClock.Instant

    init(
        composition: AppHost.Composition, runtime: ServiceRuntime, trace: LaunchTrace,
        origin: ContinuousClock.Instant
    ) {
        self.composition = composition
        self.runtime = runtime
        self.trace = trace
        self.origin = origin
    }

    /// The app's sockets.
    public var registry: SocketRegistry { composition.registry }
    /// The app's manifest.
    public var manifest: Manifest { composition.manifest }

    /// A running service, by key.
    public func service<S: Service>(_ key: ServiceKey<S>) -> S? { runtime.service(key) }

    /// Delivers a lifecycle event in dependency order; returns who received it.
    @discardableResult
    public func deliver(_ event: LifecycleEvent) async -> [String] { await runtime.deliver(event) }

    /// Delivers `terminate`, then stops every service in reverse start order. Returns the ids of
    /// the services stopped.
    @discardableResult
    public func stop() async -> [String] {
        await runtime.deliver(.terminate)
        return await runtime.stop()
    }

    /// `stop()`, run in a task of its own so it completes even when the caller was cancelled.
    @discardableResult
    public func stopDetached() async -> [String] {
        await Task { await self.stop() }.value
    }
}
