/// One app's composition as written in `Manifests/<app>.json`: which provider fills each
/// socket and which services run.
///
/// ```json
/// {
///   "app": "example",
///   "displayName": "Example",
///   "version": "1.0.0",
///   "sockets": { "branding": "example.branding" },
///   "services": ["storage.database", { "id": "feed.cache", "events": ["memoryWarning"] }]
/// }
/// ```
///
/// A service entry is either its id, enabled for every lifecycle event it reacts to, or an
/// object naming the subset of those events this app delivers to it. Decoding is strict:
/// an unknown key is an error. Every part remembers where it was written, so diagnostics
/// point at the offending line and column.
public struct Manifest: Sendable, Hashable {
    /// The file the manifest was read from, as diagnostics print it.
    public var file: String
    /// The app's stable id (`"example"`), matching its `AppDefinition.id`.
    public var app: String
    /// The name shown to people.
    public var displayName: String
    /// The app's version, printed by `--version`.
    public var version: String
    /// The socket bindings, in the order written.
    public var sockets: [SocketBinding]
    /// The enabled services, in the order written.
    public var services: [ServiceEntry]
    /// Where the manifest's top-level object starts.
    public var location: SourceLocation
    /// Where the app id is written.
    public var appLocation: SourceLocation
    /// Where the display name is written.
    public var displayNameLocation: SourceLocation
    /// Where the `sockets` object is written (the object itself when the key is missing).
    public var socketsLocation: SourceLocation
    /// Where the `services` array is written (the object itself when the key is missing).
    public var servicesLocation: SourceLocation

    /// Makes a manifest in code (tests and generated catalogs); locations point at `file`'s
    /// first line.
    public init(
        file: String = "<memory>", app: String, displayName: String, version: String = "1.0.0",
        sockets: [String: String], services: [String]
    ) {
        let origin = SourceLocation(file: file, line: 1, column: 1)
        self.file = file
        self.app = app
        self.displayName = displayName
        self.version = version
        self.sockets = sockets.sorted { $0.key < $1.key }.map {
            SocketBinding(
                socket: $0.key, provider: $0.value, socketLocation: origin, providerLocation: origin)
        }
        self.services = services.map {
            ServiceEntry(id: $0, events: nil, location: origin, eventLocations: [])
        }
        self.location = origin
        self.appLocation = origin
        self.displayNameLocation = origin
        self.socketsLocation = origin
        self.servicesLocation = origin
    }

    init(
        file: String, app: String, displayName: String, version: String, sockets: [SocketBinding],
        services: [ServiceEntry], location: SourceLocation, appLocation: SourceLocation,
        displayNameLocation: SourceLocation, socketsLocation: SourceLocation, servicesLocation: SourceLocation
    ) {
        self.file = file
        self.app = app
        self.displayName = displayName
        self.version = version
        self.sockets = sockets
        self.services = services
        self.location = location
        self.appLocation = appLocation
        self.displayNameLocation = displayNameLocation
        self.socketsLocation = socketsLocation
        self.servicesLocation = servicesLocation
    }

    /// The provider bound to a socket id, if any.
    public func provider(for socketID: String) -> String? {
        sockets.first { $0.socket == socketID }?.provider
    }

    /// The ids of the enabled services, in the order written.
    public var serviceIDs: [String] { services.map(\.id) }
}

/// `"socket": "provider"` in a manifest.
public struct SocketBinding: Sendable, Hashable {
    /// The socket's id.
    public var socket: String
    /// The id of the provider that fills it.
    public var provider: String
    /// Where the socket id is written.
    public var socketLocation: SourceLocation
    /// Where the provider id is written.
    public var providerLocation: SourceLocation

    /// Makes a binding.
    public init(
        socket: String, provider: String, socketLocation: SourceLocation, providerLocation: SourceLocation
    ) {
        self.socket = socket
        self.provider = provider
        self.socketLocation = socketLocation
        self.providerLocation = providerLocation
    }
}

/// One enabled service in a manifest.
public struct ServiceEntry: Sendable, Hashable {
    /// The service's id.
    public var id: String
    /// The lifecycle events this app delivers to the service, by name, or nil for every event
    /// the service reacts to.
    public var events: [String]?
    /// Where the entry is written.
    public var location: SourceLocation
    /// Where each event name is written, parallel to `events`.
    public var eventLocations: [SourceLocation]

    /// Makes an entry.
    public init(id: String, events: [String]?, location: SourceLocation, eventLocations: [SourceLocation]) {
        self.id = id
        self.events = events
        self.location = location
        self.eventLocations = eventLocations
    }
}
