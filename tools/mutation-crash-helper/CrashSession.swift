import Foundation
import MediaModel
import ServerAPI
import Synchronization
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The helper's signed-in session, kept across kills the way the app keeps its own: the pair is
/// saved in the app directory (`crash-session.json`, mode 0600, written to a temporary file and
/// renamed), restored at launch, renewed when it expires (each renewal printed as `RENEWED`
/// and saved before use), and signed in again with the demo password when the server refuses to
/// renew it (a kill between the server's rotation and the save leaves a revoked pair behind).
final class CrashSession: Sendable {
    private let anonymous: APIClient
    private let path: String
    private let handle: String
    private let client: Mutex<APIClient?>

    init(anonymous: APIClient, directory: String, handle: String) {
        self.anonymous = anonymous
        path = directory + "/crash-session.json"
        self.handle = handle
        client = Mutex(nil)
    }

    /// The client signed in now (the mutation manager asks at each attempt).
    var current: APIClient { client.withLock { $0 } ?? anonymous }

    /// Restores the saved session, or signs in.
    func start() async throws {
        if let saved = load() {
            adopt(credentials(saved))
        } else {
            try await signIn()
        }
    }

    /// Signs in with the demo password, retrying what may pass on a retry (injected faults).
    func signIn() async throws {
        while true {
            let session: Session
            do {
                session = try await anonymous.signIn(handle: handle, password: DemoAccounts.password).payload
            } catch  where error.isRetryable {
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            try save(session)
            emit("SIGNED_IN")
            adopt(credentials(session))
            return
        }
    }

    private func adopt(_ credentials: Credentials) {
        client.withLock { $0 = anonymous.signedIn(with: credentials) }
    }

    private func credentials(_ session: Session) -> Credentials {
        Credentials(
            handle: session.user.handle, token: session.token, expiresAt: session.expiresAt,
            renewToken: session.renewToken, renewExpiresAt: session.renewExpiresAt
        ) { [weak self] change in self?.changed(change) }
    }

    private func changed(_ change: Credentials.Change) {
        switch change {
        case .renewed(let session):
            do {
                try save(session)
                emit("RENEWED")
            } catch {
                FileHandle.standardError.write(Data("mutation-crash-helper: \(error)\n".utf8))
            }
        case .ended:
            emit("SESSION_ENDED")
            Task { try? await self.signIn() }
        }
    }

    // MARK: The file

    private func load() -> Session? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? WireFormat.decode(Session.self, from: data).payload
    }

    private func save(_ session: Session) throws {
        let data = Array(WireFormat.encode(WireEnvelope(session)))
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HelperError("cannot write \(temporary): errno \(errno)") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary, path) == 0 else {
            throw HelperError("cannot save the session to \(path): errno \(errno)")
        }
    }
}
