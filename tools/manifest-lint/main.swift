// manifest-lint: validates Manifests/ against every app's catalog, the package graph and shared
// sources. See `swift run manifest-lint --help`.
import AllApps
import Foundation
import ManifestLint

exit(
    LintCommand.run(
        arguments: Array(CommandLine.arguments.dropFirst()), apps: AllApps.definitions,
        registeredIn: AllApps.registeredIn))
