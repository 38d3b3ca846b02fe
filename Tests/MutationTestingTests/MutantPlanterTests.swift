import Foundation
import MutationTesting
import Testing

@Suite struct MutantPlanterTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("planter-\(UUID().uuidString)")
        .path
    let original = "func f(a: Int) -> Bool {\n    a < 2\n}\n"

    private func setUp() throws -> (MutantPlanter, Mutant) {
        try FileManager.default.createDirectory(
            atPath: "\(root)/Modules/M", withIntermediateDirectories: true)
        try Data(original.utf8).write(to: URL(fileURLWithPath: "\(root)/Modules/M/F.swift"))
        let mutant = try #require(MutantFinder.mutants(in: original, file: "Modules/M/F.swift").first)
        return (MutantPlanter(root: root, backupDirectory: "\(root)/.build/backup"), mutant)
    }

    private var text: String {
        get throws { try String(contentsOfFile: "\(root)/Modules/M/F.swift", encoding: .utf8) }
    }

    private var backups: [String] {
        (FileManager.default.enumerator(atPath: "\(root)/.build/backup")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }
    }

    @Test func plantThenRestore_putsTheOriginalBackAndRemovesTheBackup() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (planter, mutant) = try setUp()
        try planter.plant(mutant)
        #expect(try text == "func f(a: Int) -> Bool {\n    a <= 2\n}\n")
        #expect(backups == ["Modules/M/F.swift"])
        #expect(planter.plantedFile == "Modules/M/F.swift")
        try planter.restore()
        #expect(try text == original)
        #expect(backups == [])
        #expect(planter.plantedFile == nil)
    }

    @Test func aRunKilledWithAMutantPlanted_isUndoneByTheNextRun() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (interrupted, mutant) = try setUp()
        try interrupted.plant(mutant)
        // The process dies here: nothing restores the file.
        let next = MutantPlanter(root: root, backupDirectory: "\(root)/.build/backup")
        #expect(try next.restoreLeftovers() == ["Modules/M/F.swift"])
        #expect(try text == original)
        #expect(backups == [])
        #expect(try next.restoreLeftovers() == [])
    }

    @Test func closing_restoresAndRefusesTheNextMutant() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (planter, mutant) = try setUp()
        try planter.plant(mutant)
        try planter.close()
        #expect(try text == original)
        #expect(throws: MutationError("the run was stopped; Modules/M/F.swift is not mutated")) {
            try planter.plant(mutant)
        }
        #expect(try text == original)
        #expect(backups == [])
    }

    @Test func aMutantThatNoLongerMatches_leavesTheFileAlone() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (planter, mutant) = try setUp()
        let edited = "func f(a: Int) -> Bool {\n    a == 2\n}\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: "\(root)/Modules/M/F.swift"))
        #expect(
            throws: MutationError(
                "Modules/M/F.swift:2:7: the source changed since the mutant was found; expected '<'")
        ) {
            try planter.plant(mutant)
        }
        #expect(try text == edited)
        #expect(backups == [])
        #expect(planter.plantedFile == nil)
    }

    @Test func plantingASecondMutant_restoresTheFirstFile() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (planter, mutant) = try setUp()
        let other = "let b = true\n"
        try Data(other.utf8).write(to: URL(fileURLWithPath: "\(root)/Modules/M/G.swift"))
        let second = try #require(MutantFinder.mutants(in: other, file: "Modules/M/G.swift").first)
        try planter.plant(mutant)
        try planter.plant(second)
        #expect(try text == original)
        #expect(try String(contentsOfFile: "\(root)/Modules/M/G.swift", encoding: .utf8) == "let b = false\n")
        try planter.restore()
        #expect(try String(contentsOfFile: "\(root)/Modules/M/G.swift", encoding: .utf8) == other)
        #expect(backups == [])
    }
}
