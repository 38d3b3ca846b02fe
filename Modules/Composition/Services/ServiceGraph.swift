/// The enabled services of one app, resolved: a start order in which every service comes after
/// its dependencies, the edges both ways, and the events each service receives.
///
/// ```swift
/// let graph = try ServiceGraph(catalog: catalog, manifest: manifest)
/// print(graph.startOrder)   // ["storage.database", "network.client", "feed.cache"]
/// ```
///
/// Complexity: O(V + E) to resolve.
public struct ServiceGraph: Sendable {
    /// One service in the graph.
    public struct Node: Sendable {
        /// The service as declared.
        public let definition: ServiceDefinition
        /// Indexes (into `nodes`) of the services it depends on.
        public let dependencies: [Int]
        /// Indexes (into `nodes`) of the services that depend on it.
        public let dependents: [Int]
        /// The events this app delivers to it.
        public let events: Set<LifecycleEvent.Kind>

        /// The service's id.
        public var id: String { definition.id }
    }

    /// The services in start order: each after all of its dependencies, otherwise in manifest
    /// order.
    public let nodes: [Node]
    private let indexByID: [String: Int]

    /// Resolves the services a manifest enables from a catalog.
    public init(catalog: Catalog, manifest: Manifest) throws(ServiceGraphError) {
        var definitions: [ServiceDefinition] = []
        var events: [String: Set<LifecycleEvent.Kind>] = [:]
        var seen = Set<String>()
        var byID: [String: ServiceDefinition] = [:]
        for definition in catalog.services where byID[definition.id] == nil {
            byID[definition.id] = definition
        }
        for entry in manifest.services where seen.insert(entry.id).inserted {
            guard let definition = byID[entry.id] else { throw .unknownService(entry.id) }
            definitions.append(definition)
            if let names = entry.events {
                events[entry.id] = Set(names.compactMap(LifecycleEvent.Kind.init(name:))).intersection(
                    definition.events)
            }
        }
        try self.init(definitions: definitions, events: events)
    }

    /// Resolves a list of services (in the order they should start when nothing else decides).
    ///
    /// - Parameters:
    ///   - definitions: the services to resolve, in the order they start when their
    ///     dependencies do not decide it.
    ///   - events: for each service id that should receive fewer events than it reacts to, the
    ///     events it receives.
    public init(definitions: [ServiceDefinition], events: [String: Set<LifecycleEvent.Kind>] = [:])
        throws(ServiceGraphError)
    {
        var position: [String: Int] = [:]
        for (offset, definition) in definitions.enumerated() where position[definition.id] == nil {
            position[definition.id] = offset
        }
        var edges: [[Int]] = []
        edges.reserveCapacity(definitions.count)
        for definition in definitions {
            var list: [Int] = []
            list.reserveCapacity(definition.dependencies.count)
            for dependency in definition.dependencies {
                guard let target = position[dependency] else {
                    throw .missingDependency(service: definition.id, dependency: dependency)
                }
                list.append(target)
            }
            // A service used when enabled is an edge only when the app enables it.
            for dependency in definition.optionalDependencies {
                if let target = position[dependency], !list.contains(target) { list.append(target) }
            }
            edges.append(list)
        }
        if let cycle = CycleFinder.cycles(nodeCount: definitions.count, edges: edges).first {
            throw .cycle(cycle.map { definitions[$0].id })
        }
        // Depth-first post-order from each service in manifest order: dependencies first.
        var order: [Int] = []
        order.reserveCapacity(definitions.count)
        var placed = [Bool](repeating: false, count: definitions.count)
        var stack: [(node: Int, edge: Int)] = []
        for root in definitions.indices where !placed[root] {
            stack.append((root, 0))
            placed[root] = true
            while let top = stack.last {
                let list = edges[top.node]
                if top.edge < list.count {
                    stack[stack.count - 1].edge += 1
                    let next = list[top.edge]
                    if !placed[next] {
                        placed[next] = true
                        stack.append((next, 0))
                    }
                } else {
                    order.append(top.node)
                    stack.removeLast()
                }
            }
        }
        var newIndex = [Int](repeating: 0, count: definitions.count)
        for (index, old) in order.enumerated() { newIndex[old] = index }
        var dependents = [[Int]](repeating: [], count: definitions.count)
        for old in order {
            for target in edges[old] { dependents[newIndex[target]].append(newIndex[old]) }
        }
        nodes = order.map { old in
            let definition = definitions[old]
            return Node(
                definition: definition, dependencies: edges[old].map { newIndex[$0] },
                dependents: dependents[newIndex[old]], events: events[definition.id] ?? definition.events)
        }
        indexByID = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($0.element.id, $0.offset) })
    }

    /// Service ids in start order.
    public var startOrder: [String] { nodes.map(\.id) }

    /// Service ids in stop order (the reverse of start order).
    public var stopOrder: [String] { startOrder.reversed() }

    /// The ids of the services that receive an event of `kind`, in delivery (dependency) order.
    public func deliveryOrder(for kind: LifecycleEvent.Kind) -> [String] {
        nodes.filter { $0.events.contains(kind) }.map(\.id)
    }

    /// The index of a service in `nodes`.
    public func index(of id: String) -> Int? { indexByID[id] }

    /// The services grouped by depth: level 0 needs nothing, level k needs something at k - 1.
    /// Services in one level can start at the same time.
    public var levels: [[String]] {
        var depth = [Int](repeating: 0, count: nodes.count)
        for (index, node) in nodes.enumerated() {
            depth[index] = node.dependencies.map { depth[$0] + 1 }.max() ?? 0
        }
        var levels = [[String]](repeating: [], count: (depth.max() ?? -1) + 1)
        for (index, node) in nodes.enumerated() { levels[depth[index]].append(node.id) }
        return levels
    }

    /// The chain of services that needed `id`, from a service nothing depends on down to `id`
    /// itself, following the first dependent at each step (`["feed.cache", "network.client",
    /// "storage.database"]`).
    public func chain(neededBy id: String) -> [String] {
        guard var index = indexByID[id] else { return [id] }
        var chain = [nodes[index].id]
        var visited: Set<Int> = [index]
        while let next = nodes[index].dependents.first, visited.insert(next).inserted {
            chain.append(nodes[next].id)
            index = next
        }
        return chain.reversed()
    }
}

/// Why a service graph could not be resolved.
public enum ServiceGraphError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest names a service the catalog does not have.
    case unknownService(String)
    /// An enabled service depends on one that is not enabled.
    case missingDependency(service: String, dependency: String)
    /// Services depend on each other in a cycle (the path ends where it began).
    case cycle([String])

    /// What is wrong with the graph, naming the services.
    public var description: String {
        switch self {
        case .unknownService(let id):
            "unknown service '\(id)'"
        case .missingDependency(let service, let dependency):
            "service '\(service)' depends on '\(dependency)', which is not enabled; add \"\(dependency)\" to \"services\""
        case .cycle(let path):
            "service dependency cycle: \(path.joined(separator: " -> "))"
        }
    }
}
