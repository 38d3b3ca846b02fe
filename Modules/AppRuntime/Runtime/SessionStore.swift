import Features
import Foundation

/// The signed-in account, saved in the app's data directory so the next launch skips
/// onboarding: `session.json` with the handle and its bearer token.
package struct SessionStore: Sendable {
    /// A saved session.
    package struct Saved: Codable, Sendable, Equatable {
        /// The account's handle.
        package var handle: String
        /// Its bearer token.
        package var token: String
    }

    /// The file.
    package let path: String

    /// The store in `dataDirectory`.
    package init(dataDirectory: String) {
        path = dataDirectory + "/session.json"
    }

    /// The saved session, if there is a readable one.
    package func load() -> Saved? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: data)
    }

    /// Saves a session (atomically).
    package func save(_ session: Saved) throws {
        let data = try JSONEncoder().encode(session)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
