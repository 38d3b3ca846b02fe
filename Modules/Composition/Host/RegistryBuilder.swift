/// Builds a socket registry from a validated manifest: each bound provider made once, in the
/// order their socket needs require, and each unbound optional socket filled by its default.
///
/// Complexity: O(sockets + providers) when providers read no other socket; a provider that
/// reads sockets sees a snapshot of the registry built so far.
enum RegistryBuilder {
    static func build(catalog: Catalog, manifest: Manifest) throws(LaunchError) -> SocketRegistry {
        var sockets: [String: SocketDescriptor] = [:]
        for socket in catalog.sockets where sockets[socket.id] == nil { sockets[socket.id] = socket }
        var providers: [String: Provider] = [:]
        for provider in catalog.providers where providers[provider.id] == nil {
            providers[provider.id] = provider
        }

        var slots = [(any AnyObject & Sendable)?](
            repeating: nil, count: max(SocketTable.count, (catalog.sockets.map(\.slot).max() ?? -1) + 1))
        var ids: [Int: String] = [:]
        var filledBy: [String: String] = [:]

        var bound: [(socket: SocketDescriptor, provider: Provider)] = []
        for binding in manifest.sockets {
            guard let socket = sockets[binding.socket], let provider = providers[binding.provider] else {
                continue
            }
            bound.append((socket, provider))
        }
        let boundIDs = Set(bound.map(\.socket.id))
        // Defaults first: a provider may read an optional socket that no manifest binds.
        for socket in sockets.values where socket.requirement == .optional && !boundIDs.contains(socket.id) {
            guard let makeDefault = socket.makeDefaultBox else { continue }
            slots[socket.slot] = makeDefault()
            ids[socket.slot] = socket.id
        }
        var built = Set<String>()
        var pending = bound
        while !pending.isEmpty {
            var progressed = false
            var waiting: [(socket: SocketDescriptor, provider: Provider)] = []
            for entry in pending {
                let needs = entry.provider.socketNeeds
                if needs.contains(where: { boundIDs.contains($0) && !built.contains($0) }) {
                    waiting.append(entry)
                    continue
                }
                let snapshot =
                    needs.isEmpty
                    ? SocketRegistry() : SocketRegistry(slots: slots, ids: ids, providers: filledBy)
                let context = ProviderContext(
                    providerID: entry.provider.id, registry: snapshot, declared: Set(needs))
                do {
                    slots[entry.socket.slot] = try entry.provider.make(context)
                } catch {
                    throw LaunchError(
                        .providerFailed(
                            provider: entry.provider.id, socket: entry.socket.id,
                            message: String(describing: error)))
                }
                ids[entry.socket.slot] = entry.socket.id
                filledBy[entry.socket.id] = entry.provider.id
                built.insert(entry.socket.id)
                progressed = true
            }
            if !progressed {
                let names = waiting.map { "\($0.provider.id) (\($0.socket.id))" }.joined(separator: ", ")
                throw LaunchError(
                    .providerFailed(
                        provider: waiting[0].provider.id, socket: waiting[0].socket.id,
                        message: "providers need each other in a cycle: \(names)"))
            }
            pending = waiting
        }
        return SocketRegistry(slots: slots, ids: ids, providers: filledBy)
    }
}
