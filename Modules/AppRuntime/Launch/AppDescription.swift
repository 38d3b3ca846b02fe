import Composition
import Features
import Foundation

/// The `--describe` report of a running app: which provider fills each socket, the service
/// start order, and the launch trace.
struct AppDescription {
    let app: RunningApp

    var text: String {
        let manifest = app.manifest
        let catalog = app.composition.definition.catalog
        var lines = [
            "\(manifest.displayName) \(manifest.version) (app '\(manifest.app)', manifest \(manifest.file))",
            "",
        ]
        lines.append("sockets:")
        var listed = Set<String>()
        let sockets = catalog.sockets.filter { listed.insert($0.id).inserted }
        let providers = sockets.map { app.registry.providers[$0.id] ?? "(default)" }
        let width = (sockets.map(\.id.count).max() ?? 0) + 2
        let providerWidth = (providers.map(\.count).max() ?? 0) + 2
        for (socket, provider) in zip(sockets, providers) {
            let name = socket.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let filled = provider.padding(toLength: providerWidth, withPad: " ", startingAt: 0)
            lines.append("  \(name)\(filled)\(socket.requirement.rawValue)")
        }
        lines.append("")
        lines.append("service start order:")
        let graph = app.composition.graph
        if graph.nodes.isEmpty { lines.append("  (no services enabled)") }
        for (position, node) in graph.nodes.enumerated() {
            let needs = node.dependencies.map { graph.nodes[$0].id }
            let suffix = needs.isEmpty ? "" : "  (after \(needs.joined(separator: ", ")))"
            lines.append("  \(position + 1). \(node.id)\(suffix)")
        }
        lines.append("")
        lines.append(app.trace.formatted)
        return lines.joined(separator: "\n") + "\n"
    }
}
