import CommandLineKit
import Composition
import Foundation
import ManifestLint
import PrismApp
import StrandApp

/// `manifest-lint` run in process against the repository or a scratch copy of its manifests,
/// for the manifest-lint tests and the security suite's hostile manifests.
public enum LintRun {
    /// The package root, found from this file's path.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Both apps' definitions, as the tool checks them.
    public static let apps = [Prism.definition, Strand.definition]

    /// Runs the command with `arguments` in `directory`: its exit status, output and errors.
    public static func run(_ arguments: [String], in directory: String = packageRoot) -> (
        Int32, String, String
    ) {
        let output = CapturedTextOutput()
        let status = LintCommand.run(
            arguments: arguments, apps: apps, output: output, currentDirectory: directory)
        return (status, output.output, output.error)
    }

    /// A scratch package root holding the repository's manifests with one file replaced.
    public static func scratchPackage(strandManifest: String) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(
            atPath: "\(root)/Manifests", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: "\(root)/Package.swift"))
        try FileManager.default.copyItem(
            atPath: "\(packageRoot)/Manifests/prism.json", toPath: "\(root)/Manifests/prism.json")
        try Data(strandManifest.utf8).write(to: URL(fileURLWithPath: "\(root)/Manifests/strand.json"))
        return root
    }
}
