import Foundation

/// What happened to one planted mutant.
public enum MutantOutcome: Sendable, Equatable, Codable {
    /// The suite failed: `failures` are the tests that did, first first (empty when none could be
    /// read from the output, say when the test process crashed; `status` is the exit status).
    case killed(failures: SuiteFailures, status: Int32)
    /// The suite ran longer than the time limit (the mutant made something hang).
    case timedOut
    /// The suite passed with the mutant in place.
    case survived
    /// The package did not compile with the mutant (not counted in the score).
    case didNotBuild
}

/// One mutant and what the suite did with it.
public struct MutantResult: Sendable, Equatable, Codable {
    /// The mutant.
    public var mutant: Mutant
    /// What happened.
    public var outcome: MutantOutcome
    /// How long its build and suite run took, in seconds.
    public var seconds: Double

    /// Makes a result.
    public init(mutant: Mutant, outcome: MutantOutcome, seconds: Double) {
        self.mutant = mutant
        self.outcome = outcome
        self.seconds = seconds
    }
}

/// The result of a run: each mutant's outcome, the score, and a text and JSON rendering.
public struct MutationReport: Sendable, Equatable, Codable {
    /// The test filter the suite ran with.
    public var suite: String
    /// The seed the sample was drawn with.
    public var seed: UInt64
    /// Each planted mutant's result, in file and line order.
    public var results: [MutantResult]
    /// The whole run's time, in seconds.
    public var seconds: Double

    /// Makes a report.
    public init(suite: String, seed: UInt64, results: [MutantResult], seconds: Double) {
        self.suite = suite
        self.seed = seed
        self.results = results
        self.seconds = seconds
    }

    /// The mutants killed, a time-out included.
    public var killed: Int {
        results.filter {
            switch $0.outcome {
            case .killed, .timedOut: true
            case .survived, .didNotBuild: false
            }
        }.count
    }

    /// The mutants the suite passed with.
    public var survivors: [MutantResult] { results.filter { $0.outcome == .survived } }

    /// The mutants that did not compile.
    public var didNotBuild: Int { results.filter { $0.outcome == .didNotBuild }.count }

    /// killed / (planted − did not build), from 0 to 1; nil when no mutant built.
    public var score: Double? {
        let built = results.count - didNotBuild
        return built == 0 ? nil : Double(killed) / Double(built)
    }

    /// `85.0%`.
    public static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }

    /// The plain-text report: the score, each survivor, then each killed mutant with the apps
    /// (test arguments) and the first test that killed it.
    public var text: String {
        let timedOut = results.filter { $0.outcome == .timedOut }.count
        var lines = [
            "",
            "mutation-score: suite \(suite), seed \(seed), \(results.count) mutants, \(Self.duration(seconds))",
            "  killed \(killed)\(timedOut > 0 ? " (\(timedOut) by timeout)" : ""), survived \(survivors.count), did not build \(didNotBuild)",
            "  score: \(score.map(Self.percent) ?? "n/a") (\(killed) / \(results.count - didNotBuild))",
        ]
        lines.append("")
        lines.append("survivors (\(survivors.count)):")
        for result in survivors { lines.append("  \(result.mutant.location): \(result.mutant.summary)") }
        lines.append("")
        lines.append("killed (\(killed)):")
        for result in results {
            switch result.outcome {
            case .killed(let failures, let status):
                let apps = failures.failingValues
                let by = apps.isEmpty ? "" : "; by \(apps.joined(separator: ", "))"
                let first =
                    failures.failures.first.map { "first failing: \($0.test)" }
                    ?? failures.crash.map { "the tests crashed: \($0)" }
                    ?? "no failing test printed (status \(status))"
                lines.append("  \(result.mutant.location): \(result.mutant.summary)\(by); \(first)")
            case .timedOut:
                lines.append("  \(result.mutant.location): \(result.mutant.summary); by timeout")
            case .survived, .didNotBuild:
                break
            }
        }
        lines.append("")
        lines.append("did not build (\(didNotBuild)):")
        for result in results where result.outcome == .didNotBuild {
            lines.append("  \(result.mutant.location): \(result.mutant.summary)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON (keys sorted), with the score and counts beside the results.
    public func json() throws -> Data {
        struct Document: Encodable {
            var report: MutationReport
            var score: Double?
            var killed: Int
            var survived: Int
            var didNotBuild: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(
            Document(
                report: self, score: score, killed: killed, survived: survivors.count,
                didNotBuild: didNotBuild))
    }

    /// `4m 05s`, or `12s`.
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let rest = String(format: "%02d", whole % 60)
        return hours > 0 ? "\(hours)h \(minutes)m \(rest)s" : "\(minutes)m \(rest)s"
    }
}
