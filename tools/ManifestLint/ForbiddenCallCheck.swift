import Composition
import Foundation

/// Finds calls the project's sources must not make: a type from the list made with `(`, in code
/// (comments and string literals are not read).
///
/// Foundation's `Process` is the one forbidden today. On Swift 6.3.1, `Process.run()` reads each
/// `/proc/self/fd` entry's whole 256-byte name past the end of glibc's buffer
/// (swift-corelibs-foundation#5472): in a process with many descriptors open, such as a whole
/// `swift test`, about one run in five crashed with signal 11. CommandLineKit's `Subprocess`
/// spawns with `posix_spawn` instead, and every test, tool and app uses it.
public struct ForbiddenCallCheck: Sendable {
    /// Each forbidden type, with why and what to use instead.
    public let forbidden: [String: String]

    /// The types forbidden everywhere in the package.
    public static let everywhere: [String: String] = [
        "Process":
            "Foundation's Process.run() can crash a process with many open descriptors on Linux "
            + "(swift-corelibs-foundation#5472); use CommandLineKit's Subprocess"
    ]

    /// Makes a check for `forbidden` types, each with its reason.
    public init(forbidden: [String: String] = Self.everywhere) { self.forbidden = forbidden }

    /// Every forbidden call in the `.swift` files under `directories` (relative to `root`).
    public func run(root: String, directories: [String]) -> [Diagnostic] {
        SwiftSources.read(root: root, directories: directories).flatMap {
            check(source: $0.text, file: $0.file)
        }
    }

    /// Every forbidden call in one source text: the type's name as a word of code followed by
    /// `(`, spaces between allowed (`Process()`, `Foundation.Process ()`).
    public func check(source: String, file: String) -> [Diagnostic] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        var diagnostics: [Diagnostic] = []
        for word in SwiftWords.words(in: source) where !word.inString {
            guard let reason = forbidden[word.text], word.line <= lines.count else { continue }
            let rest = lines[word.line - 1].dropFirst(word.column - 1 + word.text.utf8.count)
            guard rest.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "(") else { continue }
            diagnostics.append(
                Diagnostic(
                    at: SourceLocation(file: file, line: word.line, column: word.column),
                    code: "forbidden-call", "'\(word.text)(' must not be called here: \(reason)"))
        }
        return diagnostics
    }
}
