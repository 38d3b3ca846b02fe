import CommandLineKit
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

    @Test func aProgramBuiltHereAndStartedSinceTheMark_isEnded_andOneStartedBeforeIsLeftAlone() throws {
        // Given a program under a build directory, running since before a mark, and started
        // again after it in a session of its own (as `Process` starts an app), its starter gone
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "leftovers-\(UUID().uuidString)/.build"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
        }
        let program = directory + "/sleeper"
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: program)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let (before, spawned) = Subprocess.spawn(program, ["120"], actions: &actions)
        try #require(spawned == 0)
        defer {
            kill(before, SIGKILL)
            waitpid(before, nil, 0)
        }
        Thread.sleep(forTimeInterval: 0.05)
        let mark = TimedCommand.ticksSinceBoot()
        Thread.sleep(forTimeInterval: 0.05)
        let pidFile = directory + "/leftover.pid"
        let started = try TimedCommand().run(
            [
                "sh", "-c",
                "setsid '\(program)' 120 >/dev/null 2>&1 </dev/null & echo $! > '\(pidFile)'; sleep 0.3",
            ],
            in: "/tmp", logFile: log, timeout: 60)
        try #require(started.status == 0)
        let leftover = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmed))
        var waited = 0
        while waited < 500,
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(leftover)/exe")) != program
        {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
        }
        // When the leftovers since the mark are ended
        let ended = TimedCommand.endLeftovers(builtUnder: directory, startedSince: mark)
        // Then the one started since is gone, and the one from before still runs
        #expect(ended == [program])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!isRunning(leftover))
        #expect(isRunning(before))
    }
}

/// Whether the process `pid` runs (a zombie, ended but not yet reaped by its new parent, does not).
private func isRunning(_ pid: Int32) -> Bool {
    guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
    let line = String(decoding: stat, as: UTF8.self)
    guard let close = line.lastIndex(of: ")") else { return false }
    return line[line.index(after: close)...].split(separator: " ").first != "Z"
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
