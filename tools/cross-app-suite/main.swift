// cross-app-suite: runs the cross-app regression suite as several test processes at once. See
// `swift run cross-app-suite --help`.
import Foundation
import MutationTesting

exit(CrossAppSuiteCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
