@_spi(Testing) import Backend
import Composition
import Foundation
import HTTPClient
import MediaModel
import Networking
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

/// `network.http` as the apps compose it: a transport source listed before the embedded backend.
@Suite struct HTTPTransportServiceTests {
    static let services = [
        "backend.embedded", "network.http", "storage.database", "network.client", "feed.cache",
    ]

    static func definition() -> AppDefinition {
        networkTestApp(services: services, transportSources: [.init(.httpBackend), .init(.embeddedBackend)])
    }

    /// Launch values as the launcher sets them for `--server URL` (or none).
    static func values(server: URL?, viewer: String? = nil, profile: FaultProfile = .perfect) throws
        -> LaunchValues
    {
        var values = LaunchValues()
        values[BackendDirectoryKey.self] = try BackendServer.makeTemporaryDirectory("http-svc-backend")
        values[AppDataDirectoryKey.self] = try BackendServer.makeTemporaryDirectory("http-svc-app")
        values[EmbeddedBackendEnabledKey.self] = server == nil
        values[ServerURLKey.self] = server
        values[ViewerKey.self] = viewer.map(Credentials.init(token:))
        values[HTTPFaultProfileKey.self] = profile
        values[HTTPTimeoutKey.self] = .seconds(60)
        return values
    }

    @Test func withoutAServerURL_itIsInertAndTheEmbeddedBackendServes() async throws {
        try await AppHost.run(Self.definition(), values: try Self.values(server: nil)) { app in
            let http = try #require(app.service(.httpBackend))
            #expect(http.transport == nil)
            #expect(http.httpTransport == nil)
            let network = try #require(app.service(.networkClient))
            #expect(network.transportSourceID == "backend.embedded")
            // Nobody is signed in until the launcher signs in (the embedded backend is in demo mode)
            #expect(network.client.credentials == nil)
            let session = try await network.client.signIn(handle: "ada", password: DemoAccounts.password)
            network.signIn(Credentials(session: session.payload))
            #expect(try await network.client.me().payload.user.handle == "ada")
        }
    }

    @Test func withAServerURL_theClientTalksHTTPToIt() async throws {
        // Given a server that refuses every request as unauthenticated
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil {
                let body = #"{"error":{"code":"unauthorized","message":"who are you"}}"#
                connection.write(
                    "HTTP/1.1 401 Unauthorized\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
        }
        let values = try Self.values(server: stub.url, viewer: "seed-grace")
        try await AppHost.run(Self.definition(), values: values) { app in
            // When the app's client makes a request
            let network = try #require(app.service(.networkClient))
            #expect(network.transportSourceID == "network.http")
            let http = try #require(app.service(.httpBackend))
            #expect(http.httpTransport?.baseURL == stub.url)
            #expect(http.httpTransport?.timeout == .seconds(60))
            var failure: TransportError?
            do { _ = try await network.client.me() } catch let error as TransportError { failure = error }

            // Then it went over HTTP with the viewer's token, and the refusal is classified
            #expect(failure?.errorClass == .unauthorized)
            #expect(failure?.serverCode == "unauthorized")
            #expect(stub.requests.first?.hasPrefix("GET /v1/me HTTP/1.1\r\n") == true)
            #expect(stub.requests.first?.contains("Authorization: Bearer seed-grace\r\n") == true)
        }
        stub.stop()
    }

    @Test func simulatedConditions_applyInFrontOfTheServer() async throws {
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil { connection.write("HTTP/1.1 204 No Content\r\n\r\n") }
        }
        let values = try Self.values(server: stub.url, profile: .offline)
        try await AppHost.run(Self.definition(), values: values) { app in
            let http = try #require(app.service(.httpBackend))
            let transport = try #require(http.transport)
            let request = Request(.get, "/v1/feed")
            var failure: TransportError?
            do { _ = try await transport.send(request) } catch let error as TransportError { failure = error }
            #expect(failure?.errorClass == .offline)
            #expect(stub.requests.isEmpty)

            http.faultControl?.setFaultProfile(.perfect)
            #expect(try await transport.send(request).status == 204)
            #expect(stub.requests.count == 1)
        }
        stub.stop()
    }

    @Test func aServerURLThatIsNotHTTP_failsTheLaunchSayingWhy() async throws {
        let values = try Self.values(server: URL(string: "ftp://127.0.0.1:21"))
        do {
            _ = try await AppHost.launch(Self.definition(), values: values)
            Issue.record("the launch accepted an ftp server")
        } catch {
            #expect(error.failedService == "network.http")
            #expect(
                error.description.contains(
                    "server URL 'ftp://127.0.0.1:21' is not an http://HOST:PORT address; pass one such as http://127.0.0.1:8080"
                ))
        }
    }
}
