import Foundation

/// The signed-in account, saved in the app's data directory so the next launch skips
/// onboarding: `session.json` with the handle and its bearer token.
public struct SessionStore: Sendable {
    /// A saved session.
    public struct Saved: Codable, Sendable, Equatable {
        /// The account's handle.
        public var handle: String
        /// Its bearer token.
        public var token: String
    }

    /// The file.
    public let path: String

    /// The store in `dataDirectory`.
    public init(dataDirectory: String) {
        path = dataDirectory + "/session.json"
    }

    /// The saved session, if there is a readable one.
    public func load() -> Saved? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    /// Saves a session (atomically).
    public func save(_ session: Saved) throws {
        let data = try JSONEncoder().encode(session)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
