import Basics

/// Checks a manifest against a catalog and reports every problem, each with file, line and
/// column: the one piece of code `AppHost` runs at launch and `manifest-lint` runs on the
/// repository.
///
/// It checks that every required socket is bound; that each binding names a known provider
/// that fills that socket; that unknown sockets, providers, services and lifecycle events get a
/// did-you-mean; that providers' needs are met; that enabled services' dependencies are enabled;
/// that there is no dependency cycle (reported with its whole path); and that the catalog itself
/// has no duplicate ids.
///
/// Complexity: O(sockets + providers + services + bindings), plus suggestion search for names
/// that are not found.
public struct ManifestValidator: Sendable {
    /// The catalog manifests are checked against.
    public let catalog: Catalog

    private let socketsByID: [String: SocketDescriptor]
    private let providersByID: [String: Provider]
    private let servicesByID: [String: ServiceDefinition]
    private let catalogDiagnostics: [Diagnostic]

    /// Indexes a catalog for validation (and finds duplicate ids in it).
    public init(catalog: Catalog) {
        self.catalog = catalog
        var diagnostics: [Diagnostic] = []
        var sockets: [String: SocketDescriptor] = [:]
        for socket in catalog.sockets {
            if let first = sockets[socket.id] {
                if first.slot != socket.slot {
                    diagnostics.append(
                        Diagnostic(
                            at: socket.location, code: "duplicate-socket",
                            "duplicate socket id '\(socket.id)'; first declared at \(first.location)"))
                }
            } else {
                sockets[socket.id] = socket
            }
        }
        var providers: [String: Provider] = [:]
        for provider in catalog.providers {
            if let first = providers[provider.id] {
                diagnostics.append(
                    Diagnostic(
                        at: provider.location, code: "duplicate-provider",
                        "duplicate provider id '\(provider.id)'; first declared at \(first.location)"))
            } else {
                providers[provider.id] = provider
            }
        }
        var services: [String: ServiceDefinition] = [:]
        for service in catalog.services {
            if let first = services[service.id] {
                diagnostics.append(
                    Diagnostic(
                        at: service.location, code: "duplicate-service",
                        "duplicate service id '\(service.id)'; first declared at \(first.location)"))
            } else {
                services[service.id] = service
            }
        }
        for provider in catalog.providers where sockets[provider.socket.id] == nil {
            diagnostics.append(
                Diagnostic(
                    at: provider.location, code: "provider-unknown-socket",
                    "provider '\(provider.id)' fills socket '\(provider.socket.id)', which is not in the catalog; add the socket to the catalog"
                ))
        }
        for provider in catalog.providers {
            for need in provider.needs {
                switch need {
                case .socket(let id) where sockets[id] == nil:
                    diagnostics.append(
                        Diagnostic(
                            at: provider.location, code: "unknown-need",
                            "provider '\(provider.id)' needs unknown socket '\(id)'\(Suggestion.didYouMean(id, in: sockets.keys))"
                        ))
                case .service(let id) where services[id] == nil:
                    diagnostics.append(
                        Diagnostic(
                            at: provider.location, code: "unknown-need",
                            "provider '\(provider.id)' needs unknown service '\(id)'\(Suggestion.didYouMean(id, in: services.keys))"
                        ))
                default:
                    break
                }
            }
        }
        for service in catalog.services {
            for dependency in service.dependencies + service.optionalDependencies
            where services[dependency] == nil {
                diagnostics.append(
                    Diagnostic(
                        at: service.location, code: "unknown-dependency",
                        "service '\(service.id)' depends on unknown service '\(dependency)'\(Suggestion.didYouMean(dependency, in: services.keys))"
                    ))
            }
        }
        self.socketsByID = sockets
        self.providersByID = providers
        self.servicesByID = services
        self.catalogDiagnostics = diagnostics
    }

    /// Problems in the catalog itself (duplicate ids, unknown references), at their declarations.
    public var catalogProblems: [Diagnostic] { catalogDiagnostics }

