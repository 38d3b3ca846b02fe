import Dispatch
import Foundation
import Glibc
import Wire

/// One request's exchange with the server, run by `run(control:)` on a thread of its own: it
/// takes a connection (an idle keep-alive one for a read, else a new one), writes the request and
/// reads the response.
///
/// A read sent on a reused connection that turns out closed (the server dropped it while idle:
/// the connection ends or is reset before any byte of a response) is sent once more on a new
/// connection; that is safe for a read. A change always goes out on a new connection of its own
/// (`Connection: close`), so it is never resent here: a lost change is the caller's to retry with
/// its `Idempotency-Key`.
struct ClientExchange: Sendable {
    let endpoint: ClientEndpoint
    let tls: TLSContext?
    let pool: ConnectionPool
    /// The request as written on the wire.
    let bytes: [UInt8]
    /// GET or HEAD: shares keep-alive connections and may be resent.
    let isRead: Bool
    let isHead: Bool
    /// When the caller stops waiting.
    let deadline: DispatchTime
    /// The longest a connect may take.
    let connectLimit: Duration

    /// Encodes `request` for `target` (the request-target, path and query).
    init(
        _ request: Request, target: String, endpoint: ClientEndpoint, tls: TLSContext?, pool: ConnectionPool,
        limit: Duration
    ) throws(ClientFailure) {
        self.endpoint = endpoint
        self.tls = tls
        self.pool = pool
        isRead = request.method == .get || request.method == .head
        isHead = request.method == .head
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        deadline = .now() + .nanoseconds(nanoseconds)
        connectLimit = limit
        bytes = try Self.encode(request, target: target, host: endpoint.hostHeader, isRead: isRead)
    }

    /// The request head and body: the caller's headers, `Host`, and for a change its body with
    /// `Content-Length` (never chunked) and `Connection: close`.
    static func encode(_ request: Request, target: String, host: String, isRead: Bool) throws(ClientFailure)
        -> [UInt8]
    {
        guard target.hasPrefix("/"), !target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalidRequest("its target '\(target)' is not a path")
        }
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        let framing: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]
        for field in request.headers where !framing.contains(field.name.lowercased()) {
            let invalid: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
            guard !field.name.isEmpty,
                !field.name.utf8.contains(where: { invalid($0) || $0 == 0x3A || $0 == 0x20 }),
                !field.value.utf8.contains(where: invalid)
            else { throw .invalidRequest("its header '\(field.name)' cannot be written in HTTP/1.1") }
            head += "\(field.name): \(field.value)\r\n"
        }
        if !isRead || !request.body.isEmpty { head += "Content-Length: \(request.body.count)\r\n" }
        if !isRead { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }

    /// Runs the exchange; `control` lets the caller end it from outside (it then gets `cancelled`,
    /// which nobody reads any more).
    func run(control: ExchangeControl) -> Result<Response, ClientFailure> {
        guard pool.acquireSlot(until: deadline) else { return .failure(.expired) }
        defer { pool.releaseSlot() }
        // (a caller that gave up while this waited for a slot: leave the idle connections be)
        if control.isAbandoned { return .failure(.cancelled) }
        if isRead, let idle = pool.takeIdle() {
            let (result, receivedAny) = attempt(on: idle, control: control)
            guard case .failure(.lost) = result, !receivedAny else { return result }
            // The idle connection was dead: the server closed it. Send once more on a new one.
        }
        do {
            let connection = try ClientConnection.open(
                to: endpoint, tls: tls, connectLimit: connectLimit, control: control)
            return attempt(on: connection, control: control).result
        } catch {
            return .failure(error)
        }
    }

    /// Sends the request on `connection` and reads the response; the connection is then kept
    /// (a read whose response allows it) or closed.
    private func attempt(on connection: ClientConnection, control: ExchangeControl) -> (
        result: Result<Response, ClientFailure>, receivedAny: Bool
    ) {
        guard control.attach(connection.fd) else {
            connection.close()
            return (.failure(.cancelled), false)
        }
        var reader = ResponseReader(connection: connection)
        do {
            try connection.write(bytes)
            let (response, reusable) = try reader.read(forHead: isHead)
            let abandoned = control.detach()
            if isRead && reusable && !abandoned { pool.keep(connection) } else { connection.close() }
            return (.success(response), true)
        } catch {
            let abandoned = control.detach()
            connection.close()
            return (.failure(abandoned ? .cancelled : error), reader.receivedAny)
        }
    }
}
