import Foundation
import Glibc
import Wire

/// Reading, parsing, dispatching and answering requests: the per-connection state machine
/// (`Connection.Phase`), run on the loop's thread.
extension EventLoop {
    // MARK: Reading

    /// Reads what the socket has. `hangUp` is set when epoll reported the peer gone or an error.
    func readable(_ connection: Connection, hangUp: Bool) {
        if connection.readClosed {
            // Nothing more to read; a hang-up now means the socket is dead.
            if hangUp {
                counters.update { $0.clientsGone += 1 }
                closeConnection(connection, note: "client gone")
            }
            return
        }
        let count = scratch.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            if connection.phase == .lingering { return }
            connection.compactInput()
            connection.input.append(contentsOf: scratch[0..<count])
            if connection.head != nil { connection.bodyProgress = now }
            switch connection.phase {
            case .idle:
                connection.isFresh = false
                connection.phase = .receiving
                connection.requestStarted = now
                process(connection)
            case .receiving:
                process(connection)
            case .handling, .writing:
                // Pipelined requests wait their turn; stop reading when too many are queued.
                if connection.buffered > pipelineCap { connection.readPaused = true }
            case .lingering:
                break
            }
        } else if count == 0 {
            connection.readClosed = true
            switch connection.phase {
            case .idle, .lingering:
                closeConnection(connection)
            case .receiving:
                counters.update { $0.clientsGone += 1 }
                closeConnection(connection)
            case .handling, .writing:
                // The client may have only half-closed: answer, then close.
                connection.closeAfterResponse = true
            }
        } else {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return }
            counters.update { $0.clientsGone += 1 }
            closeConnection(connection, note: "client gone (\(Posix.describe(code)))")
        }
    }

    // MARK: Parsing

    /// Reads the next request from the connection's input, if it has all arrived.
    func process(_ connection: Connection) {
        let limits = configuration.limits
        if connection.head == nil {
            let start = connection.inputStart
            let outcome = connection.input.withUnsafeBufferPointer { bytes in
                connection.scanner.scan(UnsafeBufferPointer(rebasing: bytes[start...]), limits: limits)
            }
            switch outcome {
            case .needMore:
                waitForMore(connection)
                return
            case .failure(let failure):
                reject(connection, failure)
                return
            case .complete(let headStart, let headEnd):
                let parsed = connection.input.withUnsafeBufferPointer { bytes in
                    RequestHeadParser.parse(
                        UnsafeBufferPointer(rebasing: bytes[(start + headStart)..<(start + headEnd)]),
                        limits: limits)
                }
                connection.consume(headEnd)
                connection.scanner.reset()
                switch parsed {
                case .failure(let failure):
                    reject(connection, failure)
                    return
                case .success(let head):
                    guard fitsRouteLimit(connection, head) else { return }
                    connection.head = head
                    connection.sentContinue = false
                    connection.bodyProgress = now
                }
            }
        }
        guard let head = connection.head else { return }
        guard reserveArrivedBody(connection, head) else { return }
        guard connection.buffered >= head.contentLength else {
            if head.expectsContinue && !connection.sentContinue && head.minorVersion == 1 {
                connection.sentContinue = true
                connection.output.append(contentsOf: ResponseEncoder.continueLine)
                flush(connection)
            }
            waitForMore(connection)
            return
        }
        let start = connection.inputStart
        let body = Data(connection.input[start..<(start + head.contentLength)])
        connection.consume(head.contentLength)
        connection.head = nil
        dispatch(connection, head, body: body)
    }

    /// Checks the body that `head` announces against its route's limit
    /// (`Configuration.bodyLimit`); over it, the request is answered 413 from its head, without
    /// its body being read, and false returned.
    private func fitsRouteLimit(_ connection: Connection, _ head: RequestHead) -> Bool {
        guard head.contentLength > 0, let bodyLimit = configuration.bodyLimit else { return true }
        let limit = min(bodyLimit(head.method, head.target), configuration.limits.bodyBytes)
        guard head.contentLength > limit else { return true }
        let route = "\(head.method.rawValue) \(head.target.prefix { $0 != "?" }.prefix(80))"
        reject(
            connection,
            HTTPFailure(
                413, "body_too_large",
                "the body is \(head.contentLength) bytes, more than the \(limit) bytes \(route) accepts; send less"
            ),
            method: head.method.rawValue, target: head.target)
        return false
    }

    /// Counts the body bytes of `head`'s request that have arrived against
    /// `Limits.bodyBytesInFlight`, as they arrive: a body announced and not sent holds nothing.
    /// When the bytes that came would go over, the request is answered 503 and false returned.
    private func reserveArrivedBody(_ connection: Connection, _ head: RequestHead) -> Bool {
        let arrived = min(connection.buffered, head.contentLength)
        let more = arrived - connection.bodyReservation
        guard more > 0 else { return true }
        let limit = configuration.limits.bodyBytesInFlight
        guard bodyBytesInFlight + more <= limit else {
            reject(
                connection,
                HTTPFailure(
                    503, "server_busy",
                    "the server is reading as many request bodies as it holds at once (\(limit) bytes); "
                        + "retry shortly",
                    headers: ["Retry-After": "1"]),
                method: head.method.rawValue, target: head.target)
            return false
        }
        connection.bodyReservation = arrived
        bodyBytesInFlight += more
        heapHoldsBodies = true
        counters.update { $0.bodyBytesInFlight = bodyBytesInFlight }
        return true
    }

    /// Ends the connection's body reservation; when no body is left in flight, hands the memory
    /// bodies held back to the system.
    func releaseBody(_ connection: Connection) {
        guard connection.bodyReservation > 0 else { return }
        bodyBytesInFlight -= connection.bodyReservation
        connection.bodyReservation = 0
        counters.update { $0.bodyBytesInFlight = bodyBytesInFlight }
        if bodyBytesInFlight == 0 && heapHoldsBodies {
            heapHoldsBodies = false
            Posix.returnFreeMemory()
        }
    }

    /// The request is incomplete: wait for more bytes, unless the client has stopped sending.
    private func waitForMore(_ connection: Connection) {
        guard !connection.readClosed else {
            counters.update { $0.clientsGone += 1 }
            closeConnection(connection)
            return
        }
        if connection.buffered == 0 && connection.head == nil {
            connection.phase = .idle
            connection.idleSince = now
        } else {
            connection.phase = .receiving
        }
    }

    // MARK: Dispatching

    private func dispatch(_ connection: Connection, _ head: RequestHead, body: Data) {
        counters.update { $0.requests += 1 }
        var request: Request
        do {
            // HEAD is answered like GET (RFC 9110, 9.3.2): the handler sees a GET, and the encoder
            // writes its status and fields, with the GET body's length, but not the body.
            request = try Request(
                method: head.isHead ? .get : head.method, target: head.target, headers: head.headers,
                body: body)
            request.clientAddress = connection.address
        } catch {
            reject(
                connection, .badRequest("bad_request_target", error.message), method: head.method.rawValue,
                target: head.target)
            return
        }
        connection.exchange = Connection.Exchange(
            method: head.method.rawValue, target: head.target, headOnly: head.isHead)
        connection.closeAfterResponse = !head.keepAlive || shuttingDown || connection.readClosed
        connection.keepAliveHeader = head.minorVersion == 0 && head.keepAlive
        connection.lingerAfterResponse = false
        connection.phase = .handling
        let decision = decideFaults(for: head.method)
        let id = connection.id
        let handler = handler
        if decision.isNone {
            connection.task = Task(executorPreference: executor) { [self] in
                let response = await handler(request)
                complete(Completion(id: id, response: response, drop: false))
            }
            return
        }
        let profileName = faultProfile.name
        connection.task = Task(executorPreference: executor) { [self] in
            if decision.latency > .zero { try? await Task.sleep(for: decision.latency) }
            let response: Response
            if let status = decision.injectedStatus {
                response = .error(
                    status, code: "injected_fault",
                    message: "the server is unavailable (fault profile '\(profileName)'); retry later",
                    headers: ["Retry-After": "1"])
            } else if Task.isCancelled {
                response = .error(503, code: "cancelled", message: "the server is shutting down; retry later")
            } else {
                response = await handler(request)
            }
            complete(Completion(id: id, response: response, drop: decision.drop))
        }
    }

    // MARK: Answering

    /// Writes a handler's response (or drops it, as the fault profile decided).
    func respond(_ completion: Completion) {
        guard let connection = connections[completion.id], connection.phase == .handling,
            var exchange = connection.exchange
        else { return }
        connection.task = nil
        releaseBody(connection)
        now = Posix.now()
        exchange.status = completion.response.status
        if completion.drop {
            counters.update { $0.droppedAfterApply += 1 }
            connection.exchange = exchange
            closeConnection(connection, note: "dropped after apply (fault)")
            return
        }
        if shuttingDown || connection.readClosed { connection.closeAfterResponse = true }
        exchange.bytes = encoder.encode(
            completion.response, into: &connection.output, headOnly: exchange.headOnly,
            close: connection.closeAfterResponse, keepAliveHeader: connection.keepAliveHeader,
            appendingBody: false)
        if exchange.bytes > 0 {
            connection.outputBody = completion.response.body
            connection.outputBodySent = 0
        }
        connection.exchange = exchange
        connection.phase = .writing
        connection.writeStarted = now
        flush(connection)
    }

    /// Answers a request the server refuses (malformed, over a limit, too slow), then closes.
    func reject(_ connection: Connection, _ failure: HTTPFailure, method: String = "-", target: String = "-")
    {
        counters.update { $0.rejected += 1 }
        connection.head = nil
        connection.input = []
        connection.inputStart = 0
        let heldABody = connection.bodyReservation > 0
        releaseBody(connection)
        // A body refused part-way gives its share to the next; hand its buffer's memory back
        // too, or bodies refused one after another leave their pages behind in the heap (with
        // a 64 MiB cap, 150 clients sending 1 MiB bodies took the server over 120 MB).
        if heldABody && heapHoldsBodies { Posix.returnFreeMemory() }
        connection.closeAfterResponse = true
        connection.lingerAfterResponse = true
        if connection.requestStarted == 0 || connection.phase == .idle { connection.requestStarted = now }
        var exchange = Connection.Exchange(method: method, target: target)
        exchange.status = failure.status
        exchange.bytes = encoder.encode(
            failure.response, into: &connection.output, headOnly: false, close: true, keepAliveHeader: false)
        connection.exchange = exchange
        connection.phase = .writing
        connection.writeStarted = now
        flush(connection)
    }

    /// Writes what the connection has to write, as far as the socket takes it: the head bytes
    /// and the body in one `sendmsg(2)` (gathered, so neither is copied to join them).
    func flush(_ connection: Connection) {
        while connection.hasOutput {
            let sent = connection.output.withUnsafeBytes { head in
                connection.outputBody.withUnsafeBytes { body in
                    Self.send(
                        connection.fd, head, from: connection.outputSent, then: body,
                        from: connection.outputBodySent)
                }
            }
            if sent > 0 {
                let fromHead = min(sent, connection.output.count - connection.outputSent)
                connection.outputSent += fromHead
                connection.outputBodySent += sent - fromHead
                continue
            }
            let code = errno
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
                watch(connection)
                return
            }
            if sent < 0 && code == EINTR { continue }
            counters.update { $0.clientsGone += 1 }
            closeConnection(connection, note: "client gone while writing (\(Posix.describe(code)))")
            return
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 256 * 1024)
        connection.outputSent = 0
        connection.outputBody = Data()
        connection.outputBodySent = 0
        if connection.phase == .writing { responseWritten(connection) }
        // Writing ended (and reading may resume, or a next response be pending): watch for that.
        watch(connection)
    }

    /// Sends `head` from `headStart` and then `body` from `bodyStart`, in one call, without
    /// `SIGPIPE`; returns what `sendmsg(2)` returns.
    private static func send(
        _ fd: Int32, _ head: UnsafeRawBufferPointer, from headStart: Int, then body: UnsafeRawBufferPointer,
        from bodyStart: Int
    ) -> Int {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
            var count = 0
            func gather(_ part: UnsafeRawBufferPointer, from start: Int) {
                guard start < part.count, let base = part.baseAddress else { return }
                vectors[count] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: base + start), iov_len: part.count - start)
                count += 1
            }
            gather(head, from: headStart)
            gather(body, from: bodyStart)
            guard count > 0 else { return 0 }
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = count
            return Glibc.sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
        }
    }

    private func responseWritten(_ connection: Connection) {
        now = Posix.now()
        counters.update { $0.responses += 1 }
        if shuttingDown { report.finished += 1 }
        if let exchange = connection.exchange { log(connection, exchange) }
        connection.exchange = nil
        if connection.closeAfterResponse {
            if connection.lingerAfterResponse && !connection.readClosed {
                // Shut the write side and drain what the client still sends, so the response is
                // not lost to a reset when the socket closes with unread input.
                shutdown(connection.fd, Int32(SHUT_WR))
                connection.phase = .lingering
                connection.lingerUntil = now + min(requestTimeout, 1_000_000_000)
            } else {
                closeConnection(connection)
            }
            return
        }
        connection.phase = .idle
        connection.idleSince = now
        connection.readPaused = false
        if connection.buffered > 0 {
            connection.phase = .receiving
            connection.requestStarted = now
            process(connection)
        }
    }

    // MARK: Closing and logging

    /// Closes the connection; a request it was answering is logged with `note`, and its handler
    /// (if still running) is cancelled.
    func closeConnection(_ connection: Connection, note: String? = nil) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        if let task = connection.task {
            task.cancel()
            connection.task = nil
        }
        if var exchange = connection.exchange, let note {
            exchange.note = note
            exchange.bytes = 0
            log(connection, exchange)
        }
        connection.exchange = nil
        connection.input = []
        releaseBody(connection)
        Glibc.close(connection.fd)
        connections[connection.id] = nil
        let remaining = (connectionsByAddress[connection.address] ?? 1) - 1
        connectionsByAddress[connection.address] = remaining > 0 ? remaining : nil
        counters.update { $0.connectionsOpen -= 1 }
        if shuttingDown { report.connectionsClosed += 1 }
    }

    private func log(_ connection: Connection, _ exchange: Connection.Exchange) {
        guard let sink = configuration.accessLog else { return }
        let elapsed = now >= connection.requestStarted ? now - connection.requestStarted : 0
        sink(
            AccessLogEntry(
                date: Date(), remote: connection.remote, method: exchange.method, target: exchange.target,
                status: exchange.status, bytes: exchange.bytes, duration: .nanoseconds(Int64(elapsed)),
                note: exchange.note))
    }
}
