import Composition

/// Networking's catalog entries: `storage.database`, `network.http` (the HTTP transport
/// source, inert unless `ServerURLKey` is set), `network.client` (taking its transport from the
/// given sources), `feed.cache` and `mutations.replay`.
///
/// ```swift
/// let catalog = Catalog.merging([
///     EmbeddedBackend.catalog,
///     NetworkServices.catalog(transportSources: [.init(.httpBackend), .init(.embeddedBackend)]),
/// ])
/// ```
///
/// | service | depends on | reads |
/// | --- | --- | --- |
/// | `storage.database` | - | `AppDataDirectoryKey` |
/// | `network.http` | - | `ServerURLKey`, `HTTPTimeoutKey`, `HTTPFaultProfileKey`, `NetworkClockKey` |
/// | `network.client` | its transport sources | `ViewerKey`, `NetworkClockKey` |
/// | `feed.cache` | `storage.database`, `network.client` | `NetworkClockKey` |
/// | `mutations.replay` | `storage.database`, `network.client`, `feed.cache` | `NetworkClockKey`, `MutationConfigurationKey`, `MutationReauthenticationKey` |
public enum NetworkServices {
    /// `storage.database`.
    public static let databaseID = "storage.database"
    /// `network.http`.
    public static let httpID = "network.http"
    /// `network.client`.
    public static let clientID = "network.client"
    /// `feed.cache`.
    public static let feedCacheID = "feed.cache"
    /// `mutations.replay`.
    public static let mutationReplayID = "mutations.replay"

    /// `storage.database`: no dependencies.
    public static let databaseDefinition = ServiceDefinition(.appDatabase) { _ in AppDatabaseService() }

    /// `network.http`: no dependencies.
    public static let httpDefinition = ServiceDefinition(.httpBackend) { _ in HTTPTransportService() }

    /// `feed.cache`: after `storage.database` and `network.client`, fetching pages of
    /// `pageSize(context)` entries (read when the service is made, so it may ask the app's
    /// sockets).
    public static func feedCacheDefinition(
        pageSize: @escaping @Sendable (ServiceContext) -> Int = { _ in FeedCacheService.defaultPageSize }
    ) -> ServiceDefinition {
        ServiceDefinition(.feedCache, dependencies: [databaseID, clientID]) { context in
            FeedCacheService(pageSize: max(pageSize(context), 1))
        }
    }

    /// `mutations.replay`: after `storage.database`, `network.client` and `feed.cache`; clears the
    /// backoff on `foreground`.
    public static let mutationReplayDefinition = ServiceDefinition(
        .mutationReplay, dependencies: [databaseID, clientID, feedCacheID], events: [.foreground]
    ) { _ in MutationReplayService() }

    /// The five services, `network.client` taking its transport from `transportSources` (list
    /// `.init(.httpBackend)` first to prefer a server when one is given) and `feed.cache` its page
    /// size from `feedPageSize`.
    public static func catalog(
        transportSources: [TransportSourceReference],
        feedPageSize: @escaping @Sendable (ServiceContext) -> Int = { _ in FeedCacheService.defaultPageSize }
    ) -> Catalog {
        Catalog(services: [
            databaseDefinition,
            httpDefinition,
            NetworkClientService.definition(transportSources: transportSources),
            feedCacheDefinition(pageSize: feedPageSize),
            mutationReplayDefinition,
        ])
    }
}

extension ServiceKey where S == AppDatabaseService {
    /// The app database service, `storage.database`.
    public static var appDatabase: Self { .init(NetworkServices.databaseID) }
}

extension ServiceKey where S == HTTPTransportService {
    /// The HTTP transport source, `network.http`.
    public static var httpBackend: Self { .init(NetworkServices.httpID) }
}

extension ServiceKey where S == NetworkClientService {
    /// The network client service, `network.client`.
    public static var networkClient: Self { .init(NetworkServices.clientID) }
}

extension ServiceKey where S == FeedCacheService {
    /// The feed cache service, `feed.cache`.
    public static var feedCache: Self { .init(NetworkServices.feedCacheID) }
}

extension ServiceKey where S == MutationReplayService {
    /// The mutation manager's service, `mutations.replay`.
    public static var mutationReplay: Self { .init(NetworkServices.mutationReplayID) }
}
