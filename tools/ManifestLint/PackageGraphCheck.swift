import CommandLineKit
import Composition
import Foundation

/// Checks the package's target graph (from `swift package dump-package`) against the design's
/// dependency rules: modules never depend on apps, an app never depends on another app, and
/// each shared module depends only on the modules beneath it.
public struct PackageGraphCheck: Sendable {
    /// A target as the check sees it.
    public struct Target: Sendable, Hashable {
        /// What kind of target it is (`swift package dump-package`'s `type`).
        public enum Kind: String, Sendable, Hashable {
            /// A library target: Swift, or C when it has no Swift sources.
            case regular
            /// An executable target (a tool or an app's launcher).
            case executable
            /// A test target.
            case test
            /// A system-library target: a module map over a library of the system.
            case system
            /// A build-tool or command plugin.
            case plugin
            /// A macro target.
            case macro
            /// A prebuilt binary target.
            case binary
        }

        /// The target's name.
        public var name: String
        /// Its folder, relative to the package root.
        public var path: String
        /// The names of the targets it depends on.
        public var dependencies: [String]
        /// What kind of target it is.
        public var kind: Kind
        /// Paths under ``path`` that are not compiled: its `exclude` list and its resources.
        public var excluded: [String]
        /// The build-tool plugins it uses.
        public var plugins: [String]

        /// Makes a target.
        public init(
            name: String, path: String, dependencies: [String], kind: Kind = .regular,
            excluded: [String] = [], plugins: [String] = []
        ) {
            self.name = name
            self.path = path
            self.dependencies = dependencies
            self.kind = kind
            self.excluded = excluded
            self.plugins = plugins
        }
    }

    /// Which of our modules each shared module may depend on (the README's "Dependency rules").
    /// Basics (small pure helpers) is the leaf every module may use; Composition is the base every
    /// module above the lowest layer may use to declare services.
    public static let allowedDependencies: [String: Set<String>] = [
        "CSQLite": [],
        "COpenSSL": [],
        "CLinuxEvents": [],
        "Basics": [],
        "Composition": ["Basics"],
        "CommandLineKit": ["Basics"],
        "MediaModel": ["Basics"],
        "Storage": ["Basics", "CSQLite", "Composition"],
        "CLibPQ": [],
        // PostgreSQL behind Storage's calls: linked by backend-server, the bench and the tests; no
        // app module lists it, so no app links libpq.
        "PostgresStorage": ["Basics", "CLibPQ", "Storage", "CommandLineKit"],
        "Wire": ["Basics"],
        "CJPEG": [],
        "CPNG": [],
        "CImageCodecs": ["CJPEG", "CPNG"],
        "Imaging": ["CImageCodecs", "MediaModel"],
        "ListEngine": ["Basics"],
        "Sockets": ["Basics", "Composition", "MediaModel"],
        "Backend": ["Basics", "COpenSSL", "Composition", "Wire", "MediaModel", "Storage", "Imaging"],
        // The API's interface: no sockets, no TLS, so what builds on it runs on any transport.
        "ServerAPI": ["Basics", "Composition", "Wire", "MediaModel"],
        // The live client; only the composition (Networking, AppRuntime) may link it.
        "HTTPClient": ["COpenSSL", "Composition", "Wire"],
        "FeedCaching": ["Basics", "Composition", "Wire", "MediaModel", "Storage", "ServerAPI"],
        "Mutations": ["Basics", "Composition", "Wire", "MediaModel", "Storage", "ServerAPI", "FeedCaching"],
        "Networking": [
            "Basics", "Composition", "Storage", "ServerAPI", "HTTPClient", "FeedCaching", "Mutations",
        ],
        "HTTPServer": ["Basics", "Wire", "CLinuxEvents"],
        "TerminalUI": ["Basics", "ListEngine", "CommandLineKit"],
        "Features": [
            "Basics", "Composition", "Sockets", "MediaModel", "Storage", "Wire", "ServerAPI", "FeedCaching",
            "Mutations", "ListEngine", "TerminalUI", "Imaging",
        ],
        // A feature of its own: it builds on the shared screens (Features), never the reverse.
        "DirectMessages": [
            "Basics", "Composition", "Sockets", "MediaModel", "Wire", "ServerAPI", "Mutations", "TerminalUI",
            "Features",
        ],
        "AppRuntime": [
            "Basics", "Composition", "CommandLineKit", "Sockets", "MediaModel", "Storage", "Wire",
            "ServerAPI", "HTTPClient", "FeedCaching", "Mutations", "Networking", "ListEngine", "TerminalUI",
            "Features", "Backend", "DirectMessages",
        ],
    ]

    /// The package's targets.
    public let targets: [Target]