    /// Every problem with `manifest` against the catalog, the catalog's own problems first.
    ///
    /// - Parameters:
    ///   - manifest: the decoded manifest to check against the validator's catalog.
    ///   - expectedApp: the id of the app the manifest belongs to, when known; a manifest naming
    ///     another app is an error.
    public func validate(_ manifest: Manifest, expectedApp: String? = nil) -> [Diagnostic] {
        var diagnostics = catalogDiagnostics
        if let expectedApp, manifest.app != expectedApp {
            diagnostics.append(
                Diagnostic(
                    at: manifest.appLocation, code: "app-mismatch",
                    "manifest is for app '\(DiagnosticText.value(manifest.app))', but it is used by app '\(expectedApp)'"
                ))
        }
        var problems: [Diagnostic] = []
        let manifest = checkText(manifest, into: &problems)
        let enabled = checkServices(manifest, into: &problems)
        checkSockets(manifest, enabled: enabled, into: &problems)
        diagnostics += problems.sorted { $0.location < $1.location }
        return diagnostics
    }

    // MARK: - Sockets

    private func checkSockets(
        _ manifest: Manifest, enabled: Set<String>, into diagnostics: inout [Diagnostic]
    ) {
        var bound: [String: Provider] = [:]
        for binding in manifest.sockets {
            guard let socket = socketsByID[binding.socket] else {
                diagnostics.append(
                    Diagnostic(
                        at: binding.socketLocation, code: "unknown-socket",
                        "unknown socket '\(DiagnosticText.value(binding.socket))'\(Suggestion.didYouMean(binding.socket, in: socketsByID.keys))"
                    ))
                continue
            }
            guard let provider = providersByID[binding.provider] else {
                let fitting = catalog.providers(filling: socket.id).map(\.id)
                let hint =
                    Suggestion.closest(to: binding.provider, in: fitting)
                    ?? Suggestion.closest(to: binding.provider, in: providersByID.keys)
                diagnostics.append(
                    Diagnostic(
                        at: binding.providerLocation, code: "unknown-provider",
                        "socket '\(socket.id)' is bound to unknown provider '\(DiagnosticText.value(binding.provider))'"
                            + (hint.map { "; did you mean '\($0)'?" } ?? "")))
                continue
            }
            guard provider.socket.id == socket.id else {
                let fitting = catalog.providers(filling: socket.id).map(\.id)
                let choices =
                    fitting.isEmpty
                    ? "no provider in the catalog fills it"
                    : "providers of '\(socket.id)': \(fitting.joined(separator: ", "))"
                diagnostics.append(
                    Diagnostic(
                        at: binding.providerLocation, code: "wrong-socket",
                        "socket '\(socket.id)' is bound to provider '\(provider.id)', which fills socket '\(provider.socket.id)'; \(choices)"
                    ))
                continue
            }
            bound[socket.id] = provider
            for serviceID in provider.serviceNeeds
            where servicesByID[serviceID] != nil && !enabled.contains(serviceID) {
                diagnostics.append(
                    Diagnostic(
                        at: binding.providerLocation, code: "provider-needs-service",
                        "provider '\(provider.id)' needs service '\(serviceID)', which is not enabled; add \"\(serviceID)\" to \"services\""
                    ))
            }
        }
        for socket in catalog.sockets where socket.requirement == .required && bound[socket.id] == nil {
            if socketsByID[socket.id]?.slot != socket.slot { continue }
            if manifest.sockets.contains(where: { $0.socket == socket.id }) { continue }  // reported above
            let fitting = catalog.providers(filling: socket.id).map(\.id)
            let choices =
                fitting.isEmpty
                ? "no provider in the catalog fills it yet" : "providers: \(fitting.joined(separator: ", "))"
            diagnostics.append(
                Diagnostic(
                    at: manifest.socketsLocation, code: "missing-socket",
                    "required socket '\(socket.id)' is not bound; add \"\(socket.id)\": \"<provider>\" to \"sockets\" (\(choices))"
                ))
        }
        checkProviderCycles(manifest, bound: bound, into: &diagnostics)
    }

