import Foundation
import Glibc
import Synchronization
import Wire

/// The server's engine: one thread that accepts connections, reads and parses requests, hands
/// each to its handler (a task on one of the `HandlerExecutor`'s threads), writes the responses, and
/// enforces timeouts, all with `epoll(7)` over non-blocking sockets.
///
/// Other threads reach it only through `shared` (handler completions and the shutdown request,
/// behind a mutex, taken in batches) and an `eventfd` that wakes the wait, written only when the
/// loop has not been woken already.
///
/// Each descriptor is watched once, for what its connection waits for (its request's bytes,
/// room to write its response, or neither while its handler runs), and the watch changes only
/// when that does (`watch`); a wait returns the ready descriptors alone, so an iteration costs
/// O(ready), not O(open connections).
///
/// `@unchecked Sendable` invariant: every stored property not marked `let` (the connection
/// table, the encoder, the shutdown bookkeeping, `now`) is read and written only on the loop's
/// thread, inside `run()` and the methods it calls. Other threads call only `complete`,
/// `requestShutdown`, `waitUntilStopped`, `setFaultProfile` and `faultProfile`, which touch
/// `shared`, `dice` (both mutexes) and the eventfd. The eventfd is written outside the lock (a
/// handler thread holding it across `write(2)` made the loop spin on it), by a thread counted in
/// `wakesInFlight` under the lock before it lets go; `finish` stops new wakes under the lock and
/// waits for that count to reach zero before it closes the eventfd, so no write ever reaches a
/// closed (or reused) descriptor.
final class EventLoop: @unchecked Sendable {
    /// A handler's answer, on its way back to the loop.
    struct Completion: Sendable {
        var id: UInt64
        var response: Response
        var drop: Bool
    }

    private struct Shared {
        var completions: [Completion] = []
        var wakePending = false
        var shutdownGrace: Duration?
        var stopped = false
        var report: HTTPServer.ShutdownReport?
        var waiters: [CheckedContinuation<HTTPServer.ShutdownReport, Never>] = []
    }

    let configuration: HTTPServer.Configuration
    let handler: HTTPServer.Handler
    let counters = Counters()
    let executor = HandlerExecutor()
    private let shared = Mutex(Shared())
    /// Threads that were told (under `shared`'s lock) to write the wake eventfd and have not yet.
    private let wakesInFlight = Atomic<Int>(0)
    private let dice: Mutex<FaultDice>
    /// The eventfd other threads write to wake the loop.
    private let wakeEvent: Int32
    /// What the loop waits on: the eventfd, the listener (while accepting) and every connection.
    var epoll: Epoll
    /// Whether the listener is watched (it is not while accepting is paused, or once closed).
    private var listenerWatched = false
    /// The tokens of the eventfd and the listener; a connection's token is its id (from 1 up).
    private static let wakeToken = UInt64.max
    private static let listenerToken = UInt64.max - 1

    // Loop-only state (see the invariant above).
    var listener: Int32
    var acceptPausedUntil: UInt64 = 0
    var connections: [UInt64: Connection] = [:]
    /// Open connections per client address (without the port); an address with none is absent.
    var connectionsByAddress: [String: Int] = [:]
    var nextID: UInt64 = 1
    /// The sum of every connection's `bodyReservation`.
    var bodyBytesInFlight = 0
    /// Whether bodies were read since the heap was last trimmed (see `releaseBody`).
    var heapHoldsBodies = false
    var encoder = ResponseEncoder()
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    var arrived: [Completion] = []
    var now: UInt64 = Posix.now()
    var nextTimerCheck: UInt64 = 0
    var shuttingDown = false
    var shutdownDeadline: UInt64 = 0
    var report = HTTPServer.ShutdownReport()

    // Configuration in the loop's units.
    let requestTimeout: UInt64
    let bodyIdleTimeout: UInt64
    let idleTimeout: UInt64
    let writeTimeout: UInt64
    let tick: UInt64
    let pipelineCap: Int
    /// How many connections may be open at once.
    let connectionLimit: Int
    /// How many of them only addresses that hold no connection may take (one in eight).
    let slotsForNewAddresses: Int

