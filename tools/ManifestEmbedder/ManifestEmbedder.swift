import Foundation
import PackagePlugin

/// Embeds an app's manifest into its library at build time.
///
/// For a target named `<Name>App` it reads `Manifests/<name>.json` from the package root, checks
/// it with `manifest-embed` (a broken manifest fails the build with file:line:column errors) and
/// compiles it in as `BundledManifest.value`.
@main
struct ManifestEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let base = target.name.hasSuffix("App") ? String(target.name.dropLast(3)) : target.name
        let relative = "Manifests/\(base.lowercased()).json"
        let input = context.package.directoryURL.appending(path: relative)
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledManifest.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(relative) into \(target.name)",
                executable: try context.tool(named: "manifest-embed").url,
                arguments: [input.path, output.path, relative],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
