import Backend
import Composition
import Networking
import ServerAPI

/// An app made only of the networking stack's services over the embedded backend, for tests of
/// how those services compose: a manifest enabling `services` (in order), and a catalog of the
/// embedded backend and `NetworkServices` taking their transport from `transportSources`.
package func networkTestApp(
    services: [String],
    transportSources: [TransportSourceReference] = [TransportSourceReference(.embeddedBackend)]
) -> AppDefinition {
    let list = services.map { "\"\($0)\"" }.joined(separator: ", ")
    let manifest = """
        {"app": "testapp", "displayName": "Test App", "version": "1.0.0", "sockets": {}, "services": [\(list)]}
        """
    let catalog = Catalog.merging([
        EmbeddedBackend.catalog, NetworkServices.catalog(transportSources: transportSources),
    ])
    return AppDefinition(
        id: "testapp", catalog: catalog,
        manifest: EmbeddedManifest(path: "Manifests/testapp.json", contents: manifest))
}