    init(
        listener: Int32, configuration: HTTPServer.Configuration, connectionLimit: Int,
        handler: @escaping HTTPServer.Handler
    ) throws(HTTPServerError) {
        guard let epoll = Epoll() else {
            let code = errno
            Glibc.close(listener)
            throw HTTPServerError(
                code: .socketFailed, "cannot create the server's epoll: \(Posix.describe(code))")
        }
        let wakeEvent = Epoll.makeEventFD()
        guard wakeEvent >= 0, epoll.add(wakeEvent, events: Epoll.readable, token: Self.wakeToken) else {
            let code = errno
            if wakeEvent >= 0 { Glibc.close(wakeEvent) }
            Glibc.close(listener)
            throw HTTPServerError(
                code: .socketFailed, "cannot create the server's wake-up eventfd: \(Posix.describe(code))")
        }
        self.epoll = epoll
        self.wakeEvent = wakeEvent
        self.listener = listener
        self.configuration = configuration
        self.handler = handler
        self.connectionLimit = connectionLimit
        slotsForNewAddresses = connectionLimit / 8
        dice = Mutex(FaultDice(configuration.faults))
        requestTimeout = Self.nanoseconds(configuration.requestTimeout)
        bodyIdleTimeout = Self.nanoseconds(configuration.bodyIdleTimeout)
        idleTimeout = Self.nanoseconds(configuration.idleTimeout)
        writeTimeout = Self.nanoseconds(configuration.writeTimeout)
        tick = min(
            max(min(requestTimeout, bodyIdleTimeout, idleTimeout, writeTimeout) / 10, 2_000_000), 250_000_000)
        let limits = configuration.limits
        // Pipelined input waiting behind a request is not counted against the bodies in flight,
        // so it is kept to a head's worth: a body waits in the socket until its turn.
        pipelineCap = limits.requestLineBytes + limits.headerBytes + 64 * 1024
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// Starts the loop's thread.
    func start() {
        let thread = Thread { [self] in
            Posix.nameThisThread("http-server")
            run()
        }
        thread.name = "http-server"
        thread.start()
    }

    // MARK: Other threads

    /// Hands a handler's response to the loop (from any thread).
    func complete(_ completion: Completion) {
        let wakes = shared.withLock { shared -> Bool in
            guard !shared.stopped else { return false }
            shared.completions.append(completion)
            guard !shared.wakePending else { return false }
            shared.wakePending = true
            wakesInFlight.add(1, ordering: .relaxed)
            return true
        }
        if wakes {
            wake()
            wakesInFlight.subtract(1, ordering: .releasing)
        }
    }

    /// Asks the loop to shut down within `gracePeriod` (the first request wins).
    func requestShutdown(gracePeriod: Duration) {
        shared.withLock { shared in
            guard shared.shutdownGrace == nil, !shared.stopped else { return }
            shared.shutdownGrace = max(gracePeriod, .zero)
            wake()
        }
    }

    /// Returns when the loop has stopped, with what the shutdown did.
    func waitUntilStopped() async -> HTTPServer.ShutdownReport {
        await withCheckedContinuation { continuation in
            let report = shared.withLock { shared -> HTTPServer.ShutdownReport? in
                if let report = shared.report { return report }
                shared.waiters.append(continuation)
                return nil
            }
            if let report { continuation.resume(returning: report) }
        }
    }

    var faultProfile: HTTPFaultProfile { dice.withLock { $0.profile } }

    func setFaultProfile(_ profile: HTTPFaultProfile) { dice.withLock { $0 = FaultDice(profile) } }

    /// Draws the faults for one request.
    func decideFaults(for method: HTTPMethod) -> FaultDice.Decision {
        dice.withLock { $0.decide(for: method) }
    }

    /// Adds one to the wake eventfd; called with `shared`'s lock held, or counted in
    /// `wakesInFlight`.
    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeEvent, &one, 8)
    }

    // MARK: The loop

    private func run() {
        while true {
            let listening = listener >= 0 && now >= acceptPausedUntil
            if listening != listenerWatched {
                listenerWatched = listening
                if listening {
                    epoll.add(listener, events: Epoll.readable, token: Self.listenerToken)
                } else {
                    epoll.remove(listener)
                }
            }
            let ready = epoll.wait(milliseconds: pollTimeout())
            now = Posix.now()
            for index in 0..<ready {
                let (events, token) = epoll.event(at: index)
                switch token {
                case Self.wakeToken: drainWakeEvent()
                case Self.listenerToken: if listener >= 0 { acceptConnections() }
                default:
                    // A connection closed earlier in this batch is gone from the table.
                    guard let connection = connections[token], !connection.isClosed else { continue }
                    if events & Epoll.writable != 0 { flush(connection) }
                    if !connection.isClosed && events & (Epoll.readable | Epoll.hangUp | Epoll.error) != 0 {
                        readable(connection, hangUp: events & (Epoll.hangUp | Epoll.error) != 0)
                    }
                    watch(connection)
                }
            }
            takeShared()
            checkTimers()
            if shuttingDown {
                if connections.isEmpty { break }
                if now >= shutdownDeadline {
                    abandonAll()
                    break
                }
            }
        }
        finish()
    }

    /// Watches the connection's socket for what it waits for now: its next bytes (unless the
    /// client stopped sending or too much pipelined input waits) and room to write (while output
    /// is pending). A socket watched for neither still reports a hang-up or an error.
    func watch(_ connection: Connection) {
        guard !connection.isClosed else { return }
        var wanted: UInt32 = 0
        if !connection.readClosed && !connection.readPaused { wanted |= Epoll.readable }
        if connection.hasOutput { wanted |= Epoll.writable }
        guard wanted != connection.watched else { return }
        connection.watched = wanted
        epoll.modify(connection.fd, events: wanted, token: connection.id)
    }

    /// Milliseconds until the next timer check (or the shutdown deadline), rounded up.
    private func pollTimeout() -> Int32 {
        var until = nextTimerCheck
        if shuttingDown { until = min(until, shutdownDeadline) }
        if listener >= 0 && acceptPausedUntil > now { until = min(until, acceptPausedUntil) }
        guard until > now else { return 0 }
        return Int32(min((until - now + 999_999) / 1_000_000, 1000))
    }

    private func drainWakeEvent() {
        var count: UInt64 = 0
        _ = read(wakeEvent, &count, 8)
    }

    /// Answers the handlers that finished (and begins a shutdown that was asked for).
    private func takeShared() {
        let grace = shared.withLock { shared -> Duration? in
            shared.wakePending = false
            swap(&shared.completions, &arrived)
            return shared.shutdownGrace
        }
        if let grace, !shuttingDown { beginShutdown(grace) }
        for completion in arrived { respond(completion) }
        arrived.removeAll(keepingCapacity: true)
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop polling the listener for a moment instead of spinning.
                    acceptPausedUntil = now + 50_000_000
                    return
                default: return
                }
            }
            Posix.makeNonBlocking(fd)
            Posix.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let connection = Connection(id: nextID, fd: fd, remote: Posix.describe(storage), now: now)
            let fromAddress = connectionsByAddress[connection.address] ?? 0
            guard fromAddress < configuration.maxConnectionsPerAddress else {
                counters.accepted(opened: false)
                refuse(
                    fd,
                    .error(
                        503, code: "too_many_connections",
                        message: "your address has \(fromAddress) connections open, the most one address may "
                            + "have; close some or retry shortly",
                        headers: ["Retry-After": "1"]))
                continue
            }
            if let refusal = makeRoom(holding: fromAddress) {
                counters.accepted(opened: false)
                refuse(fd, .error(503, code: "server_busy", message: refusal, headers: ["Retry-After": "1"]))
                continue
            }
            guard epoll.add(fd, events: Epoll.readable, token: connection.id) else {
                counters.accepted(opened: false)
                Glibc.close(fd)
                continue
            }
            connection.watched = Epoll.readable
            connectionsByAddress[connection.address] = fromAddress + 1
            nextID += 1
            connections[connection.id] = connection
            counters.accepted(opened: true)
        }
    }

    /// Makes room for a connection from an address that holds `held` connections, when the slots
    /// it may take are all held. Returns why it cannot be let in, nil when it can.
    ///
    /// 1. A connection from an address that already holds one may take all but
    ///    `slotsForNewAddresses` of the slots; those are left to addresses that hold none.
    /// 2. When the slots it may take are full, the connection idle the longest (kept alive
    ///    between requests, or silent since it connected) is closed to make room.
    /// 3. With none idle, the address holding the most connections, when it holds more than the
    ///    newcomer's would with it, loses the one of them whose request started the longest ago
    ///    and is still arriving (a slow head or body); a connection whose handler runs is never
    ///    closed. So slow requests from any number of addresses cannot lock out an address with
    ///    fewer connections than theirs.
    ///
    /// O(n log n) in the open connections when the slots are full, nothing otherwise.
    private func makeRoom(holding held: Int) -> String? {
        let open = connections.count
        let shared = connectionLimit - slotsForNewAddresses
        guard open >= connectionLimit || (open >= shared && held > 0) else { return nil }
        // Oldest idle first; one whose next request is already waiting unread (accepted in this
        // very batch, say) is not idle, and is passed over.
        let idle = connections.values.filter { $0.phase == .idle && !$0.isClosed }
            .sorted { $0.idleSince < $1.idleSince }
        if let oldest = idle.first(where: { !Posix.hasInputWaiting($0.fd) }) {
            closeConnection(oldest)
            counters.update { $0.idleClosedForRoom += 1 }
            return nil
        }
        if let (address, most) = connectionsByAddress.max(by: { $0.value < $1.value }), most > held + 1 {
            let arriving = connections.values.filter {
                $0.address == address && !$0.isClosed && ($0.phase == .receiving || $0.phase == .idle)
            }
            if let slowest = arriving.min(by: { $0.requestStarted < $1.requestStarted }) {
                closeConnection(slowest, note: "closed to make room for another address")
                counters.update { $0.slowClosedForRoom += 1 }
                return nil
            }
        }
        if open >= connectionLimit {
            return "the server has \(connectionLimit) connections open, its limit, and none of them is idle; "
                + "retry shortly"
        }
        return
            "the server's \(shared) connections for addresses already connected are all busy, the rest kept "
            + "for new addresses; retry shortly"
    }

    /// Answers a connection over a connection limit with `response` (best effort) and closes it.
    private func refuse(_ fd: Int32, _ response: Response) {
        var bytes: [UInt8] = []
        _ = encoder.encode(response, into: &bytes, headOnly: false, close: true, keepAliveHeader: false)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.close(fd)
    }

    // MARK: Timers and shutdown

    private func checkTimers() {
        guard now >= nextTimerCheck else { return }
        nextTimerCheck = now + tick
        for connection in Array(connections.values) where !connection.isClosed {
            switch connection.phase {
            case .idle:
                // A connection that has sent nothing yet gets the request timeout, so that idle
                // connections cannot hold every slot for the (longer) idle timeout.
                let limit = connection.isFresh ? requestTimeout : idleTimeout
                if shuttingDown || now - connection.idleSince >= limit {
                    if connection.isFresh && !shuttingDown { counters.update { $0.timeouts += 1 } }
                    closeConnection(connection)
                }
            case .receiving:
                if let head = connection.head, now - connection.bodyProgress >= bodyIdleTimeout,
                    now - connection.requestStarted < requestTimeout
                {
                    counters.update { $0.timeouts += 1 }
                    let seconds = Double(bodyIdleTimeout) / 1e9
                    let arrived = min(connection.buffered, head.contentLength)
                    reject(
                        connection,
                        HTTPFailure(
                            408, "body_timeout",
                            "no byte of the request's body arrived for \(seconds) s (\(arrived) of "
                                + "\(head.contentLength) bytes came); send the body without pausing"),
                        method: head.method.rawValue, target: head.target)
                } else if now - connection.requestStarted >= requestTimeout {
                    counters.update { $0.timeouts += 1 }
                    let seconds = Double(requestTimeout) / 1e9
                    reject(
                        connection,
                        HTTPFailure(
                            408, "request_timeout",
                            "the request did not arrive in full within \(seconds) s of its first byte; "
                                + "send the head and body without pausing"))
                }
            case .handling:
                break
            case .writing:
                if now - connection.writeStarted >= writeTimeout {
                    counters.update { $0.timeouts += 1 }
                    closeConnection(connection, note: "write timed out")
                }
            case .lingering:
                if shuttingDown || now >= connection.lingerUntil { closeConnection(connection) }
            }
        }
    }

    private func beginShutdown(_ grace: Duration) {
        shuttingDown = true
        shutdownDeadline = now + Self.nanoseconds(grace)
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            listenerWatched = false
        }
        for connection in Array(connections.values)
        where connection.phase == .idle || connection.phase == .lingering {
            closeConnection(connection)
        }
        nextTimerCheck = now
    }

    /// At the end of the grace period: cancels the handlers still running and closes everything.
    private func abandonAll() {
        for connection in Array(connections.values) {
            if connection.phase == .handling { report.abandoned += 1 }
            closeConnection(connection, note: "abandoned at shutdown")
        }
    }

    private func finish() {
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            listenerWatched = false
        }
        for connection in Array(connections.values) { closeConnection(connection) }
        let report = report
        let waiters = shared.withLock { shared in
            shared.stopped = true
            shared.report = report
            defer { shared.waiters = [] }
            return shared.waiters
        }
        // No wake starts after `stopped`; the ones already told to write are a `write(2)` away.
        while wakesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        Glibc.close(wakeEvent)
        epoll.close()
        executor.stop()
        for waiter in waiters { waiter.resume(returning: report) }
    }
}
