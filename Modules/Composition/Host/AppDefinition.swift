/// Everything that makes an app itself: its id, the catalog it is composed from, and the
/// manifest compiled into its binary.
///
/// An app's library publishes one (`ExampleApp.definition`); its executable only launches it.
public struct AppDefinition: Sendable {
    /// The app's stable id (`"example"`); its manifest must name the same id.
    public let id: String
    /// The sockets, providers and services the app can be composed from.
    public let catalog: Catalog
    /// The manifest compiled into the binary.
    public let manifest: EmbeddedManifest

    /// Makes a definition.
    public init(id: String, catalog: Catalog, manifest: EmbeddedManifest) {
        self.id = id
        self.catalog = catalog
        self.manifest = manifest
    }
}

/// A manifest's text as compiled into a binary, with the path it came from (for diagnostics).
/// The build writes it from `Manifests/<app>.json`; the app never reads the source tree.
public struct EmbeddedManifest: Sendable {
    /// The path of the source file, relative to the package root (`Manifests/example.json`).
    public let path: String
    /// The manifest's text.
    public let contents: String

    /// Makes an embedded manifest.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }

    /// Decodes the manifest strictly.
    public func decode() throws(ManifestLoadError) -> Manifest {
        try Manifest.parse(Array(contents.utf8), file: path)
    }
}
