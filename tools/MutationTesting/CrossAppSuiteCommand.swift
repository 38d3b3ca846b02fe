import CommandLineKit
import Foundation
import Glibc

/// The `cross-app-suite` command: builds the tests, then runs the cross-app regression suite (or
/// the tests a filter selects) as several test processes at once, and reports every failure.
public enum CrossAppSuiteCommand {
    /// The command line `cross-app-suite` accepts.
    public static let spec = CommandLineSpec(
        command: "cross-app-suite",
        summary: """
            Runs the cross-app regression suite split across test processes that run at once, each with a
            share of its tests (dealt out in turn, so every suite's tests spread over all of them), and
            reports each process as it ends and every failing test at the end. Builds the tests first
            (swift build --build-tests) unless told not to.
            """,
        options: [
            .value("filter", "REGEX", help: "the tests to run (default CrossAppRegressionTests)"),
            .value("shards", "N", help: "how many test processes run at once (default: one per core)"),
            .flag("skip-build", help: "run the tests as last built"),
            .value("timeout", "SECONDS", help: "a test process running longer is ended (default 900)"),
            .value(
                "log-dir", "DIR", help: "where each process's output goes (default: a new folder in /tmp)"),
            .value(
                "package-dir", "DIR",
                help: "the package root (default: the nearest directory with Package.swift)"),
            .version(),
        ],
        epilogue: """
            example:
              swift run cross-app-suite --shards 2

            exit status: 0 when every test passed, 1 when one failed or a process could not run, 2 on a
            usage error.
            """)

    /// Runs the command. Returns the exit status.
    public static func run(
        arguments: [String], output: any TextOutput = StandardTextOutput(),
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Int32 {
        let parsed: ParsedArguments
        let root: String
        let shards: Int
        let timeout: Int
        do {
            parsed = try spec.parse(arguments)
            if parsed.helpRequested {
                output.write(spec.helpText + "\n")
                return 0
            }
            if parsed.versionRequested {
                output.write(ToolVersion.line(for: spec.command) + "\n")
                return 0
            }
            guard let found = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory) else {
                throw UsageError(
                    command: spec.command,
                    "no Package.swift in '\(parsed.value("package-dir") ?? currentDirectory)' or its parents; pass --package-dir"
                )
            }
            root = found
            shards = try parsed.integer("shards", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
            timeout = try parsed.integer("timeout", in: 1...86_400) ?? 900
        } catch {
            output.writeError("\(error)\n")
            return 2
        }
        let suite = ShardedSuite(
            root: root, filter: parsed.value("filter") ?? "CrossAppRegressionTests", shards: shards)
        do {
            let logs = try logDirectory(parsed.value("log-dir"))
            let watcher = SignalWatcher(label: "cross-app-suite.signals")
            watcher.install([SIGINT, SIGTERM, SIGHUP]) { signal in
                suite.stop(signal: SIGINT)
                exit(128 + signal)
            }
            defer { watcher.uninstall() }
            if !parsed.has("skip-build") {
                output.writeError("cross-app-suite: building the tests (swift build --build-tests)\n")
                let build = try TimedCommand().run(
                    ["swift", "build", "--build-tests"], in: root, logFile: "\(logs)/build.log", timeout: 3600
                )
                guard build.status == 0 else {
                    output.writeError(tail(of: "\(logs)/build.log", lines: 30))
                    output.writeError(
                        "cross-app-suite: error: the tests did not build; see \(logs)/build.log\n")
                    return 1
                }
            }
            output.writeError(
                "cross-app-suite: running '\(suite.filter)' as up to \(shards) test processes at once (logs in \(logs))\n"
            )
            let results = try suite.run(logPrefix: "\(logs)/shard", timeout: Double(timeout)) {
                shard, result in
                output.writeError("  \(describe(shard: shard, of: shards, result))\n")
            }
            return report(results, output: output)
        } catch {
            output.writeError("cross-app-suite: error: \(error)\n")
            return 1
        }
    }

    /// One shard's line: passed or failed, its tests, its time and, when it failed, its log.
    static func describe(shard: Int, of count: Int, _ result: ShardedSuite.ShardResult) -> String {
        let time = String(format: "%.1f s", result.seconds)
        let state =
            result.outcome.timedOut
            ? "ENDED at the time limit"
            : result.outcome.status == 0 ? "passed" : "FAILED (status \(result.outcome.status))"
        let log = result.outcome.status == 0 ? "" : "; log: \(result.logFile)"
        return "process \(shard + 1) of \(count): \(state), \(result.tests) tests in \(time)\(log)"
    }

    /// Prints every failing test and the summary line; returns the exit status.
    public static func report(_ results: [ShardedSuite.ShardResult], output: any TextOutput) -> Int32 {
        let longest = results.map(\.seconds).max() ?? 0
        let tests = results.map(\.tests).reduce(0, +)
        var failed: [String] = []
        for result in results where result.outcome.status != 0 {
            let failures = SuiteFailures(output: result.output)
            for failure in failures.failures {
                failed.append(
                    failure.arguments.isEmpty ? failure.test : "\(failure.test) with \(failure.arguments)")
            }
            if let crash = failures.crash {
                failed.append("the test process crashed: \(crash) (\(result.logFile))")
            }
            if failures.failures.isEmpty && failures.crash == nil {
                failed.append("a test process ended with status \(result.outcome.status) (\(result.logFile))")
            }
        }
        let time = String(format: "%.1f s", longest)
        guard failed.isEmpty else {
            output.write("failures:\n" + failed.map { "  \($0)\n" }.joined())
            output.write("cross-app-suite: FAILED: \(failed.count) failing in \(tests) tests, in \(time)\n")
            return 1
        }
        output.write("cross-app-suite: \(tests) tests passed in \(time) (the longest test process)\n")
        return 0
    }

    /// The folder the logs go to: `path` (made when missing), else a new one in /tmp.
    static func logDirectory(_ path: String?) throws(MutationError) -> String {
        let directory =
            path
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "cross-app-suite-\(getpid())-\(Int(Date().timeIntervalSince1970))"
            ).path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MutationError("cannot make \(directory): \(error)")
        }
        return directory
    }

    /// The last `lines` lines of the file at `path`.
    static func tail(of path: String, lines: Int) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        let all = String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        return all.suffix(lines).joined(separator: "\n") + "\n"
    }
}
