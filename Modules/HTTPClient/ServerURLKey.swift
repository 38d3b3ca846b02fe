import Composition
import Foundation

/// The remote server's URL (`--server http://127.0.0.1:8080`), or nil to use the embedded
/// backend. Read by the HTTP transport source (`network.http`); the launcher also sets the embedded
/// backend's enabled key to false when this is set. Default: nil.
public enum ServerURLKey: LaunchValueKey {
    /// nil: no remote server.
    public static let defaultValue: URL? = nil
}
