import CommandLineKit
import Foundation
import Glibc

/// One run of mutation testing: checks that the package builds and the suite passes as it is,
/// then plants each mutant, rebuilds, runs the suite and puts the original back, printing
/// progress as it goes.
struct MutationRun {
    let options: Options
    let planter: MutantPlanter
    let output: any TextOutput
    let command = TimedCommand()

    /// Plants `mutants` one at a time and returns what the suite did with each. The originals
    /// are back when it returns or throws, and when SIGINT, SIGTERM or SIGHUP ends the process.
    func run(_ mutants: [Mutant]) throws(MutationError) -> MutationReport {
        let logs = "\(options.workDirectory)/logs"
        do {
            if FileManager.default.fileExists(atPath: logs) {
                try FileManager.default.removeItem(atPath: logs)
            }
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        } catch {
            throw MutationError("cannot make \(logs): \(error)")
        }
        let watcher = SignalWatcher(label: "mutation-score.signals")
        watcher.install([SIGINT, SIGTERM, SIGHUP]) { [planter, command, output] signal in
            let file = planter.plantedFile
            command.stop(signal: SIGINT)
            do {
                try planter.close()
                output.writeError(
                    "\nmutation-score: interrupted (signal \(signal))\(file.map { "; restored \($0)" } ?? "")\n"
                )
            } catch {
                output.writeError("\nmutation-score: interrupted (signal \(signal)); \(error)\n")
            }
            exit(128 + signal)
        }
        defer { watcher.uninstall() }

        let started = Date()
        output.writeError("mutation-score: baseline: building and running \(options.suite) without mutants\n")
        let baseline = try buildAndTest(logs: logs, name: "baseline")
        switch baseline.outcome {
        case .survived:
            // A filter that matches nothing passes: every mutant would survive.
            guard baseline.testsRun > 0 else {
                throw MutationError(
                    "no test matches '\(options.suite)'; pass --suite with a test target, suite or test name")
            }
        case .didNotBuild:
            throw MutationError("the package does not build without mutants; see \(logs)/baseline-build.log")
        case .killed, .timedOut:
            throw MutationError(
                "\(options.suite) fails without mutants, so it cannot tell a mutant apart; see \(logs)/baseline-test.log"
            )
        }
        output.writeError(
            "mutation-score: baseline passed in \(MutationReport.duration(baseline.seconds)); planting \(mutants.count) mutants\n"
        )

        var results: [MutantResult] = []
        for (index, mutant) in mutants.enumerated() {
            let elapsed = Date().timeIntervalSince(started)
            let perMutant =
                results.isEmpty
                ? baseline.seconds : results.map(\.seconds).reduce(0, +) / Double(results.count)
            let eta = perMutant * Double(mutants.count - index)
            output.writeError(
                "[\(index + 1)/\(mutants.count)] \(mutant.location): \(mutant.summary) (elapsed \(MutationReport.duration(elapsed)), ETA \(MutationReport.duration(eta)))\n"
            )
            try planter.plant(mutant)
            let result: (outcome: MutantOutcome, seconds: Double, testsRun: Int)
            do {
                result = try buildAndTest(logs: logs, name: "mutant-\(index + 1)")
            } catch {
                try planter.restore()
                throw error
            }
            try planter.restore()
            output.writeError(
                "    \(Self.describe(result.outcome)) in \(MutationReport.duration(result.seconds))\n")
            results.append(MutantResult(mutant: mutant, outcome: result.outcome, seconds: result.seconds))
        }
        return MutationReport(
            suite: options.suite, seed: options.seed, results: results,
            seconds: Date().timeIntervalSince(started))
    }

    /// Builds incrementally, then runs the suite when the build succeeded; their output goes to
    /// `<name>-build.log` and `<name>-test.log` in `logs`. `testsRun` is how many tests the suite
    /// ran (0 when the build failed).
    private func buildAndTest(
        logs: String, name: String
    ) throws(MutationError) -> (outcome: MutantOutcome, seconds: Double, testsRun: Int) {
        let started = Date()
        let build = try command.run(
            ["swift", "build", "--build-tests"], in: options.root, logFile: "\(logs)/\(name)-build.log",
            timeout: max(options.timeout, 1800))
        guard build.status == 0 else { return (.didNotBuild, Date().timeIntervalSince(started), 0) }
        let testsBegan = TimedCommand.ticksSinceBoot()
        let test = try command.run(
            ["swift", "test", "--skip-build", "--filter", options.suite], in: options.root,
            logFile: "\(logs)/\(name)-test.log", timeout: options.timeout)
        let seconds = Date().timeIntervalSince(started)
        let text = FileManager.default.contents(atPath: "\(logs)/\(name)-test.log").map {
            String(decoding: $0, as: UTF8.self)
        }
        for program in TimedCommand.endLeftovers(
            builtUnder: "\(options.root)/.build", startedSince: testsBegan)
        {
            output.writeError("    ended \(program), left running by the suite\n")
        }
        let failures = SuiteFailures(output: text ?? "")
        if test.timedOut { return (.timedOut, seconds, failures.testsRun) }
        if test.status == 0 { return (.survived, seconds, failures.testsRun) }
        return (.killed(failures: failures, status: test.status), seconds, failures.testsRun)
    }

    static func describe(_ outcome: MutantOutcome) -> String {
        switch outcome {
        case .killed(let failures, let status):
            let apps = failures.failingValues
            let first =
                failures.failures.first.map { ": \($0.test)" } ?? failures.crash.map {
                    "; the tests crashed: \($0)"
                }
                ?? " (status \(status))"
            return "killed\(apps.isEmpty ? "" : " by \(apps.joined(separator: ", "))")\(first)"
        case .timedOut: return "killed by timeout"
        case .survived: return "SURVIVED"
        case .didNotBuild: return "did not build"
        }
    }
}
