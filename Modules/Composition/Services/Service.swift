/// A long-lived unit of an app (a database, a network client, a cache) with a start, a stop,
/// and the lifecycle events it reacts to.
///
/// Services are declared in code by the module that owns them (`ServiceDefinition`), enabled per
/// app by its manifest, and started by `AppHost` in dependency order.
public protocol Service: AnyObject, Sendable {
    /// Brings the service up. Dependencies have started already. Throwing fails the launch.
    func start(_ context: ServiceContext) async throws
    /// Takes the service down. Called in reverse start order, also when a launch fails later.
    func stop() async
    /// Reacts to a lifecycle event this service subscribed to.
    func handle(_ event: LifecycleEvent) async
}

extension Service {
    /// Services that do nothing on start only implement what they need.
    public func start(_ context: ServiceContext) async throws {}
    /// Services that hold nothing to release need no stop.
    public func stop() async {}
    /// Services that react to no event need no handler.
    public func handle(_ event: LifecycleEvent) async {}
}

/// A typed handle on a service: its id, and the type a dependent gets back.
///
/// ```swift
/// extension ServiceKey where S == AppDatabaseService {
///     public static var appDatabase: Self { .init("storage.database") }
/// }
/// let database = try context.service(.appDatabase).database
/// ```
public struct ServiceKey<S: Service>: Sendable, Hashable {
    /// The service's id.
    public let id: String

    /// Makes a key.
    public init(_ id: String) {
        self.id = id
    }
}

/// A service as declared in code: its id, dependencies, the events it reacts to, how long its
/// start may take, and how to make it.
public struct ServiceDefinition: Sendable {
    /// The service's id.
    public let id: String
    /// The ids of the services it needs started first.
    public let dependencies: [String]
    /// The ids of the services it uses when the app enables them (started first then), and does
    /// without otherwise: the mutation manager stores confirmed facts in the feed cache of an app
    /// that has a feed, and an app without one launches all the same.
    public let optionalDependencies: [String]
    /// The lifecycle events it reacts to.
    public let events: Set<LifecycleEvent.Kind>
    /// How long `start` may take, from when it begins, before the launch fails: hang detection,
    /// so generous (30 seconds unless the definition says otherwise). Starts that open files took
    /// over 10 seconds on a 2-core machine while the test suite kept every core busy. The time a
    /// ready service waits for a thread to run its start on does not count.
    public let startTimeout: Duration
    /// How long `stop` may take before it is abandoned.
    public let stopTimeout: Duration
    /// Where the service is declared.
    public let location: SourceLocation
    /// Makes the service instance.
    let make: @Sendable (ServiceContext) throws -> any Service

    /// Declares a service.
    public init<S: Service>(
        _ key: ServiceKey<S>, dependencies: [String] = [], optionalDependencies: [String] = [],
        events: Set<LifecycleEvent.Kind> = [],
        startTimeout: Duration = .seconds(30), stopTimeout: Duration = .seconds(5),
        file: String = #filePath, line: Int = #line, column: Int = #column,
        make: @escaping @Sendable (ServiceContext) throws -> S
    ) {
        self.id = key.id
        self.dependencies = dependencies
        self.optionalDependencies = optionalDependencies
        self.events = events
        self.startTimeout = startTimeout
        self.stopTimeout = stopTimeout
        self.location = SourceLocation(declaredAt: file, line: line, column: column)
        self.make = { context in try make(context) }
    }
}
