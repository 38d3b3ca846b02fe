import Foundation
import MutationTesting
import Testing

@Suite struct TimedCommandTests {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("timed-\(UUID().uuidString).log")
        .path

    @Test func aCommand_runsInTheDirectoryWithItsOutputInTheLog() throws {
        defer { try? FileManager.default.removeItem(atPath: log) }
        let outcome = try TimedCommand().run(
            ["sh", "-c", "pwd; echo oops >&2; exit 3"], in: "/tmp", logFile: log, timeout: 60)
        #expect(outcome.status == 3)
        #expect(!outcome.timedOut)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "/tmp\noops\n")
    }

    @Test func aCommandOverItsTimeLimit_isStoppedWithItsChildren() throws {
        defer { try? FileManager.default.removeItem(atPath: log) }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timed-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        // The child of the command would create the marker if it outlived the stop.
        let outcome = try TimedCommand().run(
            ["sh", "-c", "(sleep 3; touch '\(marker)') & wait"], in: "/tmp", logFile: log, timeout: 0.5)
        #expect(outcome.timedOut)
        #expect(outcome.status == 128 + SIGINT)
        Thread.sleep(forTimeInterval: 3.5)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
