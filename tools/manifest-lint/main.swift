// manifest-lint: validates Manifests/ against both apps' catalogs, the package graph and
// shared sources. See `swift run manifest-lint --help`.
import Foundation
import ManifestLint
import PrismApp
import StrandApp

exit(
    LintCommand.run(
        arguments: Array(CommandLine.arguments.dropFirst()), apps: [Prism.definition, Strand.definition]))
