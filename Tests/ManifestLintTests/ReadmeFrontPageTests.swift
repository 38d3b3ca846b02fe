import Foundation
import ManifestLintTesting
import Testing

/// README.md is the front page: short, and every doc it links to is there. The manual, the
/// figures and the suite's measurements live in DocC catalogs, which the README's table links to
/// by path.
@Suite struct ReadmeFrontPageTests {
    /// The most the front page may hold, in bytes (12 KiB).
    static let sizeLimit = 12_288

    static func readme() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(LintRun.packageRoot)/README.md"))
        return String(decoding: data, as: UTF8.self)
    }

    /// The targets of the README's Markdown links that are paths in the repository (not web
    /// addresses or anchors), without any `#anchor`, in the order they appear.
    static func linkedPaths(in text: String) -> [String] {
        text.matches(of: /\]\(([^)\s]+)\)/).compactMap { match in
            let target = String(match.output.1)
            guard !target.hasPrefix("#"), !target.contains("://"), !target.hasPrefix("mailto:") else {
                return nil
            }
            return String(target.split(separator: "#", maxSplits: 1)[0])
        }
    }

    @Test func readme_isAtMost12KiB() throws {
        let size = try Self.readme().utf8.count
        #expect(
            size <= Self.sizeLimit,
            "README.md is \(size) bytes, over the front page's \(Self.sizeLimit); move the detail into a DocC article (tools/Loom.docc for the whole project) and link it from the README's table"
        )
    }

    @Test func readmeLinks_pointToFilesThatExist() throws {
        let paths = Self.linkedPaths(in: try Self.readme())
        #expect(paths.count >= 10, "README.md links \(paths.count) docs; its table should link every catalog")
        let missing = paths.filter { !FileManager.default.fileExists(atPath: "\(LintRun.packageRoot)/\($0)") }
        #expect(
            missing == [],
            "README.md links files that do not exist: \(missing.joined(separator: ", ")); fix the path or the link"
        )
    }

    @Test func readme_linksEveryDocCCatalog() throws {
        let linked = Set(
            Self.linkedPaths(in: try Self.readme()).compactMap { path -> String? in
                guard let range = path.range(of: ".docc") else { return nil }
                return String(path[..<range.upperBound])
            })
        let unlinked = Self.catalogs().filter { !linked.contains($0) }
        #expect(
            unlinked == [],
            "README.md's table of docs links no article of \(unlinked.joined(separator: ", ")); add a row for each"
        )
    }

    /// Every DocC catalog in the repository, as a path from the package root, sorted.
    static func catalogs() -> [String] {
        let root = LintRun.packageRoot
        var found: [String] = []
        for folder in ["Modules", "Sockets", "tools"] {
            guard let walker = FileManager.default.enumerator(atPath: "\(root)/\(folder)") else { continue }
            while let path = walker.nextObject() as? String {
                if path.hasSuffix(".docc") {
                    found.append("\(folder)/\(path)")
                    walker.skipDescendants()
                }
            }
        }
        return found.sorted()
    }
}
