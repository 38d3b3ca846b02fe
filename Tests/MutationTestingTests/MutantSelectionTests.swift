import Foundation
import MutationTesting
import Testing

@Suite struct MutantSelectionTests {
    private let mutants = (1...40).map { index in
        Mutant(
            file: index % 2 == 0 ? "Modules/A/A.swift" : "Modules/B/B.swift", line: index, column: 1,
            mutationOperator: .constant, range: index * 10..<(index * 10 + 1), original: "1", replacement: "0"
        )
    }

    @Test func sameSeed_picksTheSameMutantsWhateverTheirOrder() {
        let first = MutantSelection.sample(mutants, size: 7, seed: 42)
        let second = MutantSelection.sample(mutants.reversed(), size: 7, seed: 42)
        #expect(first.count == 7)
        #expect(first == second)
        #expect(first == first.sorted { ($0.file, $0.start) < ($1.file, $1.start) })
    }

    @Test func otherSeeds_pickOtherMutants() {
        let samples = (1...5).map { MutantSelection.sample(mutants, size: 7, seed: $0).map(\.line) }
        #expect(Set(samples).count == 5)
    }

    @Test func aSampleLargerThanTheCandidates_takesThemAll() {
        #expect(MutantSelection.sample(mutants, size: 100, seed: 1).count == 40)
        #expect(MutantSelection.sample(mutants, size: nil, seed: 1).count == 40)
    }

    @Test func onlySharedSwiftCode_isMutable() {
        #expect(MutantSelection.mutable("Modules/ListEngine/ListDiff.swift"))
        #expect(MutantSelection.mutable("Sockets/Theme.swift"))
        #expect(!MutantSelection.mutable("Package.swift"))
        #expect(!MutantSelection.mutable("Tests/ListEngineTests/ListDiffTests.swift"))
        #expect(!MutantSelection.mutable("Apps/Prism/PrismApp/Prism.swift"))
        #expect(!MutantSelection.mutable("Modules/ListEngine/ListEngine.docc/Article.md"))
        #expect(!MutantSelection.mutable("tools/bench/main.swift"))
    }

    @Test func modulesAndFiles_selectTheirSwiftFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "selection-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in [
            "Modules/A/A.swift", "Modules/A/Internal/B.swift", "Modules/A/A.docc/A.md", "Modules/C/C.swift",
        ] {
            try FileManager.default.createDirectory(
                atPath: "\(root)/\((path as NSString).deletingLastPathComponent)",
                withIntermediateDirectories: true)
            try Data("let a = 1\n".utf8).write(to: URL(fileURLWithPath: "\(root)/\(path)"))
        }
        #expect(
            try MutantSelection.files(root: root, modules: ["A"], files: ["Modules/C/C.swift"]) == [
                "Modules/A/A.swift", "Modules/A/Internal/B.swift", "Modules/C/C.swift",
            ])
        #expect(throws: MutationError("no module 'AA' (no folder Modules/AA); did you mean 'A'?")) {
            try MutantSelection.files(root: root, modules: ["AA"], files: [])
        }
        try Data().write(to: URL(fileURLWithPath: "\(root)/Package.swift"))
        #expect(
            throws: MutationError(
                "'Package.swift' is not shared code to mutate; pass a .swift file under Modules/ or Sockets/")
        ) {
            try MutantSelection.files(root: root, modules: [], files: ["Package.swift"])
        }
    }
}
