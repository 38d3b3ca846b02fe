import Composition
import Foundation

/// Dependency truth: each target imports exactly the package targets it declares.
///
/// The rules (ManifestLint.md's "Imports and dependencies" has them with their reasons):
/// - A Swift target's imports are its sources' `import` declarations (any attributes, access level
///   or kind) and `canImport(M)` conditions, outside comments and string literals, in every
///   `.swift` file under its path except its `exclude`d and resource paths. Only modules of
///   package targets count (`backend-server`'s module is `backend_server`); toolchain modules
///   (Foundation, Synchronization, Testing, Glibc, PackagePlugin, ...) are not targets.
/// - An import of a package target that the target does not declare is an error at the first
///   importing line; a declared dependency that no source imports is an error at its line in
///   Package.swift.
/// - A target that uses a build-tool plugin is credited with the imports of the code the plugin
///   generates (``generatedImports``, and for AppIndex every app library the target depends on:
///   the list of apps it writes imports each); a plugin's own dependencies are the tools it runs
///   and are not checked.
/// - A dependency on an executable target need not be imported: it makes SwiftPM build the
///   executable first, for the tests that run it.
/// - A C target (no Swift sources) uses a dependency when one of its sources includes one of the
///   dependency's headers: for a system library, the headers its module map names or, for a shim,
///   the headers the shim includes (the C standard library's left out); for a C target, the
///   headers in its `include` folder. Its link flags are its own `linkerSettings`: a C target does not autolink
///   what its system libraries name, so a Swift target that declares a system library only to
///   link it for a C target is reported as not using it.
/// - System-library and binary targets have no sources to check.
extension PackageGraphCheck {
    /// The modules the code each build-tool plugin generates imports. ManifestEmbedder's
    /// `BundledManifest.swift` holds an `EmbeddedManifest`, from Composition.
    /// AppIndex's `AllAppsDefinitions.swift` lists `AppDefinition`s, from Composition, and
    /// imports the app libraries too (``pluginsImportingApps``).
    public static let generatedImports: [String: Set<String>] = [
        "ManifestEmbedder": ["Composition"], "AppIndex": ["Composition"],
    ]

    /// The plugins whose generated code imports each app library (a target under Apps/) that the
    /// target using them depends on.
    public static let pluginsImportingApps: Set<String> = ["AppIndex"]

