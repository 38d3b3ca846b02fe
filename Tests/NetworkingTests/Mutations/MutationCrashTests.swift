@_spi(Testing) import Backend
import Foundation
import Networking
import Storage
import Synchronization
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The real crash test: `mutation-crash-helper` (built next to this test bundle) enqueues and
/// sends mutations to a backend database shared with this test, and is killed with SIGKILL at
/// random moments, 200 times, then relaunched once to drain its journal. Every mutation it
/// acknowledged (printed after `enqueue` returned) must be applied exactly once, nothing twice,
/// and the posts and thread lanes in the order made.
///
/// `MUTATION_CRASH_RUNS=2000` runs it longer; `MUTATION_CRASH_SEED` picks the kill schedule.
@Suite(.timeLimit(LongRunSettings.crashLimit)) struct MutationCrashTests {
    static let runs = LongRunSettings.crashRuns
    static let seed = LongRunSettings.crashSeed

    /// The helper executable, next to the running test bundle.
    static var helperPath: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // On some platforms the bundle's executable sits inside <name>.xctest/Contents/MacOS.
        while directory.contains(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return (directory as NSString).appendingPathComponent("mutation-crash-helper")
    }

    struct Acknowledged: Hashable {
        var token: String
        var kind: String
        var target: String
    }

    @Test func killedAtRandomMoments_loseNothingAcknowledged_applyNothingTwice_andKeepLaneOrder() async throws
    {
        let helper = Self.helperPath
        try #require(
            FileManager.default.isExecutableFile(atPath: helper),
            "no helper at \(helper); build it with `swift build --product mutation-crash-helper`")
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        let backendDirectory = (backend.databasePath as NSString).deletingLastPathComponent
        backend.close()
        let app = try BackendServer.makeTemporaryDirectory("crash-app")
        var random = SimulationRandom(seed: Self.seed)
        var acknowledged: [Acknowledged] = []
        var killedMidRun = 0

        // Given the helper killed at random moments, again and again
        for run in 1...Self.runs {
            let process = try Self.launch(
                helper, ["--app", app, "--backend", backendDirectory, "--run", "\(run)"])
            let waitForAcks = random.below(3) != 0
            let threshold = random.below(12)
            let delay = 1 + random.below(40)
            let started = Date()
            while process.process.isRunning {
                let elapsed = Date().timeIntervalSince(started) * 1000
                if waitForAcks ? process.lineCount() > threshold || elapsed > 2000 : elapsed >= Double(delay)
                {
                    break
                }
                try await Task.sleep(for: .microseconds(200))
            }
            if process.process.isRunning {
                kill(process.process.processIdentifier, SIGKILL)
                killedMidRun += 1
            }
            process.process.waitUntilExit()
            acknowledged += process.lines().compactMap(Self.parse)
        }

        // When it is launched once more to drain its journal
        let drain = try Self.launch(
            helper, ["--app", app, "--backend", backendDirectory, "--run", "0", "--drain"])
        let deadline = Date().addingTimeInterval(60)
        while drain.process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        if drain.process.isRunning {
            kill(drain.process.processIdentifier, SIGKILL)
            Issue.record("the drain did not finish in 60 s; it printed: \(drain.lines().suffix(5))")
        }
        drain.process.waitUntilExit()
        #expect(drain.process.terminationStatus == 0)
        #expect(drain.lines().last == "DRAINED pending=0 failed=0")

        // Then every acknowledged mutation was applied once, nothing twice, lanes in order
        #expect(killedMidRun > Self.runs / 2, "most runs should be killed while working")
        #expect(
            acknowledged.count > Self.runs, "the helper acknowledged only \(acknowledged.count) mutations")
        let database = try Database(path: backend.databasePath)
        for ack in acknowledged {
            let recorded = try database.query(
                "SELECT status FROM mutations WHERE user = 1 AND token = ?", ack.token
            ).first?.int(0)
            #expect(recorded.map { (200..<300).contains($0) } == true, "acknowledged \(ack) was not applied")
        }
        let twice = try database.query(
            "SELECT client_token, COUNT(*) FROM posts WHERE client_token IS NOT NULL GROUP BY client_token HAVING COUNT(*) > 1"
        )
        #expect(twice.isEmpty, "posts made twice: \(twice)")
        for kind in ["post", "reply"] {
            let ids = try acknowledged.filter { $0.kind == kind }.map { ack -> Int64 in
                let id = try database.query("SELECT id FROM posts WHERE client_token = ?", ack.token).first?
                    .int64(0)
                return try #require(id, "no \(kind) for acknowledged token \(ack.token)")
            }
            #expect(ids == ids.sorted(), "the \(kind) lane was applied out of order: \(ids)")
            #expect(Set(ids).count == ids.count)
        }
        print(
            "crash test: \(Self.runs) runs (seed \(Self.seed)), \(killedMidRun) killed mid-run, "
                + "\(acknowledged.count) acknowledged mutations, all applied once")
    }

    static func parse(_ line: String) -> Acknowledged? {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 4, parts[0] == "ACK" else { return nil }
        return Acknowledged(token: parts[1], kind: parts[2], target: parts[3])
    }

    /// A running helper and what it printed so far.
    final class Launched: Sendable {
        let process: Process
        private let output = Mutex(Data())

        init(_ process: Process) { self.process = process }

        func append(_ data: Data) { output.withLock { $0.append(data) } }

        /// Complete lines printed so far.
        func lines() -> [String] {
            let text = String(decoding: output.withLock { $0 }, as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.removeLast()  // what follows the last newline is not a complete line
            return lines
        }

        func lineCount() -> Int { output.withLock { data in data.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } } }
    }

    static func launch(_ path: String, _ arguments: [String]) throws -> Launched {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let launched = Launched(process)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { launched.append(data) }
        }
        try process.run()
        return launched
    }
}
