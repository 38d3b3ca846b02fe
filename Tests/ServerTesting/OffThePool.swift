import Foundation

/// Runs blocking work (reading a child's output, waiting for it to exit, a socket exchange) on a
/// thread of its own and returns its result.
///
/// A whole `swift test` run shares one cooperative pool, as many threads as cores: two on CI.
/// A test that blocks a pool thread while `backend-server` seeds its database holds that thread
/// for seconds; two such tests stall every other test in the run, and an in-process server's
/// handler then waits so long that its clients give up ("the connection ended before a
/// response head"). Blocking work belongs here instead.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// `offThePool` for work that cannot fail.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

extension PipedServerProcess {
    /// Starts `path` with `arguments` and waits, off the pool, for the line starting with
    /// `prefix` (`listening on `); returns the process and that line.
    public static func start(_ path: String, _ arguments: [String], waitingFor prefix: String) async throws
        -> (PipedServerProcess, String)
    {
        try await offThePool {
            let process = try PipedServerProcess(path, arguments)
            return (process, try process.readLine(startingWith: prefix))
        }
    }

    /// `exchange(_:port:)` off the pool.
    public static func exchanging(_ request: String, port: Int) async -> String {
        await offThePool { exchange(request, port: port) }
    }

    /// `waitForExit()` off the pool.
    public func exitStatus() async -> Int32 {
        await offThePool { self.waitForExit() }
    }
}
