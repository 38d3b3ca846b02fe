/// What a service sees while it starts and runs: the app's sockets, the launcher's values, and
/// the services it declared as dependencies.
public struct ServiceContext: Sendable {
    /// The id of the service this context belongs to.
    public let serviceID: String
    /// The app's id.
    public let appID: String
    /// The app's sockets.
    public let registry: SocketRegistry
    /// The launcher's values.
    public let values: LaunchValues
    /// The started services this one may use (its dependencies).
    let dependencies: [String: any Service]

    init(
        serviceID: String, appID: String, registry: SocketRegistry, values: LaunchValues,
        dependencies: [String: any Service]
    ) {
        self.serviceID = serviceID
        self.appID = appID
        self.registry = registry
        self.values = values
        self.dependencies = dependencies
    }

    /// A dependency of this service, typed by its key.
    ///
    /// Throws when `key` is not among the service's declared dependencies, or when the service
    /// under that id is of another type.
    public func service<S: Service>(_ key: ServiceKey<S>) throws(CompositionError) -> S {
        guard let service = dependencies[key.id] else {
            throw CompositionError(
                "service '\(serviceID)' uses service '\(key.id)' without depending on it; add \"\(key.id)\" to its dependencies"
            )
        }
        guard let typed = service as? S else {
            throw CompositionError(
                "service '\(key.id)' is a \(type(of: service)), not the \(S.self) that '\(serviceID)' expects"
            )
        }
        return typed
    }

    /// A service this one uses when the app enables it (`optionalDependencies`), typed by its
    /// key; nil when the app does not enable it.
    ///
    /// ```swift
    /// let cache = try context.optionalService(.feedCache)?.cache   // nil in an app without a feed
    /// ```
    ///
    /// Throws when the service under that id is of another type.
    public func optionalService<S: Service>(_ key: ServiceKey<S>) throws(CompositionError) -> S? {
        guard dependencies[key.id] != nil else { return nil }
        return try service(key)
    }

    /// A dependency by id, whatever its type, or nil when `id` is not a declared dependency.
    public func dependency(_ id: String) -> (any Service)? {
        dependencies[id]
    }

    /// A dependency seen through a protocol it conforms to (for dependencies the caller cannot
    /// name the type of), or nil when no dependency conforms.
    public func firstDependency<T>(conformingTo type: T.Type) -> T? {
        for id in dependencies.keys.sorted() {
            if let match = dependencies[id] as? T { return match }
        }
        return nil
    }
}
