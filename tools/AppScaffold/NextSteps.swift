import Foundation

/// What `new-app` prints once the app is written: each file it wrote, then what to do next, with
/// the commands to type and the provider file of each socket the copy fills as its model does.
struct NextSteps {
    /// The new app.
    let app: AppName
    /// The app it was copied from.
    let model: AppName
    /// The files written, relative to the package root (without Package.swift).
    let files: [String]
    /// The summary of each socket the package defines, by socket name (`branding`).
    let socketSummaries: [String: String]
    /// The file that declares each socket, relative to the package root (`Sockets/Direct.swift`).
    var socketFiles: [String: String] = [:]

    /// The text, ending with a newline.
    var text: String {
        var lines = [
            "new-app: wrote \(app), a copy of \(model) "
                + "(\(model) → \(app), \(model.lowercased) → \(app.lowercased), "
                + "\(model.uppercased) → \(app.uppercased)):"
        ]
        lines += files.map { "  \($0)" }
        lines.append("  Package.swift: added \"\(app)\" to the list of apps")
        lines += [
            "",
            "Next:",
            "  1. Build and run it (so far it is \(model) under a new name):",
            "       swift build",
            "       swift run \(app.lowercased)",
            "       swift run \(app.lowercased) --headless",
            "  2. Check the manifests; the socket matrix has a column for \(app.lowercased):",
            "       swift run manifest-lint",
            "       swift run manifest-lint matrix",
            "  3. Make it \(app): each socket is filled as \(model) fills it; edit the providers that should"
                + " differ:",
        ]
        lines += providers.map { provider in
            "       \(provider.socket) (\(provider.path))"
                + (socketSummaries[provider.socket].map { ": \($0)" } ?? "")
        }
        // The sockets the model leaves to their defaults (or empty): a feature the new app may
        // want is one of these, and nothing else would point to it.
        let filled = Set(providers.map(\.socket))
        let unfilled = socketSummaries.keys.filter { !filled.contains($0) }.sorted()
        if !unfilled.isEmpty {
            lines.append(
                "     \(model) leaves these to their defaults; \(app) may fill them (a provider in Providers/, "
                    + "a line in \(app).swift and in its manifest):")
            lines += unfilled.map { socket in
                "       \(socket)" + (socketFiles[socket].map { " (\($0))" } ?? "")
                    + (socketSummaries[socket].map { ": \($0)" } ?? "")
            }
        }
        lines += [
            "     Manifests/\(app.lowercased).json binds each socket to its provider.",
            "  4. Record the cross-app suite's goldens with \(app.lowercased) in them, and review them:",
            "       LOOM_RECORD_GOLDEN=1 swift test --filter CrossAppRegressionTests",
            "       git status --short Tests/CrossAppRegressionTests/Golden",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The provider files written (`Apps/Quill/QuillApp/Providers/QuillBranding.swift`), each with
    /// the socket its name says it fills (`branding`), sorted by socket.
    var providers: [(socket: String, path: String)] {
        let folder = "Apps/\(app)/\(app.library)/Providers/"
        return files.compactMap { path -> (socket: String, path: String)? in
            guard path.hasPrefix(folder), path.hasSuffix(".swift") else { return nil }
            let stem = path.dropFirst(folder.count).dropLast(".swift".count)
            guard !stem.contains("/"), stem.hasPrefix(app.name), stem.count > app.name.count else {
                return nil
            }
            let type = stem.dropFirst(app.name.count)
            return (type.prefix(1).lowercased() + type.dropFirst(), path)
        }
        .sorted { $0.socket < $1.socket }
    }

    /// Each socket's summary, read from the text of the Swift files in `root`'s Sockets folder: the
    /// string after `summary:` that follows the socket's name in its declaration
    /// (`Socket<any Branding>.required("branding", summary: "…")`).
    static func socketSummaries(root: String) -> [String: String] {
        socketDeclarations(root: root).mapValues(\.summary)
    }

    /// The file that declares each socket (`Sockets/Direct.swift`), read as `socketSummaries`.
    static func socketFiles(root: String) -> [String: String] {
        socketDeclarations(root: root).mapValues(\.file)
    }

    /// Each socket's summary and the file declaring it, by socket name.
    private static func socketDeclarations(root: String) -> [String: (summary: String, file: String)] {
        let folder = "\(root)/Sockets"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var declarations: [String: (summary: String, file: String)] = [:]
        for name in names.sorted() where name.hasSuffix(".swift") {
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)") else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for match in text.matches(of: #/"(\w+)",\s*summary:\s*"((?:[^"\\]|\\.)*)"/#) {
                declarations[String(match.output.1)] = (String(match.output.2), "Sockets/\(name)")
            }
        }
        return declarations
    }
}
