import CommandLineKit
import Dispatch
import Foundation
import Glibc

/// The `mutation-score` command: plants mutants in shared code one at a time, rebuilds, runs a
/// test suite, and reports how many the suite killed.
public enum MutationScoreCommand {
    /// The command line `mutation-score` accepts.
    public static let spec = CommandLineSpec(
        command: "mutation-score",
        summary: """
            Plants small mistakes (mutants) in the shared code under Modules/ and Sockets/, one at a time:
            writes each into its file, rebuilds incrementally (swift build --build-tests), runs a test suite
            (swift test --skip-build --filter SUITE), and puts the file back. A mutant the suite fails on is
            killed; one it passes with survives. The score is killed / (planted - did not build).
            """,
        options: [
            .values("module", "NAME", help: "mutate this module's files (repeatable; Sockets for Sockets/)"),
            .values("file", "PATH", help: "mutate this file, relative to the package root (repeatable)"),
            .value("seed", "N", help: "which mutants the sample draws (default 1)"),
            .value("sample", "N", help: "plant this many mutants, drawn by the seed (default: all)"),
            .flag("list", help: "print the mutants that would be planted, and build nothing"),
            .value("suite", "FILTER", help: "the tests to run (default CrossAppRegressionTests)"),
            .value("timeout", "SECONDS", help: "a suite run taking longer kills the mutant (default 300)"),
            .value("json", "PATH", help: "also write the result as JSON to PATH"),
            .value("minimum-score", "PERCENT", help: "exit 2 when the score is below PERCENT"),
            .value(
                "package-dir", "DIR",
                help: "the package root (default: the nearest directory with Package.swift)"
            ),
            .version(),
        ],
        epilogue: """
            example:
              swift run -c debug mutation-score --module ListEngine --sample 30 --seed 1

            Files to mutate must have no uncommitted changes. The original of the file being mutated is kept in
            .build/mutation-score/backup and put back after each mutant, on Ctrl-C or SIGTERM, and on the next
            start if a run was killed.

            exit status: 0 when the run finished (whatever the score), 1 on a usage or I/O error, 2 when
            the score is below --minimum-score.
            """)

    /// Runs the command. Returns the exit status.
    public static func run(
        arguments: [String], output: any TextOutput = StandardTextOutput(),
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Int32 {
        let options: Options
        do {
            let parsed = try spec.parse(arguments)
            if parsed.helpRequested {
                output.write(spec.helpText + "\n")
                return 0
            }
            if parsed.versionRequested {
                output.write(ToolVersion.line(for: spec.command) + "\n")
                return 0
            }
            options = try Options(parsed, currentDirectory: currentDirectory)
        } catch {
            output.writeError("\(error)\n")
            return 1
        }
        do {
            let files = try MutantSelection.files(
                root: options.root, modules: options.modules, files: options.files)
            let planter = MutantPlanter(
                root: options.root, backupDirectory: "\(options.workDirectory)/backup")
            if !options.list {
                for file in try planter.restoreLeftovers() {
                    output.writeError("mutation-score: restored \(file) from an interrupted run's backup\n")
                }
            }
            var all: [Mutant] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: "\(options.root)/\(file)") else {
                    throw MutationError("cannot read \(file)")
                }
                all += MutantFinder.mutants(in: String(decoding: data, as: UTF8.self), file: file)
            }
            let mutants = MutantSelection.sample(all, size: options.sample, seed: options.seed)
            if options.list {
                for mutant in mutants { output.write("\(mutant.location): \(mutant.summary)\n") }
                output.write(
                    "mutation-score: \(mutants.count) of \(all.count) mutants in \(files.count) file\(files.count == 1 ? "" : "s") (seed \(options.seed))\n"
                )
                return 0
            }
            try requireCommitted(Set(mutants.map(\.file)).sorted(), root: options.root)
            let report = try MutationRun(options: options, planter: planter, output: output).run(mutants)
            output.write(report.text)
            if let path = options.jsonPath {
                do {
                    try report.json().write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw MutationError("cannot write the JSON report to \(path): \(error)")
                }
            }
            if let minimum = options.minimumScore, let score = report.score, score * 100 < minimum {
                output.writeError(
                    "mutation-score: the score \(MutationReport.percent(score)) is below the minimum \(minimum)%\n"
                )
                return 2
            }
            return 0
        } catch {
            output.writeError("mutation-score: error: \(error)\n")
            return 1
        }
    }

    /// Refuses to plant mutants in files with uncommitted changes: restoring one puts back what was
    /// read at the start, but a person editing it meanwhile would lose their work, and a mutant
    /// of an uncommitted change measures code no one has reviewed.
    static func requireCommitted(_ files: [String], root: String) throws(MutationError) {
        guard !files.isEmpty else { return }
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/usr/bin/env", ["git", "-C", root, "status", "--porcelain", "--"] + files)
        } catch {
            throw MutationError("cannot run git to check for uncommitted changes: \(error)")
        }
        guard result.status == 0 else {
            throw MutationError("git status failed in \(root): \(result.errorText)")
        }
        let changed = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
        guard changed.isEmpty else {
            throw MutationError(
                "uncommitted changes in files to mutate (commit them first):\n"
                    + changed.map { "  \($0)" }.joined(separator: "\n"))
        }
    }
}

/// What a run was asked to do.
struct Options {
    var root: String
    var modules: [String]
    var files: [String]
    var seed: UInt64
    var sample: Int?
    var list: Bool
    var suite: String
    var timeout: Double
    var jsonPath: String?
    var minimumScore: Double?

    var workDirectory: String { "\(root)/.build/mutation-score" }

    init(_ parsed: ParsedArguments, currentDirectory: String) throws(UsageError) {
        let command = parsed.command
        guard let root = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory) else {
            throw UsageError(
                command: command,
                "no Package.swift in '\(parsed.value("package-dir") ?? currentDirectory)' or its parents; pass --package-dir"
            )
        }
        self.root = root
        modules = parsed.allValues("module")
        files = parsed.allValues("file")
        seed = UInt64(try parsed.integer("seed", in: 0...Int.max) ?? 1)
        sample = try parsed.integer("sample", in: 1...1_000_000)
        list = parsed.has("list")
        suite = parsed.value("suite") ?? "CrossAppRegressionTests"
        timeout = Double(try parsed.integer("timeout", in: 1...86_400) ?? 300)
        jsonPath = parsed.value("json")
        if let text = parsed.value("minimum-score") {
            guard let value = Double(text), (0...100).contains(value) else {
                throw UsageError(
                    command: command,
                    "invalid value '\(text)' for '--minimum-score'; expected a percentage from 0 to 100")
            }
            minimumScore = value
        }
    }

}
