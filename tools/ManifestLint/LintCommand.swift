import Basics
import CommandLineKit
import Composition
import Foundation

/// The `manifest-lint` command: validates the manifests, the package graph and shared sources,
/// and prints the socket matrix or an app's service graph.
public enum LintCommand {
    /// The command line `manifest-lint` accepts.
    public static let spec = CommandLineSpec(
        command: "manifest-lint",
        summary: """
            Validates Manifests/*.json against each app's catalog (the same validator the apps run at
            launch) and each app's composer against the backend's limits, checks the package graph (no shared module depends on an app, no app on another,
            modules only on the layers beneath them), that every target imports exactly the package
            targets it declares (an undeclared import or an unused dependency is an error), that no
            source under Modules/ or Sockets/ names an app, that nothing an app is built from
            (Modules/, Sockets/, Apps/) imports FoundationNetworking, and that no source spawns
            with Foundation's Process (it can crash on Linux; CommandLineKit's Subprocess instead).
            """,
        usage: "[check|matrix|graph] [options]",
        options: [
            .value(
                "format", "FORMAT", help: "output format: text or json for check, text or dot for graph",
                choices: ["text", "json", "dot"]),
            .value("app", "NAME", help: "the app whose service graph `graph` prints"),
            .value(
                "package-dir", "DIR",
                help: "the package root (default: the nearest directory with Package.swift)"),
            .value(
                "package-json", "FILE",
                help: "read the package graph from this `swift package dump-package` output"),
            .flag(
                "skip-package-graph",
                help: "do not check the package graph nor the imports (no `swift` needed)"),
            .version(),
        ],
        maximumPositionals: 1,
        epilogue: """
            subcommands:
              check    (default) validate everything; compiler-style diagnostics or --format json
              matrix   each socket, required or optional, and the provider filling it in each app
              graph    --app NAME [--format text|dot]: an app's service graph

            exit status: 0 clean, 1 when problems were found, 2 on a usage error.
            """)

