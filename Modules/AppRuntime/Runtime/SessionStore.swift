import Features
import Foundation
import MediaModel
import ServerAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The signed-in account, saved in the app's data directory so the next launch skips
/// onboarding: `session.json` with the handle, its bearer token and renew token, and when each
/// expires. The file holds credentials, so it is created readable and writable by its owner only
/// (mode 0600), never widened after; each renewal writes the new pair the same way.
///
/// A file from before tokens expired (a handle and a token only) still loads, with no renew
/// token: the server refuses such a token, so the launch asks to sign in again.
package struct SessionStore: Sendable {
    /// A saved session.
    package struct Saved: Codable, Sendable, Equatable {
        /// The account's handle.
        package var handle: String
        /// Its bearer token.
        package var token: String
        /// Its renew token, or nil in a file written before tokens expired.
        package var renewToken: String?
        /// When the bearer token expires (milliseconds since 1970), when known.
        package var expiresAt: Int64?
        /// When the renew token expires (milliseconds since 1970), when known.
        package var renewExpiresAt: Int64?

        /// Makes a saved session.
        package init(
            handle: String, token: String, renewToken: String? = nil, expiresAt: Int64? = nil,
            renewExpiresAt: Int64? = nil
        ) {
            self.handle = handle
            self.token = token
            self.renewToken = renewToken
            self.expiresAt = expiresAt
            self.renewExpiresAt = renewExpiresAt
        }

        /// The saved form of a session.
        package init(_ session: Session) {
            self.init(
                handle: session.user.handle, token: session.token, renewToken: session.renewToken,
                expiresAt: Int64((session.expiresAt.timeIntervalSince1970 * 1000).rounded()),
                renewExpiresAt: Int64((session.renewExpiresAt.timeIntervalSince1970 * 1000).rounded()))
        }

        /// Whether it holds a renew token, so the app can keep it signed in.
        package var isRenewable: Bool { renewToken != nil && expiresAt != nil && renewExpiresAt != nil }
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

    /// Saves a session atomically: a new file created with mode 0600 (so the token is never
    /// readable by others, not even for a moment), written, flushed, then renamed over the old
    /// one.
    ///
    /// - Throws: `SessionStoreError` when the file cannot be written.
    package func save(_ session: Saved) throws {
        let data = Array(try JSONEncoder().encode(session))
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SessionStoreError(path: path, reason: Self.reason(errno)) }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return -1 }
                return write(descriptor, base + written, bytes.count - written)
            }
            guard count > 0 else {
                let reason = Self.reason(errno)
                close(descriptor)
                unlink(temporary)
                throw SessionStoreError(path: path, reason: reason)
            }
            written += count
        }
        let synced = fsync(descriptor) == 0 ? nil : Self.reason(errno)
        close(descriptor)
        guard synced == nil, rename(temporary, path) == 0 else {
            let reason = synced ?? Self.reason(errno)
            unlink(temporary)
            throw SessionStoreError(path: path, reason: reason)
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A session that could not be saved.
package struct SessionStoreError: Error, Sendable, CustomStringConvertible {
    /// The session file.
    package var path: String
    /// Why, from the system (`Permission denied`).
    package var reason: String

    package var description: String {
        "cannot save the session to '\(path)': \(reason); check that the data directory is writable"
    }
}