    private func checkProviderCycles(
        _ manifest: Manifest, bound: [String: Provider], into diagnostics: inout [Diagnostic]
    ) {
        let ordered = manifest.sockets.filter { bound[$0.socket] != nil }
        let index = Dictionary(
            ordered.enumerated().map { ($0.element.socket, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let edges = ordered.map { binding in
            (bound[binding.socket]?.socketNeeds ?? []).compactMap { index[$0] }
        }
        for cycle in CycleFinder.cycles(nodeCount: ordered.count, edges: edges) {
            let path = cycle.map { "\(ordered[$0].provider) (\(ordered[$0].socket))" }.joined(
                separator: " -> ")
            diagnostics.append(
                Diagnostic(
                    at: ordered[cycle[0]].providerLocation, code: "provider-cycle",
                    "providers need each other in a cycle: \(path)"))
        }
    }

    // MARK: - Services

    /// Checks the services list; returns the ids of the known, enabled services.
    private func checkServices(_ manifest: Manifest, into diagnostics: inout [Diagnostic]) -> Set<String> {
        var enabled: [String: ServiceEntry] = [:]
        var order: [ServiceEntry] = []
        for entry in manifest.services {
            if let first = enabled[entry.id] {
                diagnostics.append(
                    Diagnostic(
                        at: entry.location, code: "duplicate-service-entry",
                        "service '\(DiagnosticText.value(entry.id))' is enabled twice (first at line \(first.location.line), column \(first.location.column))"
                    ))
                continue
            }
            guard let definition = servicesByID[entry.id] else {
                diagnostics.append(
                    Diagnostic(
                        at: entry.location, code: "unknown-service",
                        "unknown service '\(DiagnosticText.value(entry.id))'\(Suggestion.didYouMean(entry.id, in: servicesByID.keys))"
                    ))
                continue
            }
            enabled[entry.id] = entry
            order.append(entry)
            checkEvents(entry, definition, into: &diagnostics)
        }
        for entry in order {
            guard let definition = servicesByID[entry.id] else { continue }
            for dependency in definition.dependencies
            where servicesByID[dependency] != nil && enabled[dependency] == nil {
                diagnostics.append(
                    Diagnostic(
                        at: entry.location, code: "missing-dependency",
                        "service '\(DiagnosticText.value(entry.id))' depends on '\(dependency)', which is not enabled; add \"\(dependency)\" to \"services\""
                    ))
            }
        }
        let index = Dictionary(
            order.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let edges = order.map { entry in
            servicesByID[entry.id].map {
                ($0.dependencies + $0.optionalDependencies).compactMap { index[$0] }
            }
                ?? []
        }
        for cycle in CycleFinder.cycles(nodeCount: order.count, edges: edges) {
            let path = cycle.map { order[$0].id }.joined(separator: " -> ")
            diagnostics.append(
                Diagnostic(
                    at: order[cycle[0]].location, code: "service-cycle", "service dependency cycle: \(path)"))
        }
        return Set(enabled.keys)
    }

    private func checkEvents(
        _ entry: ServiceEntry, _ definition: ServiceDefinition, into diagnostics: inout [Diagnostic]
    ) {
        guard let events = entry.events else { return }
        let names = LifecycleEvent.Kind.allCases.map(\.rawValue)
        for (offset, name) in events.enumerated() {
            let location = offset < entry.eventLocations.count ? entry.eventLocations[offset] : entry.location
            guard let kind = LifecycleEvent.Kind(name: name) else {
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "unknown-event",
                        "unknown lifecycle event '\(DiagnosticText.value(name))'\(Suggestion.didYouMean(name, in: names)) (events: \(names.joined(separator: ", ")))"
                    ))
                continue
            }
            if !definition.events.contains(kind) {
                let handled = definition.events.sorted().map(\.rawValue)
                let reacts =
                    handled.isEmpty
                    ? "it reacts to no events" : "it reacts to: \(handled.joined(separator: ", "))"
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "event-not-handled",
                        "service '\(DiagnosticText.value(entry.id))' does not react to '\(DiagnosticText.value(name))'; \(reacts)"
                    ))
            }
        }
    }
}
