import Basics
import Composition
import Foundation

/// Validates every manifest in a directory against the catalog of the app it names, with the
/// same `ManifestValidator` that `AppHost` runs at launch.
public struct ManifestCheck: Sendable {
    /// The apps manifests may belong to.
    public let apps: [AppDefinition]
    /// Where the list of apps is kept, said in a message about an app the list does not have.
    public let registeredIn: String?

    /// Makes a check for these apps, registered in `registeredIn` (for messages).
    public init(apps: [AppDefinition], registeredIn: String? = nil) {
        self.apps = apps
        self.registeredIn = registeredIn
    }

    /// Every problem in the `*.json` files of `directory` (shown in messages as `displayDirectory`),
    /// plus an error for each app without a manifest there. Diagnostics are in file order.
    public func run(directory: String, displayDirectory: String) -> (
        checked: [String], diagnostics: [Diagnostic]
    ) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".json") }
            .sorted()
        var diagnostics: [Diagnostic] = []
        var checked: [String] = []
        var seenApps = Set<String>()
        for name in names {
            if name.hasSuffix(".json") { seenApps.insert(String(name.dropLast(5))) }
            let shown = displayDirectory.isEmpty ? name : "\(displayDirectory)/\(name)"
            checked.append(shown)
            let manifest: Manifest
            do {
                manifest = try Manifest.load(contentsOf: "\(directory)/\(name)", displayPath: shown)
            } catch {
                diagnostics += error.diagnostics
                continue
            }
            guard let app = apps.first(where: { $0.id == manifest.app }) else {
                let known = apps.map(\.id)
                let hint = Suggestion.didYouMean(manifest.app, in: known)
                let registry = registeredIn.map { "; apps are registered in \($0)" } ?? ""
                diagnostics.append(
                    Diagnostic(
                        at: manifest.appLocation, code: "unknown-app",
                        "manifest names unknown app '\(DiagnosticText.value(manifest.app))'\(hint) (apps: \(known.joined(separator: ", "))\(registry))"
                    ))
                continue
            }
            seenApps.insert(app.id)
            let expectedName = "\(app.id).json"
            if name != expectedName {
                diagnostics.append(
                    Diagnostic(
                        at: manifest.appLocation, code: "misnamed-manifest",
                        "the manifest of app '\(app.id)' must be named '\(expectedName)' (the build embeds that file)"
                    ))
            }
            diagnostics += ManifestValidator(catalog: app.catalog).validate(manifest, expectedApp: app.id)
        }
        for app in apps where !seenApps.contains(app.id) {
            let path = displayDirectory.isEmpty ? "\(app.id).json" : "\(displayDirectory)/\(app.id).json"
            diagnostics.append(
                Diagnostic(
                    at: SourceLocation(file: path, line: 1, column: 1), code: "missing-manifest",
                    "app '\(app.id)' has no manifest; create \(path)"))
        }
        diagnostics += unregisteredAppFolders(root: (directory as NSString).deletingLastPathComponent)
        // Catalog problems are reported once per declaration even when two apps share it.
        var unique: [Diagnostic] = []
        var seen = Set<Diagnostic>()
        for diagnostic in diagnostics where seen.insert(diagnostic).inserted { unique.append(diagnostic) }
        return (checked, unique)
    }

    /// An error for each folder under Apps/ that is not a registered app (no line in Package.swift's
    /// list), at the list's first line, so an app written by hand is not silently left out of
    /// every check. Nothing when the package has no Apps folder (a scratch package in a test).
    func unregisteredAppFolders(root: String) -> [Diagnostic] {
        guard let registeredIn,
            let folders = try? FileManager.default.contentsOfDirectory(atPath: "\(root)/Apps")
        else { return [] }
        let known = Set(apps.map(\.id))
        let package = (try? String(contentsOfFile: "\(root)/Package.swift", encoding: .utf8)) ?? ""
        let lines = package.split(separator: "\n", omittingEmptySubsequences: false)
        let listLine = (lines.firstIndex { $0.hasPrefix("let apps = [") } ?? 0) + 1
        return folders.sorted().compactMap { folder in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(root)/Apps/\(folder)", isDirectory: &isDirectory),
                isDirectory.boolValue, !folder.hasPrefix("."), !known.contains(folder.lowercased())
            else { return nil }
            return Diagnostic(
                at: SourceLocation(file: "Package.swift", line: listLine, column: 1),
                code: "unregistered-app",
                "Apps/\(folder) is not a registered app; add \"\(folder)\", to \(registeredIn)")
        }
    }
}
