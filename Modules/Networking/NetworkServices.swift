import Composition
import FeedCaching
import HTTPClient
import Mutations
import ServerAPI
import Storage

/// The networking stack's catalog entries, one per module: `storage.database` (Storage, with
/// `AppDatabase`'s migrations), `network.http` (the HTTP transport source, inert unless
/// `ServerURLKey` is set) and `network.client` (taking its transport from the given sources),
/// both ServerAPI; `feed.cache` (FeedCaching) and `mutations.replay` (Mutations).
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
/// | `network.http` | - | `ServerURLKey`, `HTTPTimeoutKey`, `HTTPFaultProfileKey`, `HTTPFaultClockKey` |
/// | `network.client` | its transport sources | `ViewerKey`, `NetworkClockKey` |
/// | `feed.cache` | `storage.database`, `network.client` | `NetworkClockKey` |
/// | `mutations.replay` | `storage.database`, `network.client`; `feed.cache` when enabled | `NetworkClockKey`, `MutationConfigurationKey`, `MutationReauthenticationKey` |
public enum NetworkServices {
    /// `storage.database`, opening `AppDatabase.fileName` with `AppDatabase.migrations`: no
    /// dependencies.
    public static let databaseDefinition = ServiceDefinition(.appDatabase) { _ in
        AppDatabaseService(
            fileName: AppDatabase.fileName, migrations: AppDatabase.migrations,
            readContents: AppDatabase.describeUnsentChanges)
    }

    /// `network.http`: no dependencies.
    public static let httpDefinition = ServiceDefinition(.httpBackend) { _ in HTTPTransportService() }

    /// `feed.cache`: after `storage.database` and `network.client`, fetching pages of
    /// `pageSize(context)` entries (read when the service is made, so it may ask the app's
    /// sockets).
    public static func feedCacheDefinition(
        pageSize: @escaping @Sendable (ServiceContext) -> Int = { _ in FeedCacheService.defaultPageSize }
    ) -> ServiceDefinition {
        ServiceDefinition(.feedCache, dependencies: [AppDatabaseService.id, NetworkClientService.id]) {
            context in
            FeedCacheService(pageSize: max(pageSize(context), 1))
        }
    }

    /// `mutations.replay`: after `storage.database`, `network.client`, and `feed.cache` when the
    /// app enables it (an app without a feed sends changes all the same); clears the backoff on
    /// `foreground`.
    public static let mutationReplayDefinition = ServiceDefinition(
        .mutationReplay, dependencies: [AppDatabaseService.id, NetworkClientService.id],
        optionalDependencies: [FeedCacheService.id], events: [.foreground]
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
