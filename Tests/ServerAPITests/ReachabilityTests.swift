import Basics
import Foundation
import ServerAPI
import Synchronization
import Testing
import Wire

/// Whether the server can be reached, as the client's own requests find it: an answer of any
/// status makes it reachable, a request that cannot reach the server unreachable, and a timeout
/// or a cancellation changes nothing.
@Suite struct ReachabilityTests {
    /// A transport that answers or fails as told, one outcome per request.
    final class ScriptedTransport: Transport, Sendable {
        let outcomes: Mutex<[Result<Int, TransportError>]>

        init(_ outcomes: [Result<Int, TransportError>]) { self.outcomes = Mutex(outcomes) }

        func send(_ request: Request) async throws(TransportError) -> Response {
            let outcome = outcomes.withLock { $0.removeFirst() }
            switch outcome {
            case .success(let status): return Response(status: status)
            case .failure(let error): throw error
            }
        }
    }

    @Test func eachOutcome_setsOrKeepsTheStatus_andObserversHearOnlyChanges() async {
        // Given a client whose requests meet, in turn: refused, a timeout, a 404, a 503,
        // refused, a cancellation, a 200
        let reachability = ServerReachability()
        let heard = Mutex<[ServerReachability.Status]>([])
        let observation = reachability.observe { status in heard.withLock { $0.append(status) } }
        let transport = ReachabilityRecordingTransport(
            ScriptedTransport([
                .failure(.offline("connection refused")), .failure(.timeout()), .success(404), .success(503),
                .failure(.offline()), .failure(.cancelled()), .success(200),
            ]),
            recordingInto: reachability)
        #expect(reachability.status == .unknown)

        // When each is sent
        var seen: [ServerReachability.Status] = []
        for _ in 0..<7 {
            _ = try? await transport.send(Request(.get, "/v1/feed"))
            seen.append(reachability.status)
        }

        // Then the status follows answers and unreachable failures only
        #expect(
            seen == [
                .unreachable, .unreachable, .reachable, .reachable, .unreachable, .unreachable, .reachable,
            ])
        #expect(heard.withLock { $0 } == [.unreachable, .reachable, .unreachable, .reachable])

        // And a cancelled observation hears nothing more
        observation.cancel()
        reachability.record(.unreachable)
        #expect(heard.withLock { $0 }.count == 4)
    }

    @Test func aFailedRequest_stillThrowsItsError() async {
        let transport = ReachabilityRecordingTransport(
            ScriptedTransport([.failure(.offline("connection refused"))]), recordingInto: ServerReachability()
        )
        await #expect(throws: TransportError.offline("connection refused")) {
            _ = try await transport.send(Request(.get, "/v1/feed"))
        }
    }
}
