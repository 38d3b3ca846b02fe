import AppRuntime
import AppTesting
import Backend
import CommandLineKit
import Features
import Foundation
import Mutations
import ServerTesting
import Sockets
import Synchronization
import TerminalUI
import Testing

/// Two processes on one embedded backend: while this app reads and writes it, another process
/// (`mutation-crash-helper`, signed in as the same account) sends bursts of posts, replies,
/// likes and messages into the same database file. No "database is locked", no server problem
/// and no failed change reaches the app; both processes' changes land.
@Suite @MainActor struct SecondWriterScenarios {
    /// The helper, built beside this test bundle (the target depends on it).
    static var helperPath: String { PipedServerProcess.siblingExecutable("mutation-crash-helper") }

    /// What the screen must never say while another process writes.
    static let storageProblems = [
        "database is locked", "SQLITE_", "the server had a problem", "could not", "✕",
    ]

    @Test(arguments: ShippedApp.withHome)
    func anotherProcessWritingTheBackend_whileThisAppWorks_showsNoStorageProblem(app: ShippedApp) async throws
    {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let manager = try #require(session.shell?.context.manager)
        let helperData = NSTemporaryDirectory() + "second-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: helperData, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: helperData) }

        // Given another process writing the same backend database, burst after burst
        let helper = Self.helperPath
        let arguments = [
            "--app", helperData, "--backend", directories.backend, "--run", "7", "--count", "400",
        ]
        let running = Mutex(true)
        let writer = Task.detached {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Subprocess.Result, any Error>) in
                Thread {
                    let result = Result { try Subprocess.run(helper, arguments) }
                    running.withLock { $0 = false }
                    continuation.resume(with: result)
                }.start()
            }
        }

        // When this app refreshes, likes and moves on, again and again, until the other is done
        var frames: [String] = []
        var rounds = 0
        while rounds < 8 || (running.withLock { $0 } && rounds < 400) {
            rounds += 1
            for key in ["k", "l", "j", "j"] {
                _ = session.shell?.handle(.character(Character(key)))
                await session.settle()
                frames.append(HeadlessHarness.frame(of: session))
            }
        }
        let result = try await writer.value
        await session.settle()

        // Then the other process ended its run with everything sent, and this app showed no
        // storage problem, has nothing waiting and nothing failed
        #expect(result.status == 0, "\(app.id): the helper failed: \(result.errorText)")
        #expect(String(decoding: result.output, as: UTF8.self).hasSuffix("IDLE\n"), "\(app.id)")
        for frame in frames {
            let problems = Self.storageProblems.filter { frame.contains($0) }
            #expect(problems.isEmpty, "\(app.id): \(problems)\n\(frame)")
        }
        #expect(manager.pending.isEmpty, "\(app.id): \(manager.pending.map(\.lane))")
        #expect(manager.failed.isEmpty, "\(app.id): \(manager.failed.map(\.lane))")
    }
}
