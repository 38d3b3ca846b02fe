import Composition
import Foundation

extension ShippedApp {
    /// A variant that cannot be made or used (a manifest that is not a JSON object with `sockets`).
    package struct VariantError: Error, CustomStringConvertible {
        package let description: String

        /// An error saying `description`.
        package init(description: String) {
            self.description = description
        }
    }

    /// This app with `provider` added to its catalog and bound to the socket it fills: a test's
    /// variant of the app, to see a socket's contract at work without shipping an app for it.
    /// The id stays the app's, so its data and goldens are the app's own.
    package func rebinding(_ provider: Provider) throws -> AppDefinition {
        let data = Data(definition.manifest.contents.utf8)
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            var sockets = object["sockets"] as? [String: Any]
        else { throw VariantError(description: "\(id)'s manifest has no \"sockets\" object") }
        sockets[provider.socket.id] = provider.id
        object["sockets"] = sockets
        let text = String(
            decoding: try JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
            as: UTF8.self)
        return AppDefinition(
            id: id, catalog: Catalog.merging([definition.catalog, Catalog(providers: [provider])]),
            manifest: EmbeddedManifest(path: definition.manifest.path, contents: text))
    }
}
