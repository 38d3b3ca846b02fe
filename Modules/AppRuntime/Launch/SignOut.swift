import CommandLineKit
import Composition
import Features
import Foundation
import Mutations
import Networking
import ServerAPI
import Storage
import Wire

/// `--sign-out`: revokes the saved session on the server (`DELETE /v1/sessions/current`, which
/// ends its bearer token and its renew token) and removes `session.json`, so the next launch
/// shows onboarding.
///
/// It holds the data directory's lock while it works, as a launch does, so it never pulls the
/// session from under a running app. It refuses while the journal holds changes that have not
/// reached the server (waiting or failed) made as this account: signing out would leave them
/// unsent until that account signs in here again. (They
/// would never be sent as whoever signs in next: the journal holds each change for the account
/// that made it.) Other accounts' held changes do not stop it; it says they stay. When the server cannot be reached the
/// session is kept: forgetting it here would leave it alive on the server with nobody holding it
/// to end it. A session the server already ended (401) counts as signed out.
@MainActor
enum SignOut {
    /// Runs `--sign-out` for `definition` and returns the exit status: 0 when signed out (or
    /// nobody was signed in), 1 when refused or when the session could not be revoked.
    static func run(
        _ definition: AppDefinition, configuration: LaunchConfiguration, output: any TextOutput
    ) async -> Int32 {
        let app = definition.id
        let directory = configuration.dataDirectory
        let notSignedIn = "not signed in here (no session in \(directory))\n"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            output.write(notSignedIn)
            return 0
        }
        let lock: DataDirectoryLock
        do {
            lock = try DataDirectoryLock.acquire(directory: directory, app: app)
        } catch {
            output.writeError("\(app): error: \(error)\n")
            return 1
        }
        defer { lock.release() }
        let store = SessionStore(dataDirectory: directory)
        guard let saved = store.load() else {
            output.write(notSignedIn)
            return 0
        }
        let (refusal, held) = unsentChanges(directory: directory, handle: saved.handle)
        if let refusal {
            output.writeError("\(app): error: \(refusal)\n")
            return 1
        }
        let running: RunningApp
        do {
            running = try await AppHost.launch(
                definition, values: configuration.launchValues(clock: SystemClock()))
        } catch {
            output.writeError("\(app): error: \(error)\n")
            return 1
        }
        let outcome: Outcome
        if let client = running.service(.networkClient)?.client {
            outcome = await revoke(token: saved.token, transport: client.transport, clock: client.clock)
        } else {
            outcome = .failed("the app has no network client to reach the server")
        }
        _ = await running.stop()
        switch outcome {
        case .revoked, .alreadyEnded:
            do {
                try FileManager.default.removeItem(atPath: store.path)
            } catch {
                output.writeError(
                    "\(app): error: the session is ended on the server, but '\(store.path)' cannot be removed: "
                        + "\(FileSystemReason.describe(error, at: store.path)); remove it by hand\n")
                return 1
            }
            if outcome == .revoked {
                output.write(
                    "signed out @\(saved.handle): the session is revoked on the server and removed here; the next "
                        + "launch shows onboarding\n" + (held.map { "note: \($0)\n" } ?? ""))
            } else {
                output.write(
                    "the session of @\(saved.handle) had already ended on the server; it is removed here; the next "
                        + "launch shows onboarding\n" + (held.map { "note: \($0)\n" } ?? ""))
            }
            return 0
        case .unreachable:
            output.writeError(
                "\(app): error: the server cannot be reached, so the session could not be revoked; it is kept: "
                    + "try again when online\n")
            return 1
        case .failed(let problem):
            output.writeError(
                "\(app): error: the server did not revoke the session (\(problem)); it is kept: try again\n")
            return 1
        }
    }

    /// What the server said to the sign-out.
    enum Outcome: Equatable {
        /// The session is revoked.
        case revoked
        /// The server no longer knew the token (signed out elsewhere, or expired and removed).
        case alreadyEnded
        /// No answer: offline or timed out.
        case unreachable
        /// Another refusal, in words.
        case failed(String)
    }

    /// Sends `DELETE /v1/sessions/current` with `token`. (`APIClient.signOut()` treats a 401 as
    /// success; here it is told apart, so the person learns the session had already ended.)
    static func revoke(token: String, transport: any Transport, clock: any WallClock) async -> Outcome {
        let request = Request(.delete, "/v1/sessions/current", headers: ["Authorization": "Bearer \(token)"])
        let error: TransportError
        do {
            let response = try await transport.send(request)
            guard let refusal = response.error(for: request, now: clock.now) else { return .revoked }
            error = refusal
        } catch let thrown {
            error = thrown
        }
        switch error.errorClass {
        case .unauthorized: return .alreadyEnded
        case .offline, .timeout, .requestTimeout: return .unreachable
        default: return .failed("\(error.errorClass)")
        }
    }

    /// What the journal holds that signing out `handle` must heed: why it must wait (that
    /// account's changes not yet on the server; an app database that cannot be read refuses too,
    /// as it may hold such changes), or else a note on other accounts' held changes, which stay.
    static func unsentChanges(directory: String, handle: String) -> (refusal: String?, note: String?) {
        let path = directory + "/" + AppDatabase.fileName
        guard FileManager.default.fileExists(atPath: path) else { return (nil, nil) }
        let counts: [MutationJournalSchema.UnsentCount]
        do {
            let database = try AppDatabase.open(directory: directory)
            defer { try? database.close() }
            counts = try MutationJournalSchema.unsentCounts(database)
        } catch {
            return ("cannot read the changes waiting in '\(path)' (\(error)); the session is kept", nil)
        }
        let held = counts.filter { $0.account != handle }.flatMap {
            Array(repeating: $0.account, count: $0.total)
        }
        let note = held.isEmpty ? nil : MutationActions.heldLines(held).joined(separator: "; ")
        guard let own = counts.first(where: { $0.account == handle }), own.total > 0 else {
            return (nil, note)
        }
        let total = own.total
        let changes =
            total == 1 ? "1 change made as @\(handle) has" : "\(total) changes made as @\(handle) have"
        let them = total == 1 ? "it" : "them"
        return (
            "\(changes) not reached the server (\(own.waiting) waiting, \(own.failed) failed); signing out "
                + "now would leave \(them) unsent until @\(handle) signs in here again: run the app online until "
                + "Sync says everything is sent (or discard failed ones with x), then sign out; the session is kept"
                + (note.map { " (also: \($0))" } ?? ""),
            note
        )
    }
}