    /// Runs the command for `apps`, which are registered in `registeredIn` (said in messages about
    /// an app the list does not have). Returns the exit status.
    public static func run(
        arguments: [String], apps: [AppDefinition], registeredIn: String? = nil,
        output: any TextOutput = StandardTextOutput(),
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Int32 {
        let check = ManifestCheck(apps: apps, registeredIn: registeredIn)
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            output.writeError("\(error)\n")
            return 2
        }
        if parsed.helpRequested {
            output.write(spec.helpText + "\n")
            return 0
        }
        if parsed.versionRequested {
            output.write(ToolVersion.line(for: spec.command) + "\n")
            return 0
        }
        let subcommand = parsed.positionals.first ?? "check"
        let format = parsed.value("format") ?? "text"
        func usage(_ message: String) -> Int32 {
            output.writeError("\(UsageError(command: spec.command, message))\n")
            return 2
        }
        guard let root = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory) else {
            if let given = parsed.value("package-dir") {
                return usage(
                    "no Package.swift in '\(given)' (given with --package-dir); pass the package's root")
            }
            return usage("no Package.swift found in '\(currentDirectory)' or its parents; pass --package-dir")
        }
        switch subcommand {
        case "check":
            guard format != "dot" else { return usage("--format dot applies to `graph` only") }
            guard parsed.value("app") == nil else { return usage("--app applies to `graph` only") }
            return self.check(parsed, root: root, check: check, json: format == "json", output: output)
        case "matrix":
            guard format == "text" else { return usage("`matrix` prints text only") }
            return matrix(root: root, check: check, output: output)
        case "graph":
            guard format != "json" else { return usage("`graph` prints text or dot") }
            guard let name = parsed.value("app") else {
                return usage("`graph` needs --app NAME (apps: \(apps.map(\.id).joined(separator: ", ")))")
            }
            return graph(app: name, root: root, check: check, dot: format == "dot", output: output)
        default:
            return usage(
                "unknown subcommand '\(subcommand)'\(Suggestion.didYouMean(subcommand, in: ["check", "matrix", "graph"]))"
            )
        }
    }

    private static func check(
        _ parsed: ParsedArguments, root: String, check: ManifestCheck, json: Bool, output: any TextOutput
    ) -> Int32 {
        let apps = check.apps
        var (checked, diagnostics) = check.run(
            directory: "\(root)/Manifests", displayDirectory: "Manifests")
        diagnostics += composerLimits(root: root, apps: apps)
        if !parsed.has("skip-package-graph") {
            do {
                let graph: PackageGraphCheck
                if let file = parsed.value("package-json") {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        output.writeError("manifest-lint: error: cannot read '\(file)'\n")
                        return 2
                    }
                    graph = try PackageGraphCheck(dumpPackageJSON: data)
                } else {
                    graph = try PackageGraphCheck.dumpingPackage(at: root)
                }
                diagnostics += graph.run()
                diagnostics += graph.dependencyDiagnostics(root: root)
                checked.append("Package.swift")
                checked.append("each target's imports")
            } catch {
                output.writeError("manifest-lint: error: cannot read the package graph: \(error)\n")
                return 1
            }
        }
        let names = apps.map { app -> (app: String, names: [String]) in
            let displayName = (try? app.manifest.decode().displayName) ?? app.id
            return (app.id, SharedSourceCheck.names(of: app, displayName: displayName))
        }
        diagnostics += SharedSourceCheck(appNames: names).run(
            root: root, directories: ["Modules", "Sockets"])
        checked.append("Modules/**/*.swift")
        checked.append("Sockets/**/*.swift")
        diagnostics += ForbiddenImportCheck().run(root: root, directories: ["Modules", "Sockets", "Apps"])
        checked.append("Apps/**/*.swift")
        diagnostics += ForbiddenCallCheck().run(
            root: root, directories: ["Modules", "Sockets", "Apps", "Tests", "tools"])
        checked.append("Tests/**/*.swift")
        checked.append("tools/**/*.swift")
        let errors = diagnostics.filter { $0.severity == .error }.count
        if json {
            output.write(jsonReport(checked: checked, diagnostics: diagnostics) + "\n")
        } else {
            for diagnostic in diagnostics { output.write("\(diagnostic)\n") }
            let summary =
                errors == 0
                ? "no problems" : "\(errors) error\(errors == 1 ? "" : "s")"
            output.write("manifest-lint: checked \(checked.joined(separator: ", ")): \(summary)\n")
        }
        return errors == 0 ? 0 : 1
    }

    /// Each app's composer, composed from its manifest on disk, against the backend's limits.
    private static func composerLimits(root: String, apps: [AppDefinition]) -> [Diagnostic] {
        apps.flatMap { app -> [Diagnostic] in
            let shown = "Manifests/\(app.id).json"
            guard let data = FileManager.default.contents(atPath: "\(root)/\(shown)"),
                let contents = String(data: data, encoding: .utf8),
                let manifest = try? Manifest.parse(Array(data), file: shown)
            else { return [] }
            return ComposerLimitCheck().run(app: app, manifest: manifest, contents: contents)
        }
    }

    static func jsonReport(checked: [String], diagnostics: [Diagnostic]) -> String {
        let items: [[String: Any]] = diagnostics.map { diagnostic in
            [
                "file": diagnostic.location.file, "line": diagnostic.location.line,
                "column": diagnostic.location.column, "severity": diagnostic.severity.rawValue,
                "code": diagnostic.code, "message": diagnostic.message,
            ]
        }
        let object: [String: Any] = [
            "checked": checked, "diagnostics": items,
            "errors": diagnostics.filter { $0.severity == .error }.count,
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Each app's manifest that could be read (valid or not), with every problem written to
    /// standard error; `failed` when any manifest has an error.
    private static func loadManifests(
        root: String, apps: [AppDefinition], output: any TextOutput
    ) -> (loaded: [(definition: AppDefinition, manifest: Manifest)], failed: Bool) {
        var loaded: [(definition: AppDefinition, manifest: Manifest)] = []
        var failed = false
        for app in apps {
            let shown = "Manifests/\(app.id).json"
            do {
                let manifest = try Manifest.load(contentsOf: "\(root)/\(shown)", displayPath: shown)
                let problems = ManifestValidator(catalog: app.catalog).validate(manifest, expectedApp: app.id)
                if problems.containsErrors {
                    for problem in problems { output.writeError("\(problem)\n") }
                    failed = true
                }
                loaded.append((app, manifest))
            } catch {
                for problem in error.diagnostics { output.writeError("\(problem)\n") }
                failed = true
            }
        }
        return (loaded, failed)
    }

    /// The table is printed even when a manifest has errors (they go to standard error, and the
    /// status is 1): it shows what each manifest binds, which is what one fixes an error with. A
    /// manifest that cannot be read at all has no column, and says why on standard error; so does
    /// a manifest or an Apps/ folder of an app the package does not register.
    private static func matrix(root: String, check: ManifestCheck, output: any TextOutput) -> Int32 {
        let (loaded, failed) = loadManifests(root: root, apps: check.apps, output: output)
        let unregistered = unregisteredApps(root: root, check: check)
        for problem in unregistered { output.writeError("\(problem)\n") }
        if !loaded.isEmpty { output.write(SocketMatrix(apps: loaded).text) }
        return failed || !unregistered.isEmpty ? 1 : 0
    }

    /// The manifests that name an app the package does not register, and the Apps/ folders that
    /// are not registered apps: `matrix` and `graph` say so instead of leaving a column out.
    private static func unregisteredApps(root: String, check: ManifestCheck) -> [Diagnostic] {
        check.run(directory: "\(root)/Manifests", displayDirectory: "Manifests").diagnostics.filter {
            $0.code == "unknown-app" || $0.code == "unregistered-app"
        }
    }

    private static func graph(
        app name: String, root: String, check: ManifestCheck, dot: Bool, output: any TextOutput
    ) -> Int32 {
        let apps = check.apps
        guard let app = apps.first(where: { $0.id == name }) else {
            let registry = check.registeredIn.map { "; apps are registered in \($0)" } ?? ""
            output.writeError(
                "\(UsageError(command: spec.command, "unknown app '\(name)'\(Suggestion.didYouMean(name, in: apps.map(\.id))) (apps: \(apps.map(\.id).joined(separator: ", "))\(registry))"))\n"
            )
            return 2
        }
        let (loaded, failed) = loadManifests(root: root, apps: [app], output: output)
        guard !failed, let manifest = loaded.first?.manifest else { return 1 }
        do {
            let report = ServiceGraphReport(
                app: app.id, graph: try ServiceGraph(catalog: app.catalog, manifest: manifest))
            output.write(dot ? report.dot : report.text)
            return 0
        } catch {
            output.writeError("manifest-lint: error: \(error)\n")
            return 1
        }
    }
}
