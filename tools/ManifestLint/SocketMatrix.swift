import Composition
import Foundation

/// The socket matrix: each socket, whether it is required, and which provider fills it in each
/// app (or `(default)` where an optional socket is left unbound).
public struct SocketMatrix: Sendable {
    /// The rows: socket id, requirement, and one cell per app.
    public let rows: [(socket: String, requirement: SocketRequirement, providers: [String])]
    /// The app ids, in column order.
    public let apps: [String]

    /// Builds the matrix from each app's catalog and manifest.
    public init(apps: [(definition: AppDefinition, manifest: Manifest)]) {
        self.apps = apps.map(\.definition.id)
        var order: [String] = []
        var requirement: [String: SocketRequirement] = [:]
        for (definition, _) in apps {
            for socket in definition.catalog.sockets where requirement[socket.id] == nil {
                order.append(socket.id)
                requirement[socket.id] = socket.requirement
            }
        }
        rows = order.map { socket in
            let cells = apps.map { app -> String in
                if let provider = app.manifest.provider(for: socket) { return provider }
                if app.definition.catalog.socket(socket) == nil { return "-" }
                return requirement[socket] == .optional ? "(default)" : "(unbound)"
            }
            return (socket, requirement[socket] ?? .required, cells)
        }
    }

    /// The matrix as an aligned text table.
    public var text: String {
        let header = ["socket", "requirement"] + apps
        let body = rows.map { [$0.socket, $0.requirement.rawValue] + $0.providers }
        let table = [header] + body
        let widths = (0..<header.count).map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
