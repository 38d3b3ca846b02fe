/// A service that can provide a transport (the embedded backend, or the HTTP transport), so a
/// network client can take its transport from a dependency without importing the module that
/// makes it.
public protocol TransportSource: Sendable {
    /// The transport, or nil when this source is inert (for example the embedded backend when
    /// the app talks to a remote server).
    var transport: (any Transport)? { get }

    /// Where its transport sends requests, in words a person can check (`http://127.0.0.1:8080`),
    /// or nil for a transport in process (the embedded backend): what "cannot be reached" names.
    var serverAddress: String? { get }
}

extension TransportSource {
    /// nil: a transport in process names no server.
    public var serverAddress: String? { nil }
}