    /// Makes a check over explicit targets.
    public init(targets: [Target]) {
        self.targets = targets
    }

    /// Reads targets from the JSON `swift package dump-package` prints.
    public init(dumpPackageJSON data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["targets"] as? [[String: Any]]
        else {
            throw LintError("the package description has no 'targets' list")
        }
        targets = list.compactMap { entry in
            guard let name = entry["name"] as? String else { return nil }
            let type = entry["type"] as? String ?? "regular"
            let defaultFolder = type == "test" ? "Tests" : type == "plugin" ? "Plugins" : "Sources"
            let path = entry["path"] as? String ?? "\(defaultFolder)/\(name)"
            let dependencies = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                for key in ["byName", "target"] {
                    if let values = dependency[key] as? [Any], let first = values.first as? String {
                        return first
                    }
                }
                return nil
            }
            let resources = (entry["resources"] as? [[String: Any]] ?? []).compactMap {
                $0["path"] as? String
            }
            let plugins = (entry["pluginUsages"] as? [[String: Any]] ?? []).compactMap { usage in
                (usage["plugin"] as? [Any])?.first as? String
            }
            return Target(
                name: name, path: path, dependencies: dependencies,
                kind: Target.Kind(rawValue: type) ?? .regular,
                excluded: (entry["exclude"] as? [String] ?? []) + resources, plugins: plugins)
        }
    }

    /// Runs `swift package dump-package` in `packageDirectory` and reads its targets. (Spawned
    /// with `Subprocess`, not Foundation's `Process`, which can crash a process that has many
    /// descriptors open, as a test run does.)
    public static func dumpingPackage(at packageDirectory: String) throws -> PackageGraphCheck {
        // A scratch path of its own, so the dump never waits on a build of the same package (a
        // running `swift build` or `swift test` holds the lock of .build/).
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "manifest-lint-dump-package"
        ).path
        let result = try Subprocess.run(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path", packageDirectory, "--scratch-path", scratch,
                "dump-package",
            ])
        guard result.status == 0 else {
            throw LintError(
                "`swift package dump-package` failed (status \(result.status)): \(result.errorText)")
        }
        return try PackageGraphCheck(dumpPackageJSON: result.output)
    }

    /// The app a target belongs to (`Apps/<App>/...`), if any.
    static func app(of target: Target) -> String? {
        let parts = target.path.split(separator: "/")
        return parts.count >= 2 && parts[0] == "Apps" ? String(parts[1]) : nil
    }

    /// Whether a target is shared code (under Modules/ or Sockets/).
    static func isShared(_ target: Target) -> Bool {
        target.path.hasPrefix("Modules/") || target.path == "Sockets" || target.path.hasPrefix("Sockets/")
    }

    /// Every violation, reported against `Package.swift`.
    public func run(packageFile: String = "Package.swift") -> [Diagnostic] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let location = SourceLocation(file: packageFile, line: 1, column: 1)
        var diagnostics: [Diagnostic] = []
        for target in targets {
            for dependencyName in target.dependencies {
                guard let dependency = byName[dependencyName] else { continue }
                let dependencyApp = Self.app(of: dependency)
                if Self.isShared(target), let dependencyApp {
                    diagnostics.append(
                        Diagnostic(
                            at: location, code: "module-depends-on-app",
                            "shared target '\(target.name)' (\(target.path)) depends on '\(dependency.name)' of app '\(dependencyApp)'; shared code must ask a socket instead"
                        ))
                }
                if let app = Self.app(of: target), let dependencyApp, app != dependencyApp {
                    diagnostics.append(
                        Diagnostic(
                            at: location, code: "app-depends-on-app",
                            "target '\(target.name)' of app '\(app)' depends on '\(dependency.name)' of app '\(dependencyApp)'; an app never imports another"
                        ))
                }
                if Self.isShared(target), Self.isShared(dependency),
                    let allowed = Self.allowedDependencies[target.name], !allowed.contains(dependency.name)
                {
                    let list = allowed.isEmpty ? "no other module" : allowed.sorted().joined(separator: ", ")
                    diagnostics.append(
                        Diagnostic(
                            at: location, code: "layering",
                            "module '\(target.name)' depends on '\(dependency.name)', but it may only use \(list) (the dependency rules: PackageGraphCheck.allowedDependencies, and the README)"
                        ))
                }
            }
            if Self.isShared(target), Self.allowedDependencies[target.name] == nil {
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "unlisted-module",
                        "module '\(target.name)' has no dependency rule; add it to PackageGraphCheck.allowedDependencies"
                    ))
            }
        }
        return diagnostics
    }
}

/// A problem running the lint itself (not a finding about the code).
public struct LintError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
