import Foundation
import PackagePlugin

/// Generates the AllApps library's list of apps from the app libraries the target depends on.
///
/// Package.swift gives the AllApps target a dependency on every app's library (`<Name>App`, under
/// Apps/); this plugin hands their names, in that order, to `app-index`, which writes
/// `AllApps.definitions`. A new app's line in Package.swift is all it takes to be listed.
@main
struct AppIndex: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let appsFolder = context.package.directoryURL.appending(path: "Apps").standardizedFileURL.path + "/"
        let libraries = target.dependencies.compactMap { dependency -> String? in
            guard case .target(let library) = dependency,
                library.directoryURL.standardizedFileURL.path.hasPrefix(appsFolder)
            else { return nil }
            return library.name
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "AllAppsDefinitions.swift")
        return [
            .buildCommand(
                displayName: "Listing the apps (\(libraries.joined(separator: ", "))) for \(target.name)",
                executable: try context.tool(named: "app-index").url,
                arguments: [output.path] + libraries,
                inputFiles: [],
                outputFiles: [output])
        ]
    }
}
