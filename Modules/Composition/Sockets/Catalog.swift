/// Everything an app can be composed from: the sockets that exist, the providers that can fill
/// them, and the services that can run.
///
/// Modules and apps each publish a catalog; an app merges them:
///
/// ```swift
/// let catalog = Catalog.merging([SharedCatalog.catalog, ExampleApp.providers])
/// ```
///
/// Merging keeps duplicates so the validator can report them with both declaration sites.
public struct Catalog: Sendable {
    /// The sockets, in declaration order.
    public var sockets: [SocketDescriptor]
    /// The providers, in declaration order.
    public var providers: [Provider]
    /// The services, in declaration order.
    public var services: [ServiceDefinition]

    /// Makes a catalog.
    public init(
        sockets: [SocketDescriptor] = [], providers: [Provider] = [], services: [ServiceDefinition] = []
    ) {
        self.sockets = sockets
        self.providers = providers
        self.services = services
    }

    /// All the given catalogs in one, in order. Duplicate ids are kept (and reported by
    /// `ManifestValidator`).
    public static func merging(_ catalogs: [Catalog]) -> Catalog {
        Catalog(
            sockets: catalogs.flatMap(\.sockets), providers: catalogs.flatMap(\.providers),
            services: catalogs.flatMap(\.services))
    }

    /// The socket with an id (the first, if declared twice).
    public func socket(_ id: String) -> SocketDescriptor? { sockets.first { $0.id == id } }

    /// The provider with an id (the first, if declared twice).
    public func provider(_ id: String) -> Provider? { providers.first { $0.id == id } }

    /// The service with an id (the first, if declared twice).
    public func service(_ id: String) -> ServiceDefinition? { services.first { $0.id == id } }

    /// The providers that fill a socket.
    public func providers(filling socketID: String) -> [Provider] {
        providers.filter { $0.socket.id == socketID }
    }
}
