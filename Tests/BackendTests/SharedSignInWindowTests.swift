@_spi(Testing) import Backend
import Foundation
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

/// Failed sign-ins are counted in the database (issue 33), so two servers on one database
/// (two processes behind a load balancer) count the same attempts: five wrong passwords spread
/// over both lock the account on both.
@Suite struct SharedSignInWindowTests {
    @Test(arguments: SQLDialect.allCases)
    func fiveWrongPasswordsOverTwoServers_lockTheAccountOnBoth(_ dialect: SQLDialect) async throws {
        // Given two servers on one database, in demo mode
        let (first, second) = try Self.twoServers(dialect)
        defer {
            first.close()
            second.close()
        }
        // When five guesses at grace's password alternate between them
        for guess in 1...5 {
            let server = guess.isMultiple(of: 2) ? second : first
            #expect(await Self.signIn(server, "grace", "guess-\(guess)").status == 401, "guess \(guess)")
        }
        // Then either server refuses the next attempt, even with the right password
        for server in [first, second] {
            let locked = await Self.signIn(server, "grace", "loom-demo")
            #expect(locked.status == 429)
            #expect(locked.headers["Retry-After"] == "900")
        }
        // and another account still signs in through either
        #expect(await Self.signIn(second, "ada", "loom-demo").status == 200)
    }

    static func twoServers(_ dialect: SQLDialect) throws -> (BackendServer, BackendServer) {
        let policy = BackendServer.SessionPolicy(passwordCost: .minimal)
        switch dialect {
        case .sqlite:
            let directory = try BackendServer.makeTemporaryDirectory("shared-window")
            let first = try BackendServer(
                directory: directory, clock: ManualClock(), demoMode: true, sessionPolicy: policy)
            let second = try BackendServer(
                directory: directory, clock: ManualClock(), demoMode: true, sessionPolicy: policy)
            return (first, second)
        case .postgres:
            let url = try SharedPostgres.newDatabaseURL("shared_window")
            func server() throws -> BackendServer {
                try BackendServer(
                    opening: { try Database.postgres(url, readOnly: $0) }, clock: ManualClock(),
                    demoMode: true,
                    sessionPolicy: policy)
            }
            return (try server(), try server())
        }
    }

    static func signIn(_ server: BackendServer, _ handle: String, _ password: String) async -> Response {
        await server.handle(
            Request(
                .post, "/v1/sessions", body: Data(#"{"handle":"\#(handle)","password":"\#(password)"}"#.utf8))
        )
    }
}
