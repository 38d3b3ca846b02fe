import Composition
import Foundation

/// Finds imports of modules the apps must not load: Swift sources under the given directories
/// (Modules/, Sockets/ and Apps/, everything an app is built from) that import one.
///
/// FoundationNetworking is the one forbidden today: it links libcurl and with it some thirty
/// shared objects (GnuTLS, Kerberos, LDAP, nghttp2, ...) that every launch of an app would load,
/// most of the launch's time (AppRuntime's "Whole-process launch"). `HTTPTransport` has an HTTP
/// client of its own instead. Tests and tools may still import it.
public struct ForbiddenImportCheck: Sendable {
    /// Each forbidden module, with why it is forbidden and what to use instead.
    public let forbidden: [String: String]

    /// The modules forbidden in the apps' sources.
    public static let appModules: [String: String] = [
        "FoundationNetworking":
            "it links libcurl and some thirty shared objects into every launch; use HTTPClient's HTTPTransport"
    ]

    /// Makes a check for `forbidden` modules, each with its reason.
    public init(forbidden: [String: String] = Self.appModules) { self.forbidden = forbidden }

    /// Every forbidden import in the `.swift` files under `directories` (relative to `root`).
    public func run(root: String, directories: [String]) -> [Diagnostic] {
        SwiftSources.read(root: root, directories: directories).flatMap {
            check(source: $0.text, file: $0.file)
        }
    }

    /// Every forbidden import in one source text (comments are not read).
    public func check(source: String, file: String) -> [Diagnostic] {
        let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        let words = SwiftWords.words(in: source)
        var diagnostics: [Diagnostic] = []
        for (index, word) in words.enumerated() where word.text == "import" {
            var next = index + 1
            if next < words.count, kinds.contains(words[next].text) { next += 1 }
            guard next < words.count, words[next].line == word.line,
                let reason = forbidden[words[next].text]
            else { continue }
            diagnostics.append(
                Diagnostic(
                    at: SourceLocation(file: file, line: word.line, column: word.column),
                    code: "forbidden-import", "'\(words[next].text)' must not be imported here: \(reason)"))
        }
        return diagnostics
    }
}