    /// The module a target's sources are imported as: its name with each character that cannot be in
    /// an identifier replaced by `_` (`backend-server` is `backend_server`).
    public static func moduleName(of targetName: String) -> String {
        var name = String(
            targetName.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    /// Every mismatch between what each target imports and what it declares, reading the sources
    /// under `root` and, for the lines of declarations, `root/packageFile`. Undeclared imports come
    /// first for each target, then unused dependencies, both in source order.
    public func dependencyDiagnostics(root: String, packageFile: String = "Package.swift") -> [Diagnostic] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let byModule = Dictionary(
            targets.filter { $0.kind != .plugin }.map { (Self.moduleName(of: $0.name), $0) },
            uniquingKeysWith: { first, _ in first })
        let packageText = FileManager.default.contents(atPath: "\(root)/\(packageFile)").map {
            String(decoding: $0, as: UTF8.self)
        }
        let declarations = PackageDeclarations(text: packageText ?? "", targetNames: targets.map(\.name))
        var diagnostics: [Diagnostic] = []
        for target in targets where [.regular, .executable, .test, .macro].contains(target.kind) {
            let files = sourceFiles(of: target, root: root)
            let swiftFiles = files.filter { $0.hasSuffix(".swift") }
            let used: Set<String>
            if swiftFiles.isEmpty {
                used = includedDependencies(of: target, files: files, root: root, byName: byName)
            } else {
                let imports = importedTargets(of: target, files: swiftFiles, root: root, byModule: byModule)
                used = Set(imports.map(\.target))
                for imported in imports where !target.dependencies.contains(imported.target) {
                    if let plugin = imported.plugin {
                        let position =
                            declarations.position(ofDependency: plugin, of: target.name)
                            ?? PackageDeclarations.Position(line: 1, column: 1)
                        diagnostics.append(
                            Diagnostic(
                                at: SourceLocation(
                                    file: packageFile, line: position.line, column: position.column),
                                code: "undeclared-import",
                                "target '\(target.name)' uses plugin '\(plugin)', whose generated code imports '\(imported.target)', without declaring it; add \"\(imported.target)\" to the dependencies of target '\(target.name)' in Package.swift"
                            ))
                        continue
                    }
                    let others = imported.files - 1
                    let elsewhere =
                        others == 0 ? "" : " (here and in \(others) other file\(others == 1 ? "" : "s"))"
                    diagnostics.append(
                        Diagnostic(
                            at: imported.location, code: "undeclared-import",
                            "target '\(target.name)' imports '\(imported.target)' without declaring it\(elsewhere); add \"\(imported.target)\" to the dependencies of target '\(target.name)' in Package.swift"
                        ))
                }
            }
            for dependencyName in target.dependencies where !used.contains(dependencyName) {
                guard let dependency = byName[dependencyName], dependency.kind != .executable else {
                    continue
                }
                let position =
                    declarations.position(ofDependency: dependencyName, of: target.name)
                    ?? PackageDeclarations.Position(line: 1, column: 1)
                let location = SourceLocation(file: packageFile, line: position.line, column: position.column)
                let missing: String
                if swiftFiles.isEmpty {
                    let headers = headers(of: dependency, root: root).sorted()
                    missing =
                        headers.isEmpty
                        ? "none of its sources (\(target.path)) can include its headers (it has none)"
                        : "none of its sources (\(target.path)) includes its headers (\(headers.joined(separator: ", ")))"
                } else {
                    missing = "none of its sources (\(target.path)) imports it"
                }
                let linkHint =
                    dependency.kind == .system && !swiftFiles.isEmpty
                    ? " (a C target that needs the library links it itself, with linkerSettings)" : ""
                diagnostics.append(
                    Diagnostic(
                        at: location, code: "unused-dependency",
                        "target '\(target.name)' declares a dependency on '\(dependencyName)' but \(missing); remove \"\(dependencyName)\" from the dependencies of target '\(target.name)' in Package.swift\(linkHint)"
                    ))
            }
        }
        return diagnostics
    }

    /// Each package target `target`'s Swift files import (itself left out), in order of first
    /// import: where it is first imported and how many files import it. The modules the code of
    /// its plugins generates count as imported, with the plugin named.
    private func importedTargets(
        of target: Target, files: [String], root: String, byModule: [String: Target]
    ) -> [(target: String, location: SourceLocation, files: Int, plugin: String?)] {
        var order: [String] = []
        var plugins: [String: String] = [:]
        var first: [String: SourceLocation] = [:]
        var fileCounts: [String: Int] = [:]
        for file in files {
            guard let data = FileManager.default.contents(atPath: "\(root)/\(file)") else { continue }
            var seen: Set<String> = []
            for site in SourceImports.swift(String(decoding: data, as: UTF8.self)) {
                guard let imported = byModule[site.name]?.name, imported != target.name,
                    seen.insert(imported).inserted
                else { continue }
                fileCounts[imported, default: 0] += 1
                if first[imported] == nil {
                    first[imported] = SourceLocation(file: file, line: site.line, column: site.column)
                    order.append(imported)
                }
            }
        }
        for plugin in target.plugins {
            let apps =
                Self.pluginsImportingApps.contains(plugin)
                ? target.dependencies.filter {
                    byModule[Self.moduleName(of: $0)]?.path.hasPrefix("Apps/") == true
                }
                : []
            for module in Self.generatedImports[plugin, default: []].sorted() + apps {
                guard let imported = byModule[module]?.name, first[imported] == nil else { continue }
                first[imported] = SourceLocation(file: target.path, line: 1, column: 1)
                plugins[imported] = plugin
                order.append(imported)
            }
        }
        return order.compactMap { name in
            first[name].map { (name, $0, fileCounts[name, default: 1], plugins[name]) }
        }
    }

    /// The dependencies of a C target whose headers one of its sources includes.
    private func includedDependencies(
        of target: Target, files: [String], root: String, byName: [String: Target]
    ) -> Set<String> {
        var included: Set<String> = []
        for file in files where Self.cExtensions.contains(where: file.hasSuffix) {
            guard let data = FileManager.default.contents(atPath: "\(root)/\(file)") else { continue }
            included.formUnion(SourceImports.cIncludes(String(decoding: data, as: UTF8.self)).map(\.name))
        }
        return Set(
            target.dependencies.filter { name in
                guard let dependency = byName[name] else { return false }
                return !headers(of: dependency, root: root).isDisjoint(with: included)
            })
    }

    /// The extensions of C-family sources and headers.
    static let cExtensions = [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".m", ".mm"]

    /// The headers including which uses `target`: for a system library, the headers its module
    /// map names, each standing for the headers it includes when it is a shim that includes some
    /// (CJPEG's `shim.h` stands for `jpeglib.h`); for a C target, those in its `include` folder.
    /// The C standard library's headers are left out.
    private func headers(of target: Target, root: String) -> Set<String> {
        let base = "\(root)/\(target.path)"
        var headers: Set<String> = []
        if target.kind == .system {
            guard let map = FileManager.default.contents(atPath: "\(base)/module.modulemap") else {
                return []
            }
            for line in String(decoding: map, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: "\"")
                guard line.contains("header"), parts.count >= 2 else { continue }
                let header = String(parts[1])
                let included = FileManager.default.contents(atPath: "\(base)/\(header)").map {
                    Set(SourceImports.cIncludes(String(decoding: $0, as: UTF8.self)).map(\.name))
                        .subtracting(SourceImports.cStandardHeaders)
                }
                // A shim stands for the library headers it includes; a real header for itself.
                headers.formUnion(included.flatMap { $0.isEmpty ? nil : $0 } ?? [header])
            }
        } else if let enumerator = FileManager.default.enumerator(atPath: "\(base)/include") {
            while let next = enumerator.nextObject() as? String {
                if Self.cExtensions.contains(where: next.hasSuffix) { headers.insert(next) }
            }
        }
        return headers.subtracting(SourceImports.cStandardHeaders)
    }

    /// The files `target` is built from, relative to `root`, in path order: everything under its
    /// path but its excluded and resource paths and the folders of targets nested inside it.
    private func sourceFiles(of target: Target, root: String) -> [String] {
        let nested = targets.compactMap { other -> String? in
            other.path.hasPrefix(target.path + "/")
                ? String(other.path.dropFirst(target.path.count + 1)) : nil
        }
        let skipped = target.excluded + nested
        guard let enumerator = FileManager.default.enumerator(atPath: "\(root)/\(target.path)") else {
            return []
        }
        var files: [String] = []
        while let next = enumerator.nextObject() as? String {
            guard !skipped.contains(where: { next == $0 || next.hasPrefix($0 + "/") }) else { continue }
            if next.hasSuffix(".swift") || Self.cExtensions.contains(where: next.hasSuffix) {
                files.append("\(target.path)/\(next)")
            }
        }
        return files.sorted()
    }
}
