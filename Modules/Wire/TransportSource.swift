/// A service that can provide a transport (the embedded backend, or the HTTP transport), so a
/// network client can take its transport from a dependency without importing the module that
/// makes it.
public protocol TransportSource: Sendable {
    /// The transport, or nil when this source is inert (for example the embedded backend when
    /// the app talks to a remote server).
    var transport: (any Transport)? { get }
}
