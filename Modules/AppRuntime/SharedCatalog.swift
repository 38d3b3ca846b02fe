import Backend
import Composition
import Features
import HTTPClient
import Networking
import ServerAPI
import Sockets

/// Everything the apps are composed from besides their own providers: the sockets, and the
/// services of the shared modules. An app's catalog is this plus its providers.
public enum SharedCatalog {
    /// The shared sockets and services.
    public static var catalog: Catalog {
        Catalog.merging([
            StandardSockets.catalog,
            EmbeddedBackend.catalog,
            NetworkServices.catalog(
                transportSources: [
                    TransportSourceReference(.httpBackend), TransportSourceReference(.embeddedBackend),
                ],
                // The server's pages are the app's own (`FeedPolicy.pageSize`).
                feedPageSize: { context in context.registry.with(.feedPolicy) { $0.pageSize } }),
            Catalog(services: [ActivityEventsService.definition, PhotoArtService.definition]),
        ])
    }
}
