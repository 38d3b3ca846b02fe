import Foundation

/// What happened during one launch: each phase, each service's start (when it began and how
/// long it took, measured from the start of the launch), the critical path, and the total.
public struct LaunchTrace: Sendable {
    /// One service's start.
    public struct ServiceStart: Sendable {
        /// The service's id.
        public var id: String
        /// When its start began, from the start of the launch.
        public var began: Duration
        /// How long its start took.
        public var duration: Duration
        /// When its start ended, from the start of the launch.
        public var ended: Duration { began + duration }
    }

    /// A named moment of the launch: `compose` (validated and resolved), `services` (started),
    /// `launch` (done), and `firstFrame` where the app records one.
    public struct Mark: Sendable {
        /// The name of the step.
        public var name: String
        /// When it ended, from the start of the launch.
        public var at: Duration
    }

    /// Service starts in the order they finished.
    public var services: [ServiceStart] = []
    /// The phases and moments, in order.
    public var marks: [Mark] = []
    /// The longest chain of dependent starts: the services that decided how long starting took.
    public var criticalPath: [String] = []
    /// From the start of the launch to the last mark.
    public var total: Duration { marks.map(\.at).max() ?? .zero }

    /// Makes an empty trace.
    public init() {}

    /// Adds a mark.
    public mutating func mark(_ name: String, at offset: Duration) {
        marks.append(Mark(name: name, at: offset))
    }

    /// The offset of a mark, if recorded.
    public func offset(of mark: String) -> Duration? {
        marks.last { $0.name == mark }?.at
    }

    /// Computes the critical path through `graph` from the recorded starts: from the service
    /// that finished last, back through the dependency that finished last at each step.
    mutating func computeCriticalPath(_ graph: ServiceGraph) {
        let byID = Dictionary(services.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        guard var current = services.max(by: { $0.ended < $1.ended }) else { return }
        var path = [current.id]
        while let index = graph.index(of: current.id) {
            let previous = graph.nodes[index].dependencies
                .compactMap { byID[graph.nodes[$0].id] }
                .max { $0.ended < $1.ended }
            guard let previous else { break }
            path.append(previous.id)
            current = previous
        }
        criticalPath = path.reversed()
    }

    /// A readable table of the trace.
    public var formatted: String {
        var lines: [String] = []
        let width = max(24, (services.map(\.id.count).max() ?? 0) + 2)
        lines.append("launch trace (ms from launch start):")
        for start in services {
            let name = start.id.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name) began \(Self.ms(start.began))  took \(Self.ms(start.duration))")
        }
        for mark in marks {
            let name = mark.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name) at \(Self.ms(mark.at))")
        }
        if !criticalPath.isEmpty {
            lines.append("  critical path: \(criticalPath.joined(separator: " -> "))")
        }
        lines.append("  total: \(Self.ms(total)) ms")
        return lines.joined(separator: "\n")
    }

    static func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.3f", milliseconds)
    }
}
