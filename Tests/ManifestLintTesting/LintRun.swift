import AllApps
import CommandLineKit
import Composition
import Foundation
import ManifestLint

/// `manifest-lint` run in process against the repository or a scratch copy of its manifests,
/// for the manifest-lint tests and the security suite's hostile manifests.
public enum LintRun {
    /// The package root, found from this file's path.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Every app's definition, as the tool checks them.
    public static let apps = AllApps.definitions

    /// The app whose manifest a test breaks one way: the first of the package's apps (any would
    /// do; a test reads its id and display name from here, never by name).
    public static var modelApp: AppDefinition { apps[0] }

    /// `app`'s manifest as the repository holds it (`Manifests/<id>.json`).
    public static func manifestText(of app: AppDefinition = modelApp) throws -> String {
        try String(contentsOfFile: "\(packageRoot)/Manifests/\(app.id).json", encoding: .utf8)
    }

    /// The display name `app`'s manifest gives it.
    public static func displayName(of app: AppDefinition = modelApp) throws -> String {
        try app.manifest.decode().displayName
    }

    /// Runs the command with `arguments` in `directory`: its exit status, output and errors.
    public static func run(_ arguments: [String], in directory: String = packageRoot) -> (
        Int32, String, String
    ) {
        let output = CapturedTextOutput()
        let status = LintCommand.run(
            arguments: arguments, apps: apps, registeredIn: AllApps.registeredIn, output: output,
            currentDirectory: directory)
        return (status, output.output, output.error)
    }

    /// A scratch package root holding the repository's manifests, every app's, with `app`'s
    /// replaced by `manifest`.
    public static func scratchPackage(replacing app: String, with manifest: String) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(
            atPath: "\(root)/Manifests", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: "\(root)/Package.swift"))
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(packageRoot)/Manifests")
        where name.hasSuffix(".json") && name != "\(app).json" {
            try FileManager.default.copyItem(
                atPath: "\(packageRoot)/Manifests/\(name)", toPath: "\(root)/Manifests/\(name)")
        }
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: "\(root)/Manifests/\(app).json"))
        return root
    }
}
