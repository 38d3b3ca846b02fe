import Composition
import Foundation

/// A printable service graph of one app: start order with dependencies, parallel start levels,
/// and the order each lifecycle event is delivered in. Output is deterministic.
public struct ServiceGraphReport: Sendable {
    /// The app's id.
    public let app: String
    /// The resolved graph.
    public let graph: ServiceGraph

    /// Makes a report.
    public init(app: String, graph: ServiceGraph) {
        self.app = app
        self.graph = graph
    }

    /// Start order, levels and event delivery order as text.
    public var text: String {
        var lines = ["service graph of '\(app)' (\(graph.nodes.count) services)", "", "start order:"]
        for (position, node) in graph.nodes.enumerated() {
            let needs = node.dependencies.map { graph.nodes[$0].id }
            var line = "  \(position + 1). \(node.id)"
            if !needs.isEmpty { line += "  needs: \(needs.joined(separator: ", "))" }
            if !node.events.isEmpty {
                line += "  events: \(node.events.sorted().map(\.rawValue).joined(separator: ", "))"
            }
            lines.append(line)
        }
        lines += ["", "start levels (services in one level start concurrently):"]
        for (level, ids) in graph.levels.enumerated() {
            lines.append("  \(level): \(ids.joined(separator: ", "))")
        }
        lines += ["", "event delivery order:"]
        for kind in LifecycleEvent.Kind.allCases {
            let order = graph.deliveryOrder(for: kind)
            lines.append("  \(kind.rawValue): \(order.isEmpty ? "(none)" : order.joined(separator: " -> "))")
        }
        lines += [
            "",
            "stop order: \(graph.stopOrder.isEmpty ? "(none)" : graph.stopOrder.joined(separator: " -> "))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT: an edge from each service to each service it needs.
    public var dot: String {
        var lines = ["digraph \"\(app)\" {", "    rankdir=BT;", "    node [shape=box];"]
        for node in graph.nodes {
            let events = node.events.sorted().map(\.rawValue).joined(separator: ", ")
            let label = events.isEmpty ? node.id : "\(node.id)\\n[\(events)]"
            lines.append("    \"\(node.id)\" [label=\"\(label)\"];")
        }
        for node in graph.nodes {
            for dependency in node.dependencies {
                lines.append("    \"\(node.id)\" -> \"\(graph.nodes[dependency].id)\";")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
