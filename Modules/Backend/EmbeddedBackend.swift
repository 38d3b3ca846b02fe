import Composition

/// The embedded backend's catalog entry: the `backend.embedded` service.
///
/// ```swift
/// let catalog = Catalog.merging([EmbeddedBackend.catalog, NetworkServices.catalog(transportSources: [
///     TransportSourceReference(.embeddedBackend),
/// ])])
/// ```
public enum EmbeddedBackend {
    /// The service's id.
    public static let serviceID = "backend.embedded"

    /// `backend.embedded`: no dependencies, no lifecycle events. Its start may seed a new backend
    /// (about 20,000 rows) or wait while another process seeds the same directory, which takes
    /// seconds on a slow or busy machine, so its start timeout (hang detection) is a minute.
    public static let definition = ServiceDefinition(.embeddedBackend, startTimeout: .seconds(60)) { _ in
        EmbeddedBackendService()
    }

    /// A catalog holding `definition`.
    public static let catalog = Catalog(services: [definition])
}

extension ServiceKey where S == EmbeddedBackendService {
    /// The embedded backend service, `backend.embedded`.
    public static var embeddedBackend: Self { .init(EmbeddedBackend.serviceID) }
}
