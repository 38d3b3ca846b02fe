import Foundation
import Testing

@testable import AppScaffold

@Suite struct StagedWriteTests {
    struct InjectedFailure: Error, CustomStringConvertible {
        var description: String { "injected" }
    }

    /// A mover that fails on the `failing`-th move (0-based) and renames the others.
    func mover(failingAt failing: Int) -> StagedWrite.Move {
        let count = Counter()
        return { source, destination, replacing in
            if count.next() == failing { throw InjectedFailure() }
            try StagedWrite.rename(source, destination, replacing)
        }
    }

    final class Counter {
        private var value = 0
        func next() -> Int {
            defer { value += 1 }
            return value
        }
    }

    @Test(arguments: [0, 1, 2])
    func aMoveThatFails_leavesThePackageAsItWas(failing: Int) throws {
        // The moves: Apps/Quill, then Manifests/quill.json, then Package.swift.
        let package = try ScratchPackage()
        let before = try package.snapshot()

        #expect(
            throws: ScaffoldRefusal(
                "cannot move the new app into place: injected; nothing was written")
        ) {
            try NewAppCommand.scaffold(
                name: "Quill", like: "tundra", root: package.root, move: mover(failingAt: failing))
        }
        #expect(try package.snapshot() == before)
    }

    @Test func theMoves_placeTheAppsFolderThenItsManifestThenPackageSwift() throws {
        let package = try ScratchPackage()
        let moves = MoveLog()

        _ = try NewAppCommand.scaffold(name: "Quill", like: "tundra", root: package.root) {
            source, destination, replacing in
            moves.append(String(destination.dropFirst(package.root.count + 1)), replacing)
            try StagedWrite.rename(source, destination, replacing)
        }

        #expect(
            moves.entries == ["Apps/Quill (new)", "Manifests/quill.json (new)", "Package.swift (replaced)"])
    }

    final class MoveLog {
        private(set) var entries: [String] = []
        func append(_ path: String, _ replacing: Bool) {
            entries.append("\(path) (\(replacing ? "replaced" : "new"))")
        }
    }
}
