import CommandLineKit
import Foundation
import MutationTesting
import Testing

@Suite struct MutationScoreCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("score-\(UUID().uuidString)")
        .path

    private func makePackage() throws {
        try FileManager.default.createDirectory(
            atPath: "\(root)/Modules/M", withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.2\n".utf8).write(
            to: URL(fileURLWithPath: "\(root)/Package.swift"))
        let source = "func f(a: Int) -> Bool {\n    // a < 1\n    a < 2 && true\n}\n"
        try Data(source.utf8).write(to: URL(fileURLWithPath: "\(root)/Modules/M/F.swift"))
    }

    @Test func list_printsTheSampleWithoutTouchingTheFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try makePackage()
        let output = CapturedTextOutput()
        let status = MutationScoreCommand.run(
            arguments: ["--list", "--module", "M", "--package-dir", root], output: output,
            currentDirectory: "/")
        #expect(status == 0)
        #expect(
            output.output == """
                Modules/M/F.swift:3:7: comparison: '<' -> '<='
                Modules/M/F.swift:3:7: comparison: '<' -> '>'
                Modules/M/F.swift:3:9: constant: '2' -> '0'
                Modules/M/F.swift:3:9: off-by-one: '2' -> '1'
                Modules/M/F.swift:3:9: off-by-one: '2' -> '3'
                Modules/M/F.swift:3:11: boolean: '&&' -> '||'
                Modules/M/F.swift:3:14: boolean: 'true' -> 'false'
                mutation-score: 7 of 7 mutants in 1 file (seed 1)

                """)
        let sample = CapturedTextOutput()
        _ = MutationScoreCommand.run(
            arguments: [
                "--list", "--file", "Modules/M/F.swift", "--sample", "2", "--seed", "3", "--package-dir",
                root,
            ],
            output: sample, currentDirectory: "/")
        #expect(sample.output.split(separator: "\n").count == 3)
        #expect(sample.output.hasSuffix("mutation-score: 2 of 7 mutants in 1 file (seed 3)\n"))
        #expect(
            try String(contentsOfFile: "\(root)/Modules/M/F.swift", encoding: .utf8)
                == "func f(a: Int) -> Bool {\n    // a < 1\n    a < 2 && true\n}\n")
    }

    @Test func usageErrors_exitOneWithTheMessage() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try makePackage()
        let output = CapturedTextOutput()
        #expect(
            MutationScoreCommand.run(arguments: ["--sample", "0", "--package-dir", root], output: output) == 1
        )
        #expect(
            output.error
                == "mutation-score: error: invalid value '0' for '--sample'; expected a whole number from 1 to 1000000\nRun 'mutation-score --help' for usage.\n"
        )
        let missing = CapturedTextOutput()
        #expect(
            MutationScoreCommand.run(
                arguments: ["--module", "N", "--list", "--package-dir", root], output: missing)
                == 1)
        #expect(
            missing.error == "mutation-score: error: no module 'N' (no folder Modules/N); did you mean 'M'?\n"
        )
    }

    @Test func aLeftoverBackup_isRestoredBeforeTheRunRefusesADirtyTree() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try makePackage()
        let original = try String(contentsOfFile: "\(root)/Modules/M/F.swift", encoding: .utf8)
        let mutant = try #require(MutantFinder.mutants(in: original, file: "Modules/M/F.swift").first)
        // A run killed outright: the mutant is in place, its original in the backup folder.
        try MutantPlanter(root: root, backupDirectory: "\(root)/.build/mutation-score/backup").plant(mutant)
        let output = CapturedTextOutput()
        // Not a git repository: the run stops at the check for uncommitted changes, after the restore.
        let status = MutationScoreCommand.run(
            arguments: ["--module", "M", "--package-dir", root], output: output)
        #expect(status == 1)
        #expect(
            output.error.hasPrefix(
                "mutation-score: restored Modules/M/F.swift from an interrupted run's backup\n"))
        #expect(try String(contentsOfFile: "\(root)/Modules/M/F.swift", encoding: .utf8) == original)
    }
}
