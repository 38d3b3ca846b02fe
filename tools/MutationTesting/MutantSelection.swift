import Basics
import Foundation

/// Which files mutation testing may touch, and which of their mutants a run plants.
public enum MutantSelection {
    /// The Swift files of the shared code to mutate, relative to `root`, sorted: every file of
    /// each module in `modules` (`Modules/<name>/`, or `Sockets/` for `Sockets`) and each of
    /// `files`; all of Modules/ and Sockets/ when both are empty. Package.swift, test code and
    /// DocC catalogs are never included.
    ///
    /// - Throws: ``MutationError`` naming a module or file that does not exist or is not shared
    ///   code.
    public static func files(root: String, modules: [String], files: [String]) throws(MutationError)
        -> [String]
    {
        let fileManager = FileManager.default
        var directories: [String] = []
        for module in modules {
            let directory = module == "Sockets" ? "Sockets" : "Modules/\(module)"
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: "\(root)/\(directory)", isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                let known = (try? fileManager.contentsOfDirectory(atPath: "\(root)/Modules")) ?? []
                throw MutationError(
                    "no module '\(module)' (no folder \(directory))\(Suggestion.didYouMean(module, in: known + ["Sockets"]))"
                )
            }
            directories.append(directory)
        }
        if modules.isEmpty && files.isEmpty { directories = ["Modules", "Sockets"] }
        var found: Set<String> = []
        for directory in directories {
            guard let walker = fileManager.enumerator(atPath: "\(root)/\(directory)") else { continue }
            while let relative = walker.nextObject() as? String {
                let path = "\(directory)/\(relative)"
                if mutable(path) { found.insert(path) }
            }
        }
        for file in files {
            let path = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
            guard fileManager.fileExists(atPath: "\(root)/\(path)") else {
                throw MutationError("no file '\(file)' in \(root)")
            }
            guard mutable(path) else {
                throw MutationError(
                    "'\(file)' is not shared code to mutate; pass a .swift file under Modules/ or Sockets/")
            }
            found.insert(path)
        }
        return found.sorted()
    }

    /// Whether `path` (relative to the package root) is shared Swift code a mutant may go into.
    public static func mutable(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard let first = parts.first, first == "Modules" || first == "Sockets", path.hasSuffix(".swift")
        else {
            return false
        }
        return !parts.contains { $0.hasSuffix(".docc") || $0 == "Tests" || $0 == "Package.swift" }
    }

    /// `size` mutants drawn from `all` by `seed` (all of them when `size` is nil or larger), in
    /// file and line order. The same seed and the same candidates give the same sample.
    ///
    /// Complexity: O(n log n) in the number of candidates.
    public static func sample(_ all: [Mutant], size: Int?, seed: UInt64) -> [Mutant] {
        var mutants = all.sorted(by: order)
        var random = SplitMix64(seed: seed)
        // Fisher–Yates with SplitMix64's raw bits, so the draw does not depend on the standard
        // library's random algorithms.
        if mutants.count > 1 {
            for index in stride(from: mutants.count - 1, to: 0, by: -1) {
                let other = Int(random.next() % UInt64(index + 1))
                mutants.swapAt(index, other)
            }
        }
        return Array(mutants.prefix(size ?? mutants.count)).sorted(by: order)
    }

    private static func order(_ a: Mutant, _ b: Mutant) -> Bool {
        (a.file, a.start, a.end, a.replacement) < (b.file, b.start, b.end, b.replacement)
    }
}
