import Composition
import Wire

/// A service `network.client` may take its transport from, named by a typed key so the client
/// finds it without importing the module that makes it (the app's composition names it).
///
/// ```swift
/// NetworkServices.catalog(transportSources: [TransportSourceReference(.embeddedBackend)])
/// ```
public struct TransportSourceReference: Sendable {
    /// The source service's id (becomes a dependency of `network.client`).
    public let serviceID: String
    let resolve: @Sendable (ServiceContext) throws -> any TransportSource

    /// Refers to the service behind `key`, which must be a `TransportSource`.
    public init<S: Service & TransportSource>(_ key: ServiceKey<S>) {
        serviceID = key.id
        resolve = { context in try context.service(key) }
    }
}
